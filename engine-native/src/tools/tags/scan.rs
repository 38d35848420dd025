//! The Markdown notes under a folder, and the tags of those the caller may read (checked note
//! by note with [`ToolContext::may`] before the note is even read) with their text, in path
//! order: what `rename_tag` edits. `list_tags` and `find_notes_by_tag` count through
//! [`super::cache`] instead.

use engine_core::acl::AclOp;

use super::parse::{NoteTags, parse_tags};
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::frontmatter::{NoteText, read_text};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{Entry, EntryKind, VaultError};

/// One readable note, its text and its tags.
pub(super) struct TaggedNote {
    /// Its path.
    pub path: String,
    /// Its text.
    pub text: String,
    /// The SHA-256 of its bytes.
    pub sha256: String,
    /// Its tags (its inline tags only when the frontmatter is not valid YAML).
    pub tags: NoteTags,
}

/// Every Markdown file under `folder` (the vault with `None`) as listed, readable or not, in
/// path order.
pub(super) fn markdown_files(
    ctx: &ToolContext<'_>,
    folder: Option<&str>,
) -> Result<Vec<Entry>, ToolError> {
    let mut entries = ctx
        .vault()
        .list(folder)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    entries.retain(|entry| {
        entry.kind == EntryKind::File
            && entry
                .path
                .rsplit_once('.')
                .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("md"))
    });
    Ok(entries)
}

/// The note at `path` as text, `None` when it vanished or is not text since the listing.
pub(super) fn read_note(ctx: &ToolContext<'_>, path: &str) -> Result<Option<NoteText>, ToolError> {
    match read_text(ctx.vault(), path) {
        Ok(note) => Ok(Some(note)),
        Err(VaultError::NotFound { .. } | VaultError::NotText { .. }) => Ok(None),
        Err(error) => Err(tool_error_from_vault(&error, AclOp::Read)),
    }
}

/// Every readable Markdown note under `folder` (the vault with `None`) with its text and
/// tags, each read now. A note that vanished or is not text since the listing is skipped.
pub(super) fn tagged_notes(
    ctx: &ToolContext<'_>,
    folder: Option<&str>,
) -> Result<Vec<TaggedNote>, ToolError> {
    let mut notes = Vec::new();
    for entry in markdown_files(ctx, folder)? {
        if !ctx.may_list(&entry.path) {
            continue;
        }
        let Some(note) = read_note(ctx, &entry.path)? else {
            continue;
        };
        notes.push(TaggedNote {
            tags: parse_tags(&note.text).tags,
            path: note.path,
            text: note.text,
            sha256: note.sha256,
        });
    }
    notes.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(notes)
}
