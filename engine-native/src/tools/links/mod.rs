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
//! - `rewrite_link`: `rewrite_link` (retarget every link to a note, or every unresolved link
//!   written some way, keeping style, alias and subpath; dry run first, HITL, all or nothing);
//! - `prune`: `prune_hub_links` (drop a hub note's links by policy; dry run first, HITL);
//! - `resolve`: `resolve_note` (what a name, alias or wikilink text stands for, ranked);
//! - `vault_tree`: `get_vault_tree` (folders with note and attachment counts);
//! - `changes`: the replaced text and changed lines the editing tools plan and show;
//! - `table`: the vault's link table and the paging the tools share.
//!
//! Only notes the caller may read count or appear: a hidden note's links are never reported
//! and a hidden target is reported as unresolved.

mod backlinks;
mod bulk_move;
mod changes;
mod hygiene;
mod outgoing;
mod prune;
mod resolve;
mod rewrite_link;
mod vault_tree;

use crate::runtime::ToolDef;

/// The link tools.
pub fn tools() -> Vec<ToolDef> {
    let mut tools = vec![
        outgoing::tool(),
        backlinks::tool(),
        bulk_move::tool(),
        rewrite_link::tool(),
        prune::tool(),
        resolve::tool(),
        vault_tree::tool(),
    ];
    tools.extend(hygiene::tools());
    tools
}
