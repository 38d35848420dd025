//! `end_session`: a session of the caller ends with an end record flushed to disk. The
//! session id is the natural key: ending an ended session answers it unchanged. With
//! `note` (default `traces.sessionNotes`), a session note is written into the memory folder
//! when it is not there yet ([`super::session_note`]).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::answer::{SessionAnswer, check_session_id, session_error};
use super::session_note::{self, NoteOutcome};
use crate::calendar::rfc3339_utc;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `end_session`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct EndSession {
    /// The session to end, 32 hex (default: your open session in the vault).
    #[schemars(length(equal = 32))]
    session_id: Option<String>,
    /// Write a session note into the memory folder (`<memory>/sessions/<date>-<id>.md`:
    /// what was done, the notes changed as links); default `traces.sessionNotes` (false).
    note: Option<bool>,
}

/// What `end_session` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Ended {
    /// The session.
    #[serde(flatten)]
    session: SessionAnswer,
    /// The session note, when one was asked for: written, or why not.
    #[serde(skip_serializing_if = "Option::is_none")]
    session_note: Option<NoteOutcome>,
}

/// The `end_session` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "end_session",
            "End session",
            "Finish a work session started with start_session (by id, default your open one in the vault): an end record is written and flushed, and calls are no longer traced. Ending an ended session changes nothing. note: true also writes a session note into the memory folder (what was done, the notes changed as links).",
        ),
        "sessions",
        (input_schema::<EndSession>(), output_schema::<Ended>()),
        end_session,
    )
    .keywords(&["end session", "finish session", "stop tracing", "close session", "session note"])
    .scopes(&["write:workspace"])
}

fn end_session(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: EndSession = parse(args)?;
    if let Some(id) = &args.session_id {
        check_session_id(id)?;
    }
    let vault = ctx.vault_id();
    let ts = rfc3339_utc(ctx.clock().now_seconds());
    let info = ctx
        .runtime()
        .sessions()
        .end(vault, &ctx.caller().id, args.session_id.as_deref(), &ts)
        .map_err(|error| match &args.session_id {
            Some(id) => session_error(&error, format!("you have no session {id} in vault '{vault}'")),
            // no session to default to: the call must name one
            None if error.kind() == std::io::ErrorKind::NotFound => ToolError::new(
                ErrorCode::InvalidInput,
                format!("you have no open session in vault '{vault}': name one with session_id, or start one with start_session"),
            ),
            None => session_error(&error, String::new()),
        })?;
    let wanted = args
        .note
        .unwrap_or(ctx.served().config().config.traces.session_notes);
    let session_note = wanted.then(|| session_note::write(ctx, &info));
    structured(&Ended {
        session: SessionAnswer::from(info),
        session_note,
    })
}
