//! `run_gap_pass` (and `obsidian-tc gaps`, which calls it): how well the vault answers a
//! query set. Each query runs through the ranked search (`search_vault`'s `auto` ranking:
//! hybrid when embeddings are loaded, else lexical) and is measured by a gauge: the cosine of
//! a note's best chunk under hybrid, the BM25F note score under lexical. A query is a gap when
//! no note reaches the floor `threshold` or fewer than `min_results` do. The query set is the
//! one given, else the titles of the notes the caller may read (by path). A budget of
//! queries and of time bounds the pass (a pass cut short says `complete: false`). The pass is
//! kept ([`crate::store::GapReports`]) for `gap_report`.

use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::calendar::rfc3339_utc;
use crate::errors::ToolError;
use crate::index::retrieve::{NoteHit, Retrieval, Retriever};
use crate::index::semantic::SemanticError;
use crate::note::title_of;
use crate::runtime::{ToolContext, ToolDef};
use crate::store::{GapItem, NewGapPass, store_fault};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::searchable::Searchable;
use crate::tools::common::structured::{output_schema, structured};

/// How many nearest notes a query keeps (and the least depth its ranking is read to).
const NEAREST: usize = 5;

/// How many queries run under one read lock of the index (a scan waits at most that long).
const BATCH: usize = 64;

/// The floor under hybrid ranking: a cosine.
pub(super) const COSINE_FLOOR: f64 = 0.35;

/// The floor under lexical ranking: a BM25F note score.
pub(super) const BM25_FLOOR: f64 = 2.0;

/// The arguments of `run_gap_pass`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RunGapPass {
    /// The queries to measure (default: the titles of the notes you may read, by path).
    #[serde(default)]
    #[schemars(length(min = 1, max = 100000))]
    queries: Option<Vec<String>>,
    /// The floor a query's best note must reach (default 0.35, a cosine, under hybrid
    /// ranking; 2.0, a BM25F score, under lexical).
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 1000.0))]
    threshold: Option<f64>,
    /// The fewest notes at or over the floor a query must have (default 1).
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 50))]
    min_results: u32,
    /// The most queries run (default 200).
    #[serde(default = "two_hundred")]
    #[schemars(range(min = 1, max = 100000))]
    max_queries: usize,
    /// The most time the pass may take, milliseconds (default 30000); the queries not run
    /// by then are left out and the pass says `complete: false`.
    #[serde(default = "thirty_seconds")]
    #[schemars(range(min = 100, max = 86400000))]
    budget_ms: u64,
}

fn one() -> u32 {
    1
}

fn two_hundred() -> usize {
    200
}

fn thirty_seconds() -> u64 {
    30_000
}

/// What `run_gap_pass` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct PassDone {
    /// When, RFC 3339 UTC.
    computed_at: String,
    /// `queries` (given) or `titles` (the notes' titles).
    source: &'static str,
    /// The ranking: `hybrid` or `lexical`.
    mode: &'static str,
    /// The floor used.
    threshold: f64,
    /// The fewest results used.
    min_results: u32,
    /// Queries measured.
    total: usize,
    /// Of those, the gaps.
    gaps: usize,
    /// `gaps / total` (0 with no query).
    gap_rate: f64,
    /// Whether every query of the set ran (false when `max_queries` or `budget_ms` cut it).
    complete: bool,
}

/// The `run_gap_pass` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "run_gap_pass",
            "Find knowledge gaps",
            "Run a query set (yours, or the note titles) through the ranked search within a \
             budget and keep, per query, its best score, how many notes reach the floor and \
             whether it is a gap; gap_report reads the newest pass.",
        ),
        "knowledge",
        (input_schema::<RunGapPass>(), output_schema::<PassDone>()),
        run_gap_pass,
    )
    .keywords(&[
        "coverage gaps",
        "unanswered queries",
        "missing knowledge",
        "weak topics",
        "gap analysis",
    ])
    .scopes(&["read:notes", "admin:vault"])
}

fn run_gap_pass(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: RunGapPass = parse(args)?;
    let started = Instant::now();
    let budget = Duration::from_millis(args.budget_ms);
    let searchable = Searchable::open(ctx)?;
    let how = searchable.retrieval();
    let threshold = args.threshold.unwrap_or(match how {
        Retrieval::Lexical => BM25_FLOOR,
        _ => COSINE_FLOOR,
    });
    let (source, queries) = match args.queries {
        Some(given) => ("queries", query_set(given)),
        None => ("titles", searchable.with_retriever(ctx, |r| Ok(titles(r)))?),
    };
    let set = queries.len();
    let queries = &queries[..set.min(args.max_queries)];
    let min_results = args.min_results;
    let depth = NEAREST.max(min_results as usize);
    let mut items = Vec::with_capacity(queries.len());
    for batch in queries.chunks(BATCH) {
        if started.elapsed() >= budget {
            break;
        }
        searchable.with_retriever(ctx, |retriever| {
            for (query, source_path) in batch {
                if started.elapsed() >= budget {
                    break;
                }
                let hits = retriever
                    .notes(how, query, depth)
                    .map_err(SemanticError::into_tool_error)?;
                items.push(measure(
                    query,
                    source_path,
                    &hits,
                    how,
                    (threshold, min_results),
                ));
                ctx.report_progress(items.len() as u64, Some(queries.len() as u64), "queries");
            }
            Ok(())
        })?;
    }
    let now = ctx.clock().now_seconds();
    let mode = if how == Retrieval::Lexical {
        "lexical"
    } else {
        "hybrid"
    };
    let complete = items.len() == set;
    ctx.store()
        .gap_reports()
        .save(&NewGapPass {
            vault_id: ctx.vault_id(),
            computed_at: now,
            source,
            mode,
            threshold,
            min_results,
            complete,
            items: &items,
        })
        .map_err(store_fault)?;
    let gaps = items.iter().filter(|item| item.gap).count();
    structured(&PassDone {
        computed_at: rfc3339_utc(now),
        source,
        mode,
        threshold,
        min_results,
        total: items.len(),
        gaps,
        gap_rate: rate(gaps, items.len()),
        complete,
    })
}

/// `part / whole`, 0 for an empty whole.
pub(super) fn rate(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// The given queries, trimmed, the empty ones left out, each cut at 2000 characters.
fn query_set(given: Vec<String>) -> Vec<(String, Option<String>)> {
    given
        .into_iter()
        .map(|query| query.trim().chars().take(2000).collect::<String>())
        .filter(|query| !query.is_empty())
        .map(|query| (query, None))
        .collect()
}

/// The titles of the notes the ranking may return, by path, each with its note.
fn titles(retriever: &Retriever<'_>) -> Vec<(String, Option<String>)> {
    retriever
        .view
        .note_paths()
        .into_iter()
        .filter(|path| (retriever.allowed)(path))
        .map(|path| (title_of(path), Some(path.to_owned())))
        .collect()
}

/// One query measured from its ranking `hits`.
fn measure(
    query: &str,
    source_path: &Option<String>,
    hits: &[NoteHit],
    how: Retrieval,
    (threshold, min_results): (f64, u32),
) -> GapItem {
    let gauged: Vec<(String, f64)> = hits
        .iter()
        .filter_map(|hit| {
            let gauge = match how {
                Retrieval::Lexical => Some(hit.score),
                _ => hit.semantic.map(f64::from),
            };
            gauge.map(|gauge| (hit.path.clone(), gauge))
        })
        .collect();
    let top_score = gauged.iter().map(|(_, score)| *score).reduce(f64::max);
    let results = gauged
        .iter()
        .filter(|(_, score)| *score >= threshold)
        .count() as u32;
    GapItem {
        query: query.to_owned(),
        source_path: source_path.clone(),
        top_score,
        results,
        gap: top_score.is_none_or(|top| top < threshold) || results < min_results,
        nearest: gauged.into_iter().take(NEAREST).collect(),
    }
}
