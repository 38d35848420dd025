//! A note as text for the note tools: read and decoded (no BOM, LF line breaks), checked
//! against the caller's `expected_sha256`, and new text encoded back in the note's style.

use engine_core::acl::AclOp;

use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{LineEnding, NoteFile, TextFile, VaultError};

/// A note read from the vault with its decoded text.
pub(crate) struct NoteText {
    /// The file as read (canonical path, bytes, SHA-256 of the bytes, mtime).
    pub(crate) file: NoteFile,
    /// The decoded text and the BOM and line endings to restore.
    pub(crate) text: TextFile,
}

/// Reads and decodes the note at `path`; `op` is what the tool is about to do (it names the
/// operation in an `acl_denied` from the backend).
pub(crate) fn read_text(
    ctx: &ToolContext<'_>,
    path: &str,
    op: AclOp,
) -> Result<NoteText, ToolError> {
    let file = ctx
        .vault()
        .read(path)
        .map_err(|error| tool_error_from_vault(&error, op))?;
    let text = TextFile::decode(&file.bytes, &file.path)
        .map_err(|error| tool_error_from_vault(&error, op))?;
    Ok(NoteText { file, text })
}

/// The file at `path`, or `None` when nothing exists there.
pub(crate) fn read_if_exists(
    ctx: &ToolContext<'_>,
    path: &str,
    op: AclOp,
) -> Result<Option<NoteFile>, ToolError> {
    match ctx.vault().read(path) {
        Ok(file) => Ok(Some(file)),
        Err(VaultError::NotFound { .. }) => Ok(None),
        Err(error) => Err(tool_error_from_vault(&error, op)),
    }
}

/// The file bytes of `text` written in the style of `like`: its BOM, and its line endings
/// (text is taken with LF breaks; a CRLF or a leading BOM in it is normalized first, so
/// nothing is doubled). A note with mixed line endings gets `text` unchanged.
pub(crate) fn in_style(like: &TextFile, text: &str) -> Vec<u8> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = match like.line_ending {
        LineEnding::Mixed => text.to_owned(),
        LineEnding::Lf | LineEnding::Crlf => text.replace("\r\n", "\n"),
    };
    TextFile {
        bom: like.bom,
        line_ending: like.line_ending,
        text,
    }
    .encode()
}

/// The name of a line-ending style on the wire: `lf`, `crlf` or `mixed`.
pub(crate) fn line_ending_name(ending: LineEnding) -> &'static str {
    match ending {
        LineEnding::Lf => "lf",
        LineEnding::Crlf => "crlf",
        LineEnding::Mixed => "mixed",
    }
}

/// Marks a possible effect when a vault mutation failed with an I/O fault (it may strike
/// after the change reached the disk), and maps the error.
pub(crate) fn mutation_failed(ctx: &ToolContext<'_>, error: &VaultError, op: AclOp) -> ToolError {
    if matches!(error, VaultError::Io { .. }) {
        ctx.mark_effect_started();
    }
    tool_error_from_vault(error, op)
}
