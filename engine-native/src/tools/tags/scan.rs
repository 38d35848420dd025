//! The tags of every Markdown note under a folder that the caller may read (checked note by
//! note with [`ToolContext::may`] before the note is even read), in path order.

use engine_core::acl::AclOp;

use super::parse::{NoteTags, read_tags};
use crate::errors::ToolError;
use crate::server::ToolContext;
use crate::tools::frontmatter::note::read_text;
use crate::tools::vault_error::tool_error_from_vault;
use crate::vault::{EntryKind, VaultError};

/// One readable note and its tags.
pub(super) struct TaggedNote {
    /// Its path.
    pub path: String,
    /// Its text.
    pub text: String,
    /// The SHA-256 of its bytes.
    pub sha256: String,
    /// Its tags (its inline tags only when the frontmatter is not valid YAML).
    pub tags: NoteTags,
    /// Why the frontmatter could not be read, when it could not.
    pub frontmatter_error: Option<String>,
}

/// Every readable Markdown note under `folder` (the vault with `None`) with its tags. A
/// note that vanished or is not text since the listing is skipped.
pub(super) fn tagged_notes(
    ctx: &ToolContext<'_>,
    folder: Option<&str>,
) -> Result<Vec<TaggedNote>, ToolError> {
    let entries = ctx
        .vault()
        .list(folder)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let mut notes = Vec::new();
    for entry in entries {
        let is_note = entry
            .path
            .rsplit_once('.')
            .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("md"));
        if entry.kind != EntryKind::File || !is_note || !ctx.may(&entry.path, AclOp::Read) {
            continue;
        }
        let note = match read_text(ctx.vault(), &entry.path) {
            Ok(note) => note,
            Err(VaultError::NotFound { .. } | VaultError::NotText { .. }) => continue,
            Err(error) => return Err(tool_error_from_vault(&error, AclOp::Read)),
        };
        let (tags, frontmatter_error) = match read_tags(&note.text) {
            Ok(tags) => (tags, None),
            Err(error) => (
                super::parse::note_tags(&note.text, &serde_json::Map::new()),
                Some(error.to_string()),
            ),
        };
        notes.push(TaggedNote {
            path: note.path,
            text: note.text,
            sha256: note.sha256,
            tags,
            frontmatter_error,
        });
    }
    notes.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(notes)
}
