//! Quick capture (domain `notes`):
//!
//! - `capture_note`: `capture_note` — a new note per capture in the vault's inbox folder
//!   (`vaults[].inboxFolder`, default `Inbox`), named by the dispatch clock's UTC time, never
//!   over an existing note (`stamp` formats the time).

mod capture_note;
mod stamp;

use crate::server::ToolDef;

/// The capture tools.
pub fn tools() -> Vec<ToolDef> {
    vec![capture_note::tool()]
}
