//! `vault_health_score`: a 0-100 link-health score of the notes the caller may read, with
//! its breakdown. Each part takes off at most its weight:
//!
//! - orphans (40): notes with no link in or out, as a share of the notes;
//! - unresolved links (30): links naming no file of the vault, as a share of all links;
//! - hub density (15): hubs (notes linked with at least [`HUB_MIN_NEIGHBOURS`] notes and
//!   three times the mean), ten times their share of the notes, capped at 1;
//! - cycles (15): link cycles of three to five notes (two notes linking each other are an
//!   ordinary pair, not a cycle here), per note, capped at 1.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::args::HealthScore;
use super::cycles::cycles;
use super::view::GraphView;
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;

/// The fewest linked notes that make a hub.
pub(super) const HUB_MIN_NEIGHBOURS: usize = 5;
/// The most cycles counted.
const MAX_CYCLES_COUNTED: usize = 10_000;

/// One part of the score.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Part {
    /// What was counted.
    pub count: usize,
    /// Its share, 0-1, as the penalty reads it.
    pub ratio: f64,
    /// The points it takes off (0 to `weight`).
    pub penalty: f64,
    /// The most points it can take off.
    pub weight: f64,
}

/// The breakdown of the score.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Breakdown {
    /// Notes with no link in or out.
    pub orphans: Part,
    /// Links naming no file.
    pub unresolved_links: Part,
    /// Notes linked with far more notes than the rest.
    pub hubs: Part,
    /// Link cycles of three to five notes.
    pub cycles: Part,
}

/// The result of `vault_health_score`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Health {
    /// 0 (unhealthy) to 100 (healthy), rounded.
    pub score: u32,
    /// The readable notes scored.
    pub notes: usize,
    /// Links between them (each linked pair and direction once).
    pub links: usize,
    /// Each part of the score.
    pub breakdown: Breakdown,
    /// Some orphans, by path.
    pub orphan_examples: Vec<String>,
    /// Some hubs, most linked first.
    pub hub_examples: Vec<String>,
    /// Whether the cycle count is exact (`false` when the search bound stopped it).
    pub cycles_complete: bool,
}

fn part(count: usize, ratio: f64, weight: f64) -> Part {
    let ratio = ratio.clamp(0.0, 1.0);
    Part {
        count,
        ratio,
        penalty: ratio * weight,
        weight,
    }
}

fn share(count: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        count as f64 / of as f64
    }
}

/// The health of `view` (see the module docs).
pub(super) fn health(view: &GraphView, examples: usize) -> Health {
    let n = view.len();
    let neighbours: Vec<usize> = (0..n).map(|id| view.neighbours(id).len()).collect();
    let orphans: Vec<usize> = (0..n).filter(|id| neighbours[*id] == 0).collect();
    let mean = share(neighbours.iter().sum(), n);
    let mut hubs: Vec<usize> = (0..n)
        .filter(|id| neighbours[*id] >= HUB_MIN_NEIGHBOURS && neighbours[*id] as f64 >= 3.0 * mean)
        .collect();
    hubs.sort_by(|a, b| neighbours[*b].cmp(&neighbours[*a]).then(a.cmp(b)));
    let found = cycles(view, (3, 5), MAX_CYCLES_COUNTED);
    let breakdown = Breakdown {
        orphans: part(orphans.len(), share(orphans.len(), n), 40.0),
        unresolved_links: part(
            view.unresolved,
            share(view.unresolved, view.links_total),
            30.0,
        ),
        hubs: part(hubs.len(), 10.0 * share(hubs.len(), n), 15.0),
        cycles: part(found.cycles.len(), share(found.cycles.len(), n), 15.0),
    };
    let penalty = breakdown.orphans.penalty
        + breakdown.unresolved_links.penalty
        + breakdown.hubs.penalty
        + breakdown.cycles.penalty;
    let names = |ids: &[usize]| -> Vec<String> {
        ids.iter()
            .take(examples)
            .map(|id| view.path(*id).to_owned())
            .collect()
    };
    Health {
        // 100 minus at most 100: the cast cannot truncate.
        score: (100.0 - penalty).round().clamp(0.0, 100.0) as u32,
        notes: n,
        links: view.edge_count(),
        orphan_examples: names(&orphans),
        hub_examples: names(&hubs),
        breakdown,
        cycles_complete: found.complete,
    }
}

/// The link-health score of the readable notes (see the module docs).
pub(super) fn vault_health_score(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: HealthScore = parse(args)?;
    let view = GraphView::load(ctx)?;
    structured(&health(&view, args.examples))
}
