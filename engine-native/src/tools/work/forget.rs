//! `work_forget`: forgets one of the caller's episodes (any caller's with
//! `admin:workspace`) for good: it never shows in any work tool or search again, its kept
//! arguments and paths are dropped, and a row is appended to the hash-chained forget log in
//! the same transaction. A repeat, foreign or unknown id answers `forgotten: false` and logs
//! nothing. Every answer says whether the whole forget log still verifies.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::view::partition;
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::store::store_fault;
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `work_forget`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WorkForget {
    /// The episode to forget (`ep_` and 18 hex).
    #[schemars(length(equal = 21))]
    episode_id: String,
    /// Forget another caller's episode (needs `admin:workspace`).
    #[serde(default)]
    any_caller: bool,
}

/// The answer of `work_forget`.
#[derive(Debug, Serialize, JsonSchema)]
struct Forgot {
    /// The episode named.
    episode_id: String,
    /// Whether it was forgotten now (false: already forgotten, not yours, or unknown).
    forgotten: bool,
    /// Whether the forget log's hash chain verifies from its first row to its last (false:
    /// a row was changed or removed outside the server).
    log_verified: bool,
}

/// The `work_forget` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "work_forget",
            "Forget an episode",
            "Forget one of your work-memory episodes for good: it no longer shows in work_search, work_episodes, work_episode_chain or episode_stats, and the forgetting is recorded in a hash-chained log whose integrity the answer reports.",
        ),
        "sessions",
        (input_schema::<WorkForget>(), output_schema::<Forgot>()),
        work_forget,
    )
    .keywords(&["forget episode", "erase memory", "delete episode"])
    .scopes(&["write:workspace"])
}

fn work_forget(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: WorkForget = parse(args)?;
    let caller = partition(ctx, args.any_caller)?;
    let episodes = ctx.store().episodes();
    let by = (ctx.caller().id.as_str(), ctx.clock().now_seconds());
    let forgotten = episodes
        .forget(ctx.vault_id(), caller, &args.episode_id, by)
        .map_err(store_fault)?;
    let log_verified = episodes.forget_log_verified().map_err(store_fault)?;
    structured(&Forgot {
        episode_id: args.episode_id,
        forgotten,
        log_verified,
    })
}
