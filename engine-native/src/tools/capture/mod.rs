//! Quick capture and the capture queue (domain `notes`):
//!
//! - `capture_note`: `capture_note` — a new note per capture in the vault's inbox folder
//!   (`vaults[].inboxFolder`, default `Inbox`), named by the dispatch clock's UTC time, never
//!   over an existing note (`stamp` formats the time).
//! - `queue_enqueue`: `enqueue_capture` — text staged in the vault's capture queue (in
//!   `cache.db`, not the vault) to be filed later.
//! - `queue_list`: `list_capture_queue` — the queue, newest first, paged.
//! - `queue_commit`: `commit_capture` — a queued capture filed as a note (confirmation
//!   outside the inbox and memory folders), then marked committed.
//! - `queue_note` builds the note text a capture becomes; `queue_view` shows a capture
//!   without the paths the caller may not read.

mod capture_note;
mod queue_commit;
mod queue_enqueue;
mod queue_list;
mod queue_note;
mod queue_view;
mod stamp;

use crate::runtime::ToolDef;

/// The capture tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        capture_note::tool(),
        queue_enqueue::tool(),
        queue_list::tool(),
        queue_commit::tool(),
    ]
}
