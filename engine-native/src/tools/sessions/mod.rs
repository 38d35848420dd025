//! Sessions and their traces (domain `sessions`, issue 23, spec D23), over
//! [`crate::sessions`]:
//!
//! - `start_session`: the caller's session in the vault begins (or, when one is open, that
//!   one is answered unchanged: one open session per caller and vault); from then on every
//!   call the caller makes in the vault is a line of its JSONL trace.
//! - `end_session`: the session ends with an end record flushed to disk; ending it again
//!   changes nothing.
//! - `get_session_traces`: the recorded events of one session, or of the caller's sessions
//!   in a time window, filtered by tool, paged.
//!
//! A caller sees only its own sessions, and of the files a call changed only those it may
//! read.

mod answer;
mod end;
mod start;
mod traces;

use crate::runtime::ToolDef;

/// The session tools.
pub fn tools() -> Vec<ToolDef> {
    vec![start::tool(), end::tool(), traces::tool()]
}
