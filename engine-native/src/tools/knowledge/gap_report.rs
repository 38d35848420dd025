//! `gap_report`: the newest gap pass of the vault (`run_gap_pass`, `obsidian-tc gaps`), as
//! kept: per query its best score, how many notes reached the floor, whether it is a gap, and
//! the nearest notes. It never recomputes. A query made from a note's title shows only to a
//! caller who may read that note (and the counts are over what shows); a nearest note only to
//! one who may read it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::gap_pass::rate;
use crate::calendar::rfc3339_utc;
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::store::store_fault;
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `gap_report`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GapReportArgs {
    /// Only the queries that are gaps.
    #[serde(default)]
    gaps_only: bool,
    /// The most queries listed, in pass order (default 50).
    #[serde(default = "fifty")]
    #[schemars(range(min = 1, max = 500))]
    limit: usize,
}

fn fifty() -> usize {
    50
}

/// A nearest note.
#[derive(Debug, Serialize, JsonSchema)]
struct Nearest {
    /// Its path.
    path: String,
    /// Its gauge score (cosine under hybrid, BM25F under lexical).
    score: f64,
}

/// One query of the pass.
#[derive(Debug, Serialize, JsonSchema)]
struct GapRow {
    /// Its number in the pass.
    id: i64,
    /// The query.
    query: String,
    /// The best note's score (absent when it found none).
    top_score: Option<f64>,
    /// How many notes reached the floor.
    results: u32,
    /// Whether it is a gap.
    gap: bool,
    /// The nearest notes, best first.
    nearest: Vec<Nearest>,
}

/// What `gap_report` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Report {
    /// Whether a pass was ever run on the vault (`run_gap_pass` or `obsidian-tc gaps`).
    available: bool,
    /// When the pass ran, RFC 3339 UTC.
    computed_at: Option<String>,
    /// `queries` or `titles`.
    source: Option<String>,
    /// The ranking: `hybrid` or `lexical`.
    mode: Option<String>,
    /// The floor.
    threshold: Option<f64>,
    /// The fewest results a query needed.
    min_results: Option<u32>,
    /// Whether the pass ran its whole query set.
    complete: bool,
    /// Queries shown to you.
    total: usize,
    /// Of those, the gaps.
    gaps: usize,
    /// `gaps / total`.
    gap_rate: f64,
    /// The queries, in pass order.
    items: Vec<GapRow>,
}

/// The `gap_report` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "gap_report",
            "Read the knowledge gaps",
            "The newest gap pass of the vault: per query its best score, how many notes reach \
             the floor, whether it is a gap, and the nearest notes. Run run_gap_pass (or \
             obsidian-tc gaps) to make one.",
        ),
        "knowledge",
        (input_schema::<GapReportArgs>(), output_schema::<Report>()),
        gap_report,
    )
    .keywords(&[
        "knowledge gaps",
        "unanswered queries",
        "weak coverage",
        "what is missing",
    ])
    .scopes(&["read:notes"])
}

fn gap_report(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GapReportArgs = parse(args)?;
    let pass = ctx
        .store()
        .gap_reports()
        .latest(ctx.vault_id())
        .map_err(store_fault)?;
    let Some(pass) = pass else {
        return structured(&Report {
            available: false,
            computed_at: None,
            source: None,
            mode: None,
            threshold: None,
            min_results: None,
            complete: false,
            total: 0,
            gaps: 0,
            gap_rate: 0.0,
            items: Vec::new(),
        });
    };
    let shown: Vec<_> = pass
        .items
        .into_iter()
        .filter(|(_, item)| item.source_path.as_deref().is_none_or(|p| ctx.may_list(p)))
        .collect();
    let total = shown.len();
    let gaps = shown.iter().filter(|(_, item)| item.gap).count();
    let items = shown
        .into_iter()
        .filter(|(_, item)| item.gap || !args.gaps_only)
        .take(args.limit)
        .map(|(id, item)| GapRow {
            id,
            query: item.query,
            top_score: item.top_score,
            results: item.results,
            gap: item.gap,
            nearest: item
                .nearest
                .into_iter()
                .filter(|(path, _)| ctx.may_list(path))
                .map(|(path, score)| Nearest { path, score })
                .collect(),
        })
        .collect();
    structured(&Report {
        available: true,
        computed_at: Some(rfc3339_utc(pass.computed_at)),
        source: Some(pass.source),
        mode: Some(pass.mode),
        threshold: Some(pass.threshold),
        min_results: Some(pass.min_results),
        complete: pass.complete,
        total,
        gaps,
        gap_rate: rate(gaps, total),
        items,
    })
}
