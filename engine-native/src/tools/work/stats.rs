//! `episode_stats`: how many episodes of the vault (every caller's, none forgotten or
//! expired) there are per tool, status or eligibility, counts only. It never groups by
//! caller, and a bucket under `min_bucket` is not shown: its count goes into `suppressed`
//! (k-anonymity: a rare tool cannot single out who called it).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::view::evaluated;
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::store::{GroupBy, store_fault};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// What to count by.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Group {
    /// The tool called.
    #[default]
    Tool,
    /// `ok` or `error`.
    Status,
    /// `pending`, `eligible` or `ineligible`.
    Eligibility,
}

/// The arguments of `episode_stats`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct EpisodeStats {
    /// What to count by (default `tool`).
    #[serde(default)]
    group_by: Group,
    /// Only episodes at or after this time, Unix seconds.
    #[schemars(range(min = 0))]
    since: Option<i64>,
    /// Only episodes at or before this time, Unix seconds.
    #[schemars(range(min = 0))]
    until: Option<i64>,
    /// The smallest bucket shown (default 5, at least 2); smaller ones go into `suppressed`.
    #[schemars(range(min = 2, max = 1000))]
    min_bucket: Option<u64>,
    /// The most buckets shown (default 50); the rest go into `suppressed` too.
    #[schemars(range(min = 1, max = 500))]
    limit: Option<usize>,
}

/// One bucket.
#[derive(Debug, Serialize, JsonSchema)]
struct Bucket {
    /// The tool, status or eligibility.
    key: String,
    /// How many episodes.
    count: u64,
}

/// The answer of `episode_stats`.
#[derive(Debug, Serialize, JsonSchema)]
struct Stats {
    /// What was counted by.
    group_by: Group,
    /// The buckets of at least `min_bucket` episodes, largest first.
    buckets: Vec<Bucket>,
    /// The episodes of the buckets not shown.
    suppressed: u64,
    /// Every episode counted.
    total: u64,
}

/// The `episode_stats` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "episode_stats",
            "Count work episodes",
            "Count the work-memory episodes of this vault per tool, status or eligibility: counts only, never who; buckets smaller than min_bucket are summed into suppressed.",
        ),
        "sessions",
        (input_schema::<EpisodeStats>(), output_schema::<Stats>()),
        episode_stats,
    )
    .keywords(&["episode counts", "work statistics", "tool usage stats"])
    .scopes(&["read:workspace"])
}

fn episode_stats(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: EpisodeStats = parse(args)?;
    let min_bucket = args.min_bucket.unwrap_or(5).max(2);
    let limit = args.limit.unwrap_or(50);
    evaluated(ctx)?;
    let group_by = match args.group_by {
        Group::Tool => GroupBy::Tool,
        Group::Status => GroupBy::Status,
        Group::Eligibility => GroupBy::Eligibility,
    };
    let window = (ctx.runtime().episode_cutoff(), args.since, args.until);
    let counts = ctx
        .store()
        .episodes()
        .counts(ctx.vault_id(), group_by, window)
        .map_err(store_fault)?;
    let total = counts.iter().map(|(_, count)| count).sum();
    let buckets: Vec<Bucket> = counts
        .into_iter()
        .filter(|(_, count)| *count >= min_bucket)
        .take(limit)
        .map(|(key, count)| Bucket { key, count })
        .collect();
    let shown: u64 = buckets.iter().map(|bucket| bucket.count).sum();
    structured(&Stats {
        group_by: args.group_by,
        buckets,
        suppressed: total - shown,
        total,
    })
}
