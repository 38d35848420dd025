//! Note quality (facade domain `knowledge`): each note's measures, flags and score from the
//! `note-quality` pass ([`crate::index::note_quality`]), kept in the `note_quality` table.
//!
//! - `note_quality_report`: the rows, by path, optionally only those carrying given flags;
//!   it never measures and nothing ranks by it. A caller who may read every note gets the
//!   stored rows; another gets the measured notes it may read, measured at the call over
//!   those notes only (a link or a duplicate in a note it may not read does not count).
//! - `compute_note_quality`: the pass run now within a time budget (the command line's
//!   `obsidian-tc note-quality` runs the same pass, [`crate::runtime::Runtime::measure_notes`]);
//!   a pass cut short goes on next time with the notes measured least recently.

mod compute;
mod report;

use crate::runtime::ToolDef;

/// The note-quality tools.
pub fn tools() -> Vec<ToolDef> {
    vec![report::tool(), compute::tool()]
}
