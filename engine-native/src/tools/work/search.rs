//! `work_search`: the caller's searchable episodes (promoted by the evaluator, or also the
//! pending ones, and trusted enough), newest first, matched by words through the full-text
//! index over tool, receipt, tags and the kept arguments. `semantic: true` adds a second
//! ranking: the query and the receipts of the newest [`SEMANTIC_POOL`] episodes of the same
//! filtered pool embedded by the search provider (distinct receipts once each, nothing
//! stored), by cosine, fused with the word matches by reciprocal rank; without a provider
//! (or when it fails) the answer is the word matches and `floor.semantic_used` is false.

use std::collections::HashMap;

use engine_core::rank::{RankedList, rrf};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::view::{EpisodeView, evaluated, newest, partition};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::store::{Eligible, EpisodeQuery, EpisodeRow, TextMatch, store_fault};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// How many of the newest episodes of the pool the semantic ranking embeds.
const SEMANTIC_POOL: u32 = 64;

/// The customary reciprocal-rank constant.
const RRF_K: f64 = 60.0;

/// The arguments of `work_search`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WorkSearch {
    /// Words to find in the tool name, the receipt, the tags and the kept arguments; every
    /// word must match (default: no word filter, the newest episodes).
    #[schemars(length(min = 1, max = 500))]
    query: Option<String>,
    /// Only calls of this tool.
    #[schemars(length(min = 1, max = 128))]
    tool: Option<String>,
    /// Only episodes of this session (32 hex).
    #[schemars(length(equal = 32))]
    session_id: Option<String>,
    /// Only episodes at or after this time, Unix seconds.
    #[schemars(range(min = 0))]
    since: Option<i64>,
    /// Only episodes at or before this time, Unix seconds.
    #[schemars(range(min = 0))]
    until: Option<i64>,
    /// How many episodes (default 20).
    #[schemars(range(min = 1, max = 200))]
    k: Option<u32>,
    /// The lowest trust admitted (default 0.3).
    #[schemars(range(min = 0.0, max = 1.0))]
    min_trust: Option<f64>,
    /// Also episodes the evaluator has not promoted (new, or held out: a call that both
    /// failed and succeeded, or work stamped -1).
    #[serde(default)]
    include_pending: bool,
    /// Every caller's episodes (needs `admin:workspace`); arguments are then neither
    /// matched nor shown.
    #[serde(default)]
    any_caller: bool,
    /// Also rank by meaning (the search embedding provider), fused with the word matches.
    #[serde(default)]
    semantic: bool,
}

/// What the answer admitted.
#[derive(Debug, Serialize, JsonSchema)]
struct Floor {
    /// The lowest trust admitted.
    min_trust: f64,
    /// Whether pending episodes were admitted.
    include_pending: bool,
    /// Whether the semantic ranking took part (false without a query or a provider).
    semantic_used: bool,
}

/// The answer of `work_search`.
#[derive(Debug, Serialize, JsonSchema)]
struct WorkSearchResult {
    /// What was admitted.
    floor: Floor,
    /// The episodes, newest first (by fused rank with `semantic_used`).
    results: Vec<EpisodeView>,
}

/// The `work_search` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "work_search",
            "Search your past work",
            "Search the episodes of your earlier tool calls in this vault (tool, outcome, changed files, receipt): what you did before and how it went. Only episodes the evaluator promoted (include_pending for all), newest first; filter by tool, session and time; semantic: true also ranks by meaning.",
        ),
        "sessions",
        (
            input_schema::<WorkSearch>(),
            output_schema::<WorkSearchResult>(),
        ),
        work_search,
    )
    .keywords(&[
        "work memory",
        "what I did earlier",
        "past attempts",
        "episodes",
        "previous calls",
        "experience",
    ])
    .scopes(&["read:workspace"])
}

fn work_search(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: WorkSearch = parse(args)?;
    let caller = partition(ctx, args.any_caller)?;
    let k = args.k.unwrap_or(20);
    let min_trust = args.min_trust.unwrap_or(0.3);
    let words: Vec<String> = args
        .query
        .as_deref()
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    if args.query.is_some()
        && !words
            .iter()
            .any(|word| word.chars().any(char::is_alphanumeric))
    {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "query has no word to search for (letters or digits)",
        ));
    }
    evaluated(ctx)?;
    let pool = EpisodeQuery {
        since: args.since,
        until: args.until,
        tool: args.tool.as_deref(),
        session_id: args.session_id.as_deref(),
        eligible: Eligible::Searchable {
            include_pending: args.include_pending,
            min_trust,
        },
        ..newest(ctx, caller, k)
    };
    let episodes = ctx.store().episodes();
    let lexical = EpisodeQuery {
        text: (!words.is_empty()).then(|| TextMatch {
            words,
            in_arguments: caller.is_some(),
        }),
        ..pool.clone()
    };
    let matched = episodes.query(&lexical).map_err(store_fault)?;
    let view = |row: EpisodeRow| EpisodeView::of(ctx, row, caller.is_none());
    let fused = match (&args.query, args.semantic) {
        (Some(query), true) => {
            let newest = EpisodeQuery {
                limit: SEMANTIC_POOL,
                ..pool
            };
            let candidates = episodes.query(&newest).map_err(store_fault)?;
            semantic_fusion(ctx, query, matched.clone(), candidates, k)
        }
        _ => None,
    };
    let semantic_used = fused.is_some();
    let results = fused.unwrap_or(matched).into_iter().map(view).collect();
    structured(&WorkSearchResult {
        floor: Floor {
            min_trust,
            include_pending: args.include_pending,
            semantic_used,
        },
        results,
    })
}

/// The word matches and the `candidates` ranked by the cosine of their receipts to `query`,
/// fused by reciprocal rank, the best `k`; `None` without a provider or when it fails.
fn semantic_fusion(
    ctx: &ToolContext<'_>,
    query: &str,
    matched: Vec<EpisodeRow>,
    candidates: Vec<EpisodeRow>,
    k: u32,
) -> Option<Vec<EpisodeRow>> {
    let semantic = ctx
        .runtime()
        .indexes()
        .semantic(ctx.store(), &ctx.served().config().config.embeddings)
        .ok()
        .flatten()?;
    let mut texts: Vec<&str> = vec![query];
    for row in &candidates {
        if !texts[1..].contains(&row.summary.as_str()) {
            texts.push(&row.summary);
        }
    }
    let vectors = match semantic.embed_queries(&texts) {
        Ok(vectors) => vectors,
        Err(error) => {
            tracing::warn!("work_search ranks by words only: {error}");
            return None;
        }
    };
    let (query_vector, summaries) = vectors.split_first()?;
    let cosine: HashMap<&str, f32> = texts[1..]
        .iter()
        .zip(summaries)
        .map(|(text, vector)| (*text, dot(query_vector, vector)))
        .collect();
    let mut by_meaning: Vec<&EpisodeRow> = candidates.iter().collect();
    by_meaning.sort_by(|a, b| {
        let score = |row: &EpisodeRow| cosine.get(row.summary.as_str()).copied();
        score(b)
            .partial_cmp(&score(a))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let lists = [
        RankedList {
            weight: 1.0,
            ids: matched.iter().map(|row| row.id.clone()).collect(),
        },
        RankedList {
            weight: 1.0,
            ids: by_meaning.iter().map(|row| row.id.clone()).collect(),
        },
    ];
    let hits = rrf(&lists, RRF_K).ok()?;
    let mut rows: HashMap<String, EpisodeRow> = matched
        .into_iter()
        .chain(candidates)
        .map(|row| (row.id.clone(), row))
        .collect();
    Some(
        hits.into_iter()
            .filter_map(|hit| rows.remove(&hit.id))
            .take(k as usize)
            .collect(),
    )
}

/// The cosine of two unit vectors.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
