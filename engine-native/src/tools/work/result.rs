//! `work_result`: a person's or agent's verdict (-1, 0, +1) on the work of the caller's open
//! session in the vault: stamped on each of its episodes with no verdict yet, up to `as_of`
//! (clamped to now); the next call judges only what came after. A -1 holds that work out of
//! `work_search` (eligible episodes go back to pending and the evaluator keeps them there).
//! The verdict is also a line of the session's trace, which `end_session`'s note shows.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::view::NOT_JUDGED;
use crate::calendar::rfc3339_utc;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::sessions::VerdictRecord;
use crate::store::store_fault;
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `work_result`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WorkResult {
    /// The verdict: -1 (it went wrong: keep it out of search), 0 (neutral), +1 (it worked).
    #[schemars(range(min = -1, max = 1))]
    result: i64,
    /// Judge the work up to this time, Unix seconds (default and at most: now).
    #[schemars(range(min = 0))]
    as_of: Option<i64>,
    /// Why, in a few words (shown in the session's note, see end_session).
    #[schemars(length(min = 1, max = 500))]
    comment: Option<String>,
}

/// The answer of `work_result`.
#[derive(Debug, Serialize, JsonSchema)]
struct Verdict {
    /// How many episodes got the verdict.
    stamped: usize,
    /// Of those, how many a -1 took out of search.
    demoted: usize,
    /// The open session judged.
    session_id: String,
    /// When the verdict was given, Unix seconds.
    verdict_at: i64,
}

/// The `work_result` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "work_result",
            "Judge this session's work",
            "Give a verdict on the work of your open session (start_session first): -1 it went wrong (held out of work_search), 0 neutral, +1 it worked. Stamps every episode of the session not judged yet, up to as_of.",
        ),
        "sessions",
        (input_schema::<WorkResult>(), output_schema::<Verdict>()),
        work_result,
    )
    .keywords(&["verdict", "rate session", "task result", "mark work failed"])
    .scopes(&["write:workspace"])
}

fn work_result(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: WorkResult = parse(args)?;
    let (vault, caller) = (ctx.vault_id(), ctx.caller().id.as_str());
    let Some(session_id) = ctx.runtime().sessions().open_id(vault, caller) else {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!("you have no open session in vault '{vault}': call start_session first"),
        )
        .with_details(json!({ "hint": "start_session" })));
    };
    let now = ctx.clock().now_seconds();
    let as_of = args.as_of.map_or(now, |as_of| as_of.min(now));
    let done = ctx
        .store()
        .episodes()
        .stamp(
            (vault, caller, &session_id),
            args.result,
            (as_of, now),
            NOT_JUDGED,
        )
        .map_err(store_fault)?;
    // The session's trace keeps the verdict too: end_session's note shows the last one.
    let verdict = VerdictRecord {
        ts: rfc3339_utc(now),
        verdict: i8::try_from(args.result).unwrap_or_default(),
        comment: args.comment,
    };
    let max_file_bytes = ctx.served().config().config.traces.max_file_bytes;
    if let Err(error) =
        ctx.runtime()
            .sessions()
            .record_verdict(vault, caller, max_file_bytes, verdict)
    {
        tracing::warn!(
            vault,
            "the verdict was not written to the session trace ({error})"
        );
    }
    structured(&Verdict {
        stamped: done.stamped,
        demoted: done.demoted,
        session_id,
        verdict_at: now,
    })
}
