//! Contradictions between notes (facade domain `knowledge`): pairs of passages a language
//! model judged to contradict each other or to be in tension, found by the detector of
//! [`crate::index::contradictions`] and kept in the `contradictions` table.
//!
//! - `list_contradictions`: the open pairs touching the notes named, only those whose both
//!   sides the caller may read and still hold the text they were judged on.
//! - `detect_contradictions`: one bounded run of the detector over the vault (pairs judged,
//!   time), with the model of [`crate::runtime::Runtime::contradiction_judge`]; without one
//!   it answers `available: false` and judges nothing. The same run is what the
//!   maintenance task does on every vault when a model is configured and what the command
//!   line's `obsidian-tc contradictions` does
//!   ([`crate::runtime::Runtime::detect_contradictions`]).

mod detect;
mod list;

use crate::runtime::ToolDef;

/// The contradiction tools.
pub fn tools() -> Vec<ToolDef> {
    vec![list::tool(), detect::tool()]
}
