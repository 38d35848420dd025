//! Snapshots and undo: every file a tool changes is kept as it was before the change
//! (recorded by the vault's journal in dispatch, see `dispatch/changes.rs`), so a user can
//! see what an agent changed and take it back.
//!
//! - `list`: `list_snapshots` (newest first, of one note or the whole vault, paged) and
//!   `read_snapshot` (one snapshot's content);
//! - `restore_note`: put one note back as a snapshot had it (dry run by default,
//!   confirmed by a human otherwise);
//! - `undo`: `undo_last_change` (put back every file of the caller's last change);
//! - `take`: `snapshot_note` (the original obsidian-tc's name: a snapshot of a note taken by
//!   hand, changing nothing but the cache).
//!
//! Restoring writes the exact bytes of the snapshot, or moves to `.trash/` a file that did
//! not exist before; the restore is itself a recorded change, so nothing is ever lost.

mod list;
mod restore;
mod restore_note;
mod take;
mod undo;

use crate::runtime::ToolDef;

/// The snapshot tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        list::list_tool(),
        list::read_tool(),
        restore_note::tool(),
        undo::tool(),
        take::tool(),
    ]
}
