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
//! References come from the vault's resolved link table (`references`), resolved the way
//! Obsidian resolves them; only notes the caller may read are reported or counted. Moves
//! share the link-safe commit of `move_note` (`tools/links/relink.rs`).

mod delete;
mod get;
mod list;
mod move_file;
mod references;

use crate::runtime::ToolDef;

/// The attachment tools.
pub fn tools() -> Vec<ToolDef> {
    vec![list::tool(), get::tool(), move_file::tool(), delete::tool()]
}
