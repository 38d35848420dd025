//! The link tools (facade domain `links`, and `bulk_move_notes` in `notes`), every link
//! resolved exactly as Obsidian resolves it ([`crate::index::links`]):
//!
//! - `outgoing`: `get_outgoing_links` (kind, target as written, subpath, line, resolution);
//! - `backlinks`: `get_backlinks` (linking notes with line numbers and line text, paged);
//! - `hygiene`: `find_orphans`, `find_unresolved_links`;
//! - `bulk_move`: `bulk_move_notes` (HITL floor, per-item results, all or nothing);
//! - `relink`: the link-safe move machinery `move_note`, `copy_note` and
//!   `bulk_move_notes` share: which notes a move breaks, their rewrite, the all-or-nothing
//!   commit;
//! - `table`: the vault's link table and the paging the tools share.
//!
//! Only notes the caller may read count or appear: a hidden note's links are never reported
//! and a hidden target is reported as unresolved.

mod backlinks;
mod bulk_move;
mod hygiene;
mod outgoing;
pub(crate) mod relink;
pub(crate) mod table;

use crate::dispatch::ToolDef;

/// The link tools.
pub fn tools() -> Vec<ToolDef> {
    let mut tools = vec![outgoing::tool(), backlinks::tool(), bulk_move::tool()];
    tools.extend(hygiene::tools());
    tools
}
