//! `patch_note`: replace a unique string, a heading's section or a block's text. An edit
//! that discards more than 20 lines and more than half of the body needs the user's
//! confirmation (v1 §2.4).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::edit_flow::{EditRequest, EditResult, apply_edit};
use crate::dispatch::{ToolContext, ToolDef};
use crate::edits::{PatchTarget, patch};
use crate::errors::{ErrorCode, ToolError};
use crate::tools::args::PATH_READ_WRITE;
use crate::tools::args::{input_schema, parse};
use crate::tools::structured::{output_schema, structured};

/// The arguments of `patch_note`: `old` + `new`, or `heading` + `content`, or `block` +
/// `content`.
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
    ToolDef {
        name: "patch_note",
        title: "Patch note",
        description: "Replace part of a note: old+new replaces a string that must occur exactly once (else not_found or ambiguous with the candidate lines); heading+content replaces a section's body (include_heading: the heading too); block+content replaces a block's text. Removing more than 20 lines and more than half of the note needs the user's confirmation. dry_run previews. Keeps the note's BOM and line endings.",
        domain: "notes",
        input_schema: input_schema::<PatchNote>(),
        output_schema: output_schema::<EditResult>(),
        scopes: &["write:notes"],
        destructive: false,
        idempotency: true,
        vault_arg: true,
        path_args: PATH_READ_WRITE,
        precheck: None,
        handler: patch_note,
    }
}

fn patch_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: PatchNote = parse(args)?;
    let (target, replacement) = patch_target(&args)?;
    let request = EditRequest {
        path: &args.path,
        expected_sha256: args.expected_sha256.as_deref(),
        dry_run: args.dry_run,
    };
    structured(&apply_edit(ctx, &request, |text| {
        patch(text, &target, replacement)
    })?)
}

/// The target and the replacement text `args` name; any other combination is
/// `invalid_input`.
fn patch_target(args: &PatchNote) -> Result<(PatchTarget, &str), ToolError> {
    let fields = (
        &args.old,
        &args.new,
        &args.heading,
        &args.block,
        &args.content,
    );
    match fields {
        (Some(old), Some(new), None, None, None) if !args.include_heading => {
            Ok((PatchTarget::Unique(old.clone()), new))
        }
        (None, None, Some(heading), None, Some(content)) => Ok((
            PatchTarget::Section {
                heading: heading.clone(),
                include_heading: args.include_heading,
            },
            content,
        )),
        (None, None, None, Some(block), Some(content)) if !args.include_heading => {
            Ok((PatchTarget::Block(block.clone()), content))
        }
        _ => Err(ToolError::new(
            ErrorCode::InvalidInput,
            "give exactly one target: old and new; or heading and content (include_heading optional); or block and content",
        )),
    }
}
