//! What `start_session` and `end_session` answer, and how their failures read.

use std::io;

use schemars::JsonSchema;
use serde::Serialize;

use crate::errors::{ErrorCode, ToolError};
use crate::sessions::{SessionInfo, is_session_id};

/// A session.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct SessionAnswer {
    /// The session id, for `end_session` and `get_session_traces`.
    session_id: String,
    /// The vault it is in.
    vault: String,
    /// Its label.
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<String>,
    /// Its goal.
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<String>,
    /// When it started (RFC 3339 UTC).
    started_at: String,
    /// When it ended; absent while it is open.
    #[serde(skip_serializing_if = "Option::is_none")]
    ended_at: Option<String>,
    /// Its JSONL trace file, relative to the server's cache directory.
    trace_file: String,
}

impl From<SessionInfo> for SessionAnswer {
    fn from(info: SessionInfo) -> SessionAnswer {
        SessionAnswer {
            session_id: info.start.session,
            vault: info.start.vault,
            label: info.start.label,
            goal: info.start.goal,
            started_at: info.start.ts,
            ended_at: info.ended_at,
            trace_file: info.trace_file,
        }
    }
}

/// A failure of the trace files: `not_found` for a session that is not the caller's (or
/// does not exist), else `internal`.
pub(super) fn session_error(error: &io::Error, missing: String) -> ToolError {
    if error.kind() == io::ErrorKind::NotFound {
        ToolError::new(ErrorCode::NotFound, missing)
    } else {
        ToolError::internal(format!(
            "the session trace could not be read or written: {error}"
        ))
    }
}

/// `invalid_input` unless `id` has the shape of a session id (32 lowercase hex).
pub(super) fn check_session_id(id: &str) -> Result<(), ToolError> {
    if is_session_id(id) {
        Ok(())
    } else {
        Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!(
                "{id:?} is not a session id (32 lowercase hex characters, as start_session answers)"
            ),
        ))
    }
}
