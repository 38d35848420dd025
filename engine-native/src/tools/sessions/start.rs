//! `start_session`: the caller's session in the vault. One session per caller and vault is
//! open at a time: while one is open, starting again answers it unchanged (its own label
//! and goal); end it with `end_session` to start another. Sessions past
//! `traces.retentionDays` are deleted first.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::answer::{SessionAnswer, session_error};
use crate::calendar::rfc3339_utc;
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::sessions::StartRecord;
use crate::store::{new_session_id, store_fault};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `start_session`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct StartSession {
    /// A short name for the session.
    #[schemars(length(min = 1, max = 200))]
    label: Option<String>,
    /// What the session sets out to do.
    #[schemars(length(min = 1, max = 2000))]
    goal: Option<String>,
}

/// The `start_session` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "start_session",
            "Start session",
            "Begin an agent work session in the vault: until end_session, each tool you use here is traced to a JSONL trace file (tool, args hash, outcome, duration, files changed; never note text). Returns the session id. One session is open per caller and vault: starting again while one is open returns that one.",
        ),
        "sessions",
        (
            input_schema::<StartSession>(),
            output_schema::<SessionAnswer>(),
        ),
        start_session,
    )
    .keywords(&["start session", "begin session", "start tracing", "trace my tool calls"])
    .scopes(&["write:workspace"])
    .idempotent(true)
}

fn start_session(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: StartSession = parse(args)?;
    let sessions = ctx.runtime().sessions();
    let now = ctx.clock().now_seconds();
    let cutoff = ctx.runtime().trace_retention_cutoff();
    if let Err(error) = sessions.prune(ctx.vault_id(), &cutoff) {
        ctx.runtime().metrics().record_bookkeeping_fault();
        tracing::warn!(
            vault = ctx.vault_id(),
            "old session traces were not deleted ({error})"
        );
    }
    let start = StartRecord {
        session: new_session_id().map_err(store_fault)?,
        caller: ctx.caller().id.clone(),
        vault: ctx.vault_id().to_owned(),
        label: args.label,
        goal: args.goal,
        ts: rfc3339_utc(now),
    };
    let info = sessions
        .start(start)
        .map_err(|error| session_error(&error, "the session could not be started".to_owned()))?;
    structured(&SessionAnswer::from(info))
}
