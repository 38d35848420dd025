//! `graph_centrality`: the structurally most important notes, by PageRank over the links
//! as written (damping 0.85, dangling notes spread evenly, iterated to convergence in a
//! fixed order) or by degree (links in plus links out). Ties go to the path sorting first.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::args::{Centrality, Measure};
use super::view::GraphView;
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;

/// PageRank's damping factor.
const DAMPING: f64 = 0.85;
/// The most PageRank iterations.
const MAX_ITERATIONS: usize = 200;
/// PageRank stops when an iteration moves the ranks less than this in total.
const TOLERANCE: f64 = 1e-12;

/// One ranked note.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Ranked {
    /// The note's path.
    pub path: String,
    /// The measure ranked by (PageRank sums to 1 over all readable notes).
    pub score: f64,
    /// Its PageRank.
    pub pagerank: f64,
    /// Notes linking it.
    pub in_degree: usize,
    /// Notes it links.
    pub out_degree: usize,
}

/// The result of `graph_centrality`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct CentralityList {
    /// `pagerank` or `degree`.
    pub measure: &'static str,
    /// Best first.
    pub notes: Vec<Ranked>,
    /// The readable notes ranked.
    pub total_notes: usize,
}

/// The PageRank of every note, by id (see the module docs).
pub(super) fn pagerank(view: &GraphView) -> Vec<f64> {
    let n = view.len();
    if n == 0 {
        return Vec::new();
    }
    let share = 1.0 / n as f64;
    let mut rank = vec![share; n];
    for _ in 0..MAX_ITERATIONS {
        let dangling: f64 = (0..n)
            .filter(|id| view.outgoing(*id).is_empty())
            .map(|id| rank[id])
            .sum();
        let base = (1.0 - DAMPING) * share + DAMPING * dangling * share;
        let next: Vec<f64> = (0..n)
            .map(|id| {
                let inflow: f64 = view
                    .incoming(id)
                    .iter()
                    .map(|(source, _)| rank[*source] / view.outgoing(*source).len() as f64)
                    .sum();
                base + DAMPING * inflow
            })
            .collect();
        let moved: f64 = next.iter().zip(&rank).map(|(a, b)| (a - b).abs()).sum();
        rank = next;
        if moved < TOLERANCE {
            break;
        }
    }
    rank
}

/// The most central readable notes (see the module docs).
pub(super) fn graph_centrality(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: Centrality = parse(args)?;
    let view = GraphView::load(ctx)?;
    let ranks = pagerank(&view);
    let mut notes: Vec<Ranked> = (0..view.len())
        .map(|id| {
            let (in_degree, out_degree) = (view.incoming(id).len(), view.outgoing(id).len());
            Ranked {
                path: view.path(id).to_owned(),
                score: match args.measure {
                    Measure::Pagerank => ranks[id],
                    Measure::Degree => (in_degree + out_degree) as f64,
                },
                pagerank: ranks[id],
                in_degree,
                out_degree,
            }
        })
        .collect();
    notes.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.path.cmp(&b.path))
    });
    let total_notes = notes.len();
    notes.truncate(args.limit);
    structured(&CentralityList {
        measure: match args.measure {
            Measure::Pagerank => "pagerank",
            Measure::Degree => "degree",
        },
        notes,
        total_notes,
    })
}
