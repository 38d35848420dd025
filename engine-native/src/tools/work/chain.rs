//! `work_episode_chain`: an episode and the caller's earlier ones, following `prev_id`
//! newest first. It stops (never skips) at the first hop that is forgotten, expired (past
//! the retention) or another caller's, and at a hop already seen (a cycle); `truncated`
//! when it stopped at `k` with more to follow.

use std::collections::HashSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::view::{EpisodeView, partition};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::store::store_fault;
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `work_episode_chain`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WorkEpisodeChain {
    /// The episode to start from (`ep_` and 18 hex).
    #[schemars(length(equal = 21))]
    id: String,
    /// How many episodes at most (default 50).
    #[schemars(range(min = 1, max = 200))]
    k: Option<u32>,
    /// Start from any caller's episode (needs `admin:workspace`); the chain still stays
    /// with that episode's caller.
    #[serde(default)]
    any_caller: bool,
}

/// The answer of `work_episode_chain`.
#[derive(Debug, Serialize, JsonSchema)]
struct Chain {
    /// The episode and its predecessors, newest first.
    chain: Vec<EpisodeView>,
    /// Whether it stopped at `k` with an earlier episode still to follow.
    truncated: bool,
}

/// The `work_episode_chain` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "work_episode_chain",
            "Follow an episode's history",
            "Follow one of your episodes back through your earlier calls in this vault (each episode's prev_id), newest first: what you did just before. Stops at a forgotten or expired episode; truncated when k is reached.",
        ),
        "sessions",
        (
            input_schema::<WorkEpisodeChain>(),
            output_schema::<Chain>(),
        ),
        work_episode_chain,
    )
    .keywords(&["episode chain", "previous episode", "what came before"])
    .scopes(&["read:workspace"])
}

fn work_episode_chain(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: WorkEpisodeChain = parse(args)?;
    let caller = partition(ctx, args.any_caller)?;
    let k = args.k.unwrap_or(50) as usize;
    let not_before = ctx.runtime().episode_cutoff();
    let episodes = ctx.store().episodes();
    let first = episodes
        .get(ctx.vault_id(), caller, &args.id, not_before)
        .map_err(store_fault)?
        .ok_or_else(|| {
            ToolError::new(
                ErrorCode::NotFound,
                format!("you have no episode '{}' in this vault", args.id),
            )
            .with_details(json!({ "id": args.id }))
        })?;
    let owner = first.caller.clone();
    let mut seen = HashSet::from([first.id.clone()]);
    let mut next = first.prev_id.clone();
    let mut rows = vec![first];
    let mut truncated = false;
    while let Some(id) = next.take() {
        if rows.len() >= k {
            truncated = true;
            break;
        }
        if !seen.insert(id.clone()) {
            break;
        }
        let Some(row) = episodes
            .get(ctx.vault_id(), Some(&owner), &id, not_before)
            .map_err(store_fault)?
        else {
            break;
        };
        next = row.prev_id.clone();
        rows.push(row);
    }
    structured(&Chain {
        chain: rows
            .into_iter()
            .map(|row| EpisodeView::of(ctx, row, caller.is_none()))
            .collect(),
        truncated,
    })
}
