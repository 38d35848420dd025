//! `patch_note`: replace a unique string, a heading's section, a block's text or one
//! frontmatter property's value. An edit that discards more than 20 lines and more than half
//! of the body needs the user's confirmation (v1 §2.4).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::edits::{Edit, PatchTarget, patch};
use crate::errors::{ErrorCode, ToolError};
use crate::frontmatter::{Edit as FrontmatterEdit, apply as apply_frontmatter};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::edit_flow::{EditRequest, apply_edit, apply_note_edit, edit_tool};
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::structured::structured;

/// The arguments of `patch_note`: `old` + `new`, or `heading` + `content`, or `block` +
/// `content`, or `property` (+ `value`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct PatchNote {
    /// The vault-relative path of the note.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// Text that occurs exactly once in the note, to be replaced by `new`.
    #[serde(default)]
    #[schemars(length(min = 1))]
    old: Option<String>,
    /// The replacement of `old` (may be empty, to delete it).
    #[serde(default)]
    new: Option<String>,
    /// Replace this heading's section (text or a path such as `Guide#Install`) by `content`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    heading: Option<String>,
    /// With `heading`: replace the heading line too, not only the section's body.
    #[serde(default)]
    include_heading: bool,
    /// Replace the text of the block with this id (`^intro` or `intro`) by `content`; the
    /// block keeps its id.
    #[serde(default)]
    #[schemars(length(min = 1, max = 128))]
    block: Option<String>,
    /// The new text for `heading` or `block` (LF line breaks).
    #[serde(default)]
    content: Option<String>,
    /// Set this frontmatter property to `value`, rewriting only its lines (the block is
    /// created when the note has none).
    #[serde(default)]
    #[schemars(length(min = 1, max = 256))]
    property: Option<String>,
    /// The new value of `property`: text, number, boolean, list or object; absent or null
    /// leaves the property empty.
    #[serde(default)]
    value: Option<Value>,
    /// Refuse (`concurrent_modification`) unless the note still has this SHA-256.
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    expected_sha256: Option<String>,
    /// Return the diff preview and change nothing.
    #[serde(default)]
    dry_run: bool,
}

/// The `patch_note` tool.
pub(super) fn tool() -> ToolDef {
    edit_tool(
        ("patch_note", "Patch note"),
        "Edit part of a note in place (fix a typo, change a sentence or section): old+new replaces a string that must occur exactly once (else not_found or ambiguous with the candidate lines); heading+content replaces a section's body (include_heading: the heading too); block+content replaces a block's text; property+value sets one frontmatter property, leaving every other byte as it was. Removing more than 20 lines and more than half of the note needs the user's confirmation. dry_run previews. Keeps the note's BOM and line endings.",
        input_schema::<PatchNote>(),
        patch_note,
    )
    .keywords(&["edit", "modify", "fix", "correct", "change", "update", "replace", "find and replace", "search and replace", "typo", "word", "sentence", "paragraph", "section", "in place", "tweak", "reword", "spelling"])
}

fn patch_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: PatchNote = parse(args)?;
    let target = patch_target(&args)?;
    let request = EditRequest {
        path: &args.path,
        expected_sha256: args.expected_sha256.as_deref(),
        dry_run: args.dry_run,
    };
    let result = match target {
        Target::Text(target, replacement) => {
            apply_edit(ctx, &request, |text| patch(text, &target, replacement))?
        }
        Target::Property(key, value) => apply_note_edit(ctx, &request, |path, text| {
            let set = FrontmatterEdit::Set {
                key: key.to_owned(),
                value,
            };
            let edited = apply_frontmatter(text, &set)
                .map_err(|error| tool_error_from_frontmatter(&error, path))?;
            Ok(Edit::new(text, edited.text))
        })?,
    };
    structured(&result)
}

/// What a `patch_note` call changes.
enum Target<'a> {
    /// Text located by a string, heading or block, and its replacement.
    Text(PatchTarget, &'a str),
    /// A frontmatter property and its new value.
    Property(&'a str, Value),
}

/// The target `args` name; any other combination is `invalid_input`.
fn patch_target(args: &PatchNote) -> Result<Target<'_>, ToolError> {
    let fields = (
        &args.old,
        &args.new,
        &args.heading,
        &args.block,
        &args.content,
        &args.property,
    );
    let no_value = args.value.is_none();
    match fields {
        (Some(old), Some(new), None, None, None, None) if !args.include_heading && no_value => {
            Ok(Target::Text(PatchTarget::Unique(old.clone()), new))
        }
        (None, None, Some(heading), None, Some(content), None) if no_value => Ok(Target::Text(
            PatchTarget::Section {
                heading: heading.clone(),
                include_heading: args.include_heading,
            },
            content,
        )),
        (None, None, None, Some(block), Some(content), None)
            if !args.include_heading && no_value =>
        {
            Ok(Target::Text(PatchTarget::Block(block.clone()), content))
        }
        (None, None, None, None, None, Some(property)) if !args.include_heading => Ok(
            Target::Property(property, args.value.clone().unwrap_or(Value::Null)),
        ),
        _ => Err(ToolError::new(
            ErrorCode::InvalidInput,
            "give exactly one target: old and new; or heading and content (include_heading optional); or block and content; or property and value",
        )),
    }
}
