//! Sessions and their traces (domain `sessions`, issue 23, spec D23), over
//! [`crate::sessions`]:
//!
//! - `start_session`: the caller's session in the vault begins (or, when one is open, that
//!   one is answered unchanged: one open session per caller and vault); from then on every
//!   call the caller makes in the vault is a line of its JSONL trace.
//! - `end_session`: the session ends with an end record flushed to disk; ending it again
//!   changes nothing. It can leave a session note in the memory folder (`session_note`).
//! - `get_session_traces`: the recorded events of one session, or of the caller's sessions
//!   in a time window, filtered by tool, paged.
//! - `session_bootstrap`: what a session starts with: the opening message triaged over the
//!   vault's routing table (`triage`), the hand-off note and the chosen notes read, capped.
//!
//! A caller sees only its own sessions, and of the files a call changed only those it may
//! read.

mod answer;
mod bootstrap;
mod end;
mod session_note;
mod start;
mod traces;
mod triage;

use crate::runtime::ToolDef;

/// The session tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        start::tool(),
        end::tool(),
        traces::tool(),
        bootstrap::tool(),
    ]
}
