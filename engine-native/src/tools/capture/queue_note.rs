//! The note text a queued capture becomes: its content as given, with its tags (if any)
//! merged into the note's `tags` property (the frontmatter block is created when the content
//! has none; tags already there are kept, in order, before the new ones).

use serde_json::{Map, Value, json};

use crate::errors::{ErrorCode, ToolError};
use crate::frontmatter::{Edit, apply};
use crate::tools::common::frontmatter::tool_error_from_frontmatter;

/// The most tags a capture may carry.
pub(super) const MAX_TAGS: usize = 50;

/// `tags` as a note keeps them: a leading `#` dropped, each checked to be one tag
/// (`invalid_input` for an empty one or one with a space, naming it).
pub(super) fn clean_tags(tags: &[String]) -> Result<Vec<String>, ToolError> {
    let mut out: Vec<String> = Vec::with_capacity(tags.len());
    for tag in tags {
        let clean = tag.trim().trim_start_matches('#');
        if clean.is_empty() || clean.chars().any(char::is_whitespace) {
            return Err(ToolError::new(
                ErrorCode::InvalidInput,
                format!(
                    "{tag:?} is not a tag; give tags as single words such as \"later\" or \"project/x\""
                ),
            ));
        }
        if !out.iter().any(|kept| kept == clean) {
            out.push(clean.to_owned());
        }
    }
    Ok(out)
}

/// `text` with `tags` merged into its `tags` property (unchanged when `tags` is empty);
/// `path` names the note in an error (content whose frontmatter cannot be edited safely).
pub(super) fn with_tags(text: &str, tags: &[String], path: &str) -> Result<String, ToolError> {
    if tags.is_empty() {
        return Ok(text.to_owned());
    }
    let properties: Map<String, Value> = [("tags".to_owned(), json!(tags))].into_iter().collect();
    apply(text, &Edit::Merge { properties })
        .map(|edited| edited.text)
        .map_err(|error| tool_error_from_frontmatter(&error, path))
}
