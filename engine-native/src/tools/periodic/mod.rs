//! Periodic notes (domain `periodic`), laid out by the vault's Obsidian settings (core Daily
//! notes, the Periodic Notes plugin; see [`crate::periodic`]):
//!
//! - `get`: `get_periodic_note` (never creates), `create_periodic_note` (from the template,
//!   never over an existing note; idempotency key), `find_or_create_periodic_note`.
//! - `append`: `append_to_periodic_note` (creates the note first when needed; idempotency
//!   key, `expected_sha256`).
//! - `list`: `list_periodic_notes` (the existing notes of a date range, ACL-filtered, paged).
//!
//! The date defaults to today (UTC) by the dispatch clock; `locate` finds the note's path,
//! `note_io` reads and creates notes, `result` is the shared result.

mod append;
mod get;
mod list;
mod locate;
mod note_io;
mod result;

use crate::runtime::ToolDef;

/// The periodic note tools.
pub fn tools() -> Vec<ToolDef> {
    let mut tools = get::tools();
    tools.push(append::tool());
    tools.push(list::tool());
    tools
}
