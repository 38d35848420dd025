//! The attachment tools (domain `attachments`): every file of the vault that is not a
//! Markdown note, canvas or base (images, PDFs, audio, ...).
//!
//! - `list`: `list_attachments` (paged, by folder and extension, with reference counts).
//! - `get`: `get_attachment` (metadata, referencing notes, optional base64 content within
//!   the response governor).
//! - `move_file`: `move_attachment` (rewrites every embed, wikilink and markdown link to it;
//!   HITL when crossing a folder or overwriting; all or nothing).
//! - `delete`: `delete_attachment` (destructive, HITL; soft delete into `.trash/`).
//!
//! References are found by `references` from the notes themselves, resolved the way
//! Obsidian resolves them, among the notes the caller may read only.

mod delete;
mod get;
mod list;
mod move_file;
mod references;

use crate::dispatch::ToolDef;

/// The attachment tools.
pub fn tools() -> Vec<ToolDef> {
    vec![list::tool(), get::tool(), move_file::tool(), delete::tool()]
}
