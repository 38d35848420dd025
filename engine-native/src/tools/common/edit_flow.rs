//! The one flow of the editing tools (`append_note`, `patch_note`): read the note, check
//! `expected_sha256`, apply the pure edit to its text, preview it for a `dry_run`, ask for
//! a human's confirmation when the edit discards too much (v1 §2.4), and write it back in
//! the note's style, guarded by the SHA-256 it was read with.

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

use super::edit_error::tool_error_from_edit;
use super::note_text::{in_style, mutation_failed, read_text};
use crate::edits::{CONFIRM_LINES, Edit, EditError, preview};
use crate::errors::ToolError;
use crate::runtime::{Handler, ToolContext, ToolDef};
use crate::tools::common::args::PATH_READ_WRITE;
use crate::tools::common::structured::output_schema;
use crate::tools::common::vault_error::check_expected;
use crate::vault::WriteOptions;

/// The declaration of an editing tool (`append_note`, `patch_note`): scope `write:notes`,
/// keyed idempotency, the note's path read and written, [`EditResult`] out.
pub(crate) fn edit_tool(
    (name, title): (&'static str, &'static str),
    description: &'static str,
    input_schema: serde_json::Value,
    handler: Handler,
) -> ToolDef {
    ToolDef::new(
        (name, title, description),
        "notes",
        (input_schema, output_schema::<EditResult>()),
        handler,
    )
    .scopes(&["write:notes"])
    .paths(PATH_READ_WRITE)
    .idempotent(true)
}

/// Which note to edit and how.
pub(crate) struct EditRequest<'a> {
    /// The note's vault-relative path.
    pub(crate) path: &'a str,
    /// The SHA-256 the caller read, if it gave one.
    pub(crate) expected_sha256: Option<&'a str>,
    /// Preview only; change nothing.
    pub(crate) dry_run: bool,
}

/// What an editing tool returns.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct EditResult {
    /// The canonical vault-relative path (NFC).
    pub(crate) path: String,
    /// Whether the note's content changed (or, for a dry run, would change).
    changed: bool,
    /// Whether this was a preview that changed nothing.
    dry_run: bool,
    /// The SHA-256 of the note after the edit (for a dry run: what it would be).
    pub(crate) sha256: String,
    /// The note's size in bytes after the edit (for a dry run: what it would be).
    size: usize,
    /// Lines the edit adds.
    lines_added: usize,
    /// Lines the edit removes.
    lines_removed: usize,
    /// The change as a unified diff (dry runs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    preview: Option<String>,
}

/// Applies the text edit `edit` to the note `request` names and writes the result (unless a
/// dry run).
pub(crate) fn apply_edit(
    ctx: &ToolContext<'_>,
    request: &EditRequest<'_>,
    edit: impl FnOnce(&str) -> Result<Edit, EditError>,
) -> Result<EditResult, ToolError> {
    apply_note_edit(ctx, request, |path, text| {
        edit(text).map_err(|error| tool_error_from_edit(path, &error))
    })
}

/// [`apply_edit`] for any edit: `edit` gets the note's canonical path and text and reports
/// its own refusals as tool errors.
pub(crate) fn apply_note_edit(
    ctx: &ToolContext<'_>,
    request: &EditRequest<'_>,
    edit: impl FnOnce(&str, &str) -> Result<Edit, ToolError>,
) -> Result<EditResult, ToolError> {
    let note = read_text(ctx, request.path, AclOp::Write)?;
    let path = note.file.path.clone();
    check_expected(&path, Some(&note.file.sha256), request.expected_sha256)?;
    let edit = edit(&path, &note.text.text)?;
    let bytes = in_style(&note.text, &edit.text);
    let diff = preview(&note.text.text, &edit.text);
    let mut result = EditResult {
        path: path.clone(),
        changed: edit.changed,
        dry_run: request.dry_run,
        sha256: sha256_hex(&bytes),
        size: bytes.len(),
        lines_added: edit.lines_added,
        lines_removed: edit.lines_removed,
        preview: None,
    };
    if request.dry_run {
        result.preview = Some(diff);
        return Ok(result);
    }
    if edit.needs_confirmation {
        ctx.confirm(json!({
            "tool": ctx.tool().name(),
            "vault": ctx.vault_id(),
            "path": path,
            "reason": format!(
                "the edit removes {} of the body's {} lines (more than {CONFIRM_LINES} lines and more than half)",
                edit.lines_removed, edit.body_lines_before
            ),
            "lines_removed": edit.lines_removed,
            "lines_added": edit.lines_added,
            "body_lines_before": edit.body_lines_before,
            "preview": diff,
        }))?;
    }
    if !edit.changed {
        return Ok(result);
    }
    let options = WriteOptions {
        overwrite: true,
        expected_sha256: Some(note.file.sha256),
    };
    ctx.vault()
        .write(&path, &bytes, &options)
        .map_err(|error| mutation_failed(ctx, &error, AclOp::Write))?;
    Ok(result)
}
