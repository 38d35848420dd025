//! `work_episodes`: the raw log of the caller's episodes (every eligibility: new, held out,
//! ineligible), newest first, by session, tool, status and time; or, with `unstamped_debt`,
//! the session work no `work_result` has judged yet.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::view::{EpisodeView, NOT_JUDGED, evaluated, newest, partition};
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::store::{EpisodeQuery, store_fault};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// How a call ended.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Status {
    /// It succeeded.
    Ok,
    /// It failed.
    Error,
}

/// The arguments of `work_episodes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WorkEpisodes {
    /// Only episodes of this session (32 hex).
    #[schemars(length(equal = 32))]
    session_id: Option<String>,
    /// Only calls of this tool.
    #[schemars(length(min = 1, max = 128))]
    tool: Option<String>,
    /// Only calls that ended so.
    status: Option<Status>,
    /// Only episodes at or after this time, Unix seconds.
    #[schemars(range(min = 0))]
    since: Option<i64>,
    /// Only episodes at or before this time, Unix seconds.
    #[schemars(range(min = 0))]
    until: Option<i64>,
    /// Every caller's episodes (needs `admin:workspace`).
    #[serde(default)]
    any_caller: bool,
    /// Only session work with no `work_result` verdict yet (the work tools' own calls and
    /// the session bounds left out).
    #[serde(default)]
    unstamped_debt: bool,
    /// How many episodes (default 50).
    #[schemars(range(min = 1, max = 500))]
    k: Option<u32>,
}

/// The answer of `work_episodes`.
#[derive(Debug, Serialize, JsonSchema)]
struct WorkEpisodesResult {
    /// The episodes, newest first.
    episodes: Vec<EpisodeView>,
}

/// The `work_episodes` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "work_episodes",
            "List your past tool calls",
            "List the raw log of your earlier tool calls in this vault as episodes (tool, ok/error and code, duration, changed files, eligibility, verdict), newest first, including ones not yet searchable; filter by session, tool, status and time; unstamped_debt lists session work with no work_result verdict yet.",
        ),
        "sessions",
        (
            input_schema::<WorkEpisodes>(),
            output_schema::<WorkEpisodesResult>(),
        ),
        work_episodes,
    )
    .keywords(&["episode log", "call history", "my tool calls", "unstamped work"])
    .scopes(&["read:workspace"])
}

fn work_episodes(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: WorkEpisodes = parse(args)?;
    let caller = partition(ctx, args.any_caller)?;
    evaluated(ctx)?;
    let query = EpisodeQuery {
        since: args.since,
        until: args.until,
        tool: args.tool.as_deref(),
        status: args.status.map(|status| match status {
            Status::Ok => "ok",
            Status::Error => "error",
        }),
        session_id: args.session_id.as_deref(),
        unstamped_except: args.unstamped_debt.then_some(NOT_JUDGED),
        ..newest(ctx, caller, args.k.unwrap_or(50))
    };
    let rows = ctx.store().episodes().query(&query).map_err(store_fault)?;
    structured(&WorkEpisodesResult {
        episodes: rows
            .into_iter()
            .map(|row| EpisodeView::of(ctx, row, caller.is_none()))
            .collect(),
    })
}
