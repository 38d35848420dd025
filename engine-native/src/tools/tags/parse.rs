//! The tags of one note, read from its text: frontmatter `tags` / `tag` (a list, or one
//! string of comma-separated tags, `#` optional) and inline `#tags` of the body (engine-core's
//! extraction, Obsidian's rules). Keys compare like Obsidian: lowercase, without `#`.

use engine_core::markdown::extract;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::errors::{ErrorCode, ToolError};
use crate::frontmatter::{self, FrontmatterError};

/// The frontmatter properties Obsidian reads tags from, in order of precedence.
pub(super) const TAG_PROPERTIES: [&str; 2] = ["tags", "tag"];

/// One tag as written in a note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(super) struct WrittenTag {
    /// The tag as written, without `#` (`Project/Alpha`).
    pub tag: String,
    /// Its key: lowercase, without `#` (`project/alpha`).
    pub key: String,
    /// The 1-based line of an inline tag (`None` in the frontmatter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

/// An inline tag with its byte span (`#` included).
#[derive(Debug, Clone)]
pub(super) struct InlineTag {
    /// The tag.
    pub written: WrittenTag,
    /// First byte of `#`.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// Every tag of a note.
#[derive(Debug, Clone, Default)]
pub(super) struct NoteTags {
    /// The frontmatter property holding the tags, when there is one.
    pub property: Option<&'static str>,
    /// Its value's items, as stored (non-string items kept as they are).
    pub items: Vec<Value>,
    /// The frontmatter tags (the string items), in order.
    pub frontmatter: Vec<WrittenTag>,
    /// The inline tags, in document order.
    pub inline: Vec<InlineTag>,
}

impl NoteTags {
    /// Every tag key of the note, sorted, each once.
    pub fn keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = self
            .frontmatter
            .iter()
            .chain(self.inline.iter().map(|tag| &tag.written))
            .map(|tag| tag.key.clone())
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }
}

/// The key of a tag as written (`#Project/Alpha` and `Project/Alpha` give `project/alpha`).
pub(super) fn key_of(tag: &str) -> String {
    tag.trim().trim_start_matches('#').to_lowercase()
}

/// Whether `key` is `tag` or nested under it (`a/b` is under `a`).
pub(super) fn is_under(key: &str, tag: &str) -> bool {
    key == tag
        || key
            .strip_prefix(tag)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The items of a tags property: a list as it is, a string split on commas.
fn items_of(value: &Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items.clone(),
        Value::String(text) => text
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(|item| Value::String(item.to_owned()))
            .collect(),
        Value::Null => Vec::new(),
        other => vec![other.clone()],
    }
}

/// The tags of `text`'s frontmatter `properties` and body.
pub(super) fn note_tags(text: &str, properties: &Map<String, Value>) -> NoteTags {
    let property = TAG_PROPERTIES
        .into_iter()
        .find(|key| properties.contains_key(*key));
    let items = property
        .and_then(|key| properties.get(key))
        .map(items_of)
        .unwrap_or_default();
    let frontmatter = items
        .iter()
        .filter_map(Value::as_str)
        .map(|tag| tag.trim().trim_start_matches('#'))
        .filter(|tag| !tag.is_empty())
        .map(|tag| WrittenTag {
            tag: tag.to_owned(),
            key: key_of(tag),
            line: None,
        })
        .collect();
    let found = if may_have_inline_tags(text) {
        extract(text).tags
    } else {
        Vec::new()
    };
    let inline = found
        .into_iter()
        .map(|tag| InlineTag {
            written: WrittenTag {
                tag: tag.tag.trim_start_matches('#').to_owned(),
                key: tag.key,
                line: Some(tag.position.start.line + 1),
            },
            start: tag.position.start.offset,
            end: tag.position.end.offset,
        })
        .collect();
    NoteTags {
        property,
        items,
        frontmatter,
        inline,
    }
}

/// Whether `text` may hold an inline tag: a `#` directly followed by something other than
/// whitespace or another `#` (a tag needs at least one character after its `#`; a heading's
/// `# ` does not count). Without one, the note's inline tags are known to be none without
/// parsing it (a long note without tags, such as a log being appended to, costs one pass over
/// its bytes).
fn may_have_inline_tags(text: &str) -> bool {
    text.as_bytes()
        .windows(2)
        .any(|pair| pair[0] == b'#' && pair[1] != b'#' && !pair[1].is_ascii_whitespace())
}

/// The tags of a note's text, or why its frontmatter cannot be read.
pub(super) fn read_tags(text: &str) -> Result<NoteTags, FrontmatterError> {
    let fm = frontmatter::read(text)?;
    Ok(note_tags(text, &fm.properties))
}

/// A note's tags as the vault-wide tools count them.
#[derive(Debug, Clone)]
pub(super) struct ParsedTags {
    /// Its tags (its inline tags only when the frontmatter is not valid YAML).
    pub tags: NoteTags,
    /// Why the frontmatter could not be read, when it could not.
    pub frontmatter_error: Option<String>,
}

/// The tags of a note's text for the vault-wide tools: with frontmatter that is not valid
/// YAML, its inline tags and the reason.
pub(super) fn parse_tags(text: &str) -> ParsedTags {
    match read_tags(text) {
        Ok(tags) => ParsedTags {
            tags,
            frontmatter_error: None,
        },
        Err(error) => ParsedTags {
            tags: note_tags(text, &Map::new()),
            frontmatter_error: Some(error.to_string()),
        },
    }
}

/// The tag argument without `#`, checked to be one valid tag by Obsidian's rules (it must
/// read back as exactly itself when written inline).
pub(super) fn valid_tag(tag: &str) -> Result<String, ToolError> {
    let body = tag.trim().trim_start_matches('#');
    let written = format!("#{body}");
    let found = extract(&written).tags;
    match found.as_slice() {
        [only] if only.tag == written => Ok(body.to_owned()),
        _ => Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!(
                "'{tag}' is not a valid tag: use letters, digits, '_', '-' and '/' (nesting), at least one non-digit, no spaces or punctuation"
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_skipped_as_tagless_has_no_inline_tags() {
        let tagless = [
            "# Heading\n\nplain words\n",
            "## Sub\n#\n# \n",
            "a # b ## c\t#\td #",
            "",
        ];
        for text in tagless {
            assert!(!may_have_inline_tags(text), "{text:?}");
            assert!(extract(text).tags.is_empty(), "{text:?}");
        }
        for text in ["#tag", "a ##tag", "[[Note#Heading]]", "#\u{a0}x", "`#code`"] {
            assert!(may_have_inline_tags(text), "{text:?}");
        }
        let tagged = "# Title\nsome #tag here\n";
        assert_eq!(note_tags(tagged, &Map::new()).inline.len(), 1);
    }

    #[test]
    fn frontmatter_and_inline_tags_are_read_with_keys_and_lines() {
        let text = "---\ntags: [Alpha, \"#beta/x\", 2024]\n---\nBody #Gamma and #alpha.\n";
        let tags = read_tags(text).expect("valid frontmatter");
        assert_eq!(tags.property, Some("tags"));
        assert_eq!(tags.items.len(), 3);
        let keys: Vec<&str> = tags.frontmatter.iter().map(|t| t.key.as_str()).collect();
        assert_eq!(keys, ["alpha", "beta/x"]);
        assert_eq!(tags.inline[0].written.tag, "Gamma");
        assert_eq!(tags.inline[0].written.line, Some(4));
        assert_eq!(&text[tags.inline[1].start..tags.inline[1].end], "#alpha");
        assert_eq!(tags.keys(), ["alpha", "beta/x", "gamma"]);
    }

    #[test]
    fn a_comma_string_is_a_list_and_nesting_is_by_whole_segments() {
        let tags = read_tags("---\ntag: a, b/c\n---\n").expect("valid");
        assert_eq!(tags.property, Some("tag"));
        assert_eq!(tags.keys(), ["a", "b/c"]);
        assert!(is_under("a/b", "a"));
        assert!(is_under("a", "a"));
        assert!(!is_under("ab", "a"));
    }

    #[test]
    fn only_a_single_valid_tag_is_accepted() {
        assert_eq!(valid_tag("#proj/x-1").expect("valid"), "proj/x-1");
        assert!(valid_tag("two words").is_err());
        assert!(valid_tag("123").is_err());
        assert!(valid_tag("a.b").is_err());
        assert!(valid_tag("").is_err());
    }
}
