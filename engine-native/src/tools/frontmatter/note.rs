//! A note read as text, with the SHA-256 of its bytes.

use engine_core::acl::AclOp;

use crate::errors::ToolError;
use crate::tools::vault_error::tool_error_from_vault;
use crate::vault::{Vault, VaultError};

/// A note's text exactly as stored (BOM and line breaks included).
pub(crate) struct NoteText {
    /// The canonical vault-relative path.
    pub path: String,
    /// The note's text.
    pub text: String,
    /// The SHA-256 of the note's bytes.
    pub sha256: String,
}

/// Reads the note at `path` as UTF-8 text; a file that is not is `NotText`.
pub(crate) fn read_text(vault: &Vault, path: &str) -> Result<NoteText, VaultError> {
    let note = vault.read(path)?;
    let text = String::from_utf8(note.bytes).map_err(|_| VaultError::NotText {
        path: note.path.clone(),
    })?;
    Ok(NoteText {
        path: note.path,
        text,
        sha256: note.sha256,
    })
}

/// [`read_text`] for a tool that reads the note: vault errors become tool errors.
pub(super) fn read_for_tool(vault: &Vault, path: &str) -> Result<NoteText, ToolError> {
    read_text(vault, path).map_err(|error| tool_error_from_vault(&error, AclOp::Read))
}
