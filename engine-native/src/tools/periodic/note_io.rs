//! Reading a periodic note, and creating one from the period's template (never over an
//! existing note).

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;

use crate::errors::{ErrorCode, ToolError};
use crate::periodic::{NoteLayout, NoteName, TemplateValues, TimeOfDay, expand};
use crate::runtime::ToolContext;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{NoteFile, TextFile, VaultError, WriteOptions};

/// A note's current state.
#[derive(Debug)]
pub(super) struct NoteState {
    /// The canonical vault-relative path.
    pub(super) path: String,
    /// The decoded text (LF line breaks, no BOM).
    pub(super) text: String,
    /// The SHA-256 of the file's bytes.
    pub(super) sha256: String,
    /// The file's size in bytes.
    pub(super) size: usize,
}

/// The note at `path` and its decoded text, or `None` when it does not exist. The caller
/// checked the ACL; `op` names what it is about to do.
pub(super) fn read_note(
    ctx: &ToolContext<'_>,
    path: &str,
    op: AclOp,
) -> Result<Option<(NoteFile, TextFile)>, ToolError> {
    let file = match ctx.vault().read(path) {
        Ok(file) => file,
        Err(VaultError::NotFound { .. }) => return Ok(None),
        Err(error) => return Err(tool_error_from_vault(&error, op)),
    };
    let text =
        TextFile::decode(&file.bytes, &file.path).map_err(|e| tool_error_from_vault(&e, op))?;
    Ok(Some((file, text)))
}

/// The state of a note as read.
pub(super) fn state_of(file: &NoteFile, text: TextFile) -> NoteState {
    NoteState {
        path: file.path.clone(),
        text: text.text,
        sha256: file.sha256.clone(),
        size: file.bytes.len(),
    }
}

/// The text a new note of `layout` starts with: its template expanded, or nothing when no
/// template is configured. A configured template that is missing is `not_found`.
pub(super) fn initial_text(
    ctx: &ToolContext<'_>,
    layout: &NoteLayout,
    note: &NoteName,
) -> Result<String, ToolError> {
    let Some(template) = layout.settings.template.as_deref() else {
        return Ok(String::new());
    };
    let path = if template.to_ascii_lowercase().ends_with(".md") {
        template.to_owned()
    } else {
        format!("{template}.md")
    };
    ctx.check_path(&path, AclOp::Read)?;
    let Some((_, text)) = read_note(ctx, &path, AclOp::Read)? else {
        return Err(ToolError::new(
            ErrorCode::NotFound,
            format!(
                "the template '{path}' configured for {} notes does not exist; create it, or change the template in Obsidian's settings",
                layout.period.name()
            ),
        )
        .with_details(serde_json::json!({"path": path})));
    };
    let now_ms = ctx.clock().now_ms();
    let values = TemplateValues {
        date: note.date,
        time: TimeOfDay::from_unix_ms(now_ms),
        title: &note.title,
        note_format: layout.format(),
    };
    Ok(expand(&text.text, &values))
}

/// Writes `text` as the new note `note` (refusing, with `already_exists`, to replace one).
pub(super) fn create_note(
    ctx: &ToolContext<'_>,
    note: &NoteName,
    text: String,
) -> Result<NoteState, ToolError> {
    let bytes = text.as_bytes();
    ctx.mark_effect_started();
    let outcome = ctx
        .vault()
        .write(&note.path, bytes, &WriteOptions::default())
        .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
    Ok(NoteState {
        path: outcome.path,
        sha256: sha256_hex(bytes),
        size: bytes.len(),
        text,
    })
}
