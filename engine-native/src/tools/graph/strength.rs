//! `get_link_strength` (how strongly two notes are connected, 0-1, explained) and
//! `suggest_links` (notes a note could link, from co-citation and two-hop paths).
//!
//! Strength = 0.5 × direct + 0.25 × co-citation + 0.25 × shared neighbours, where direct
//! is 0.5 per direction linked (1 when they link each other), co-citation the Jaccard
//! index of the notes linking each (their inbound sources, the two notes themselves left
//! out), and shared neighbours the Jaccard index of the notes each links.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::args::{LinkStrength, SuggestLinks};
use super::view::GraphView;
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;

/// Weight of the direct links in the strength.
const DIRECT_WEIGHT: f64 = 0.5;
/// Weight of co-citation in the strength.
const CO_CITATION_WEIGHT: f64 = 0.25;
/// Weight of shared outbound neighbours in the strength.
const SHARED_WEIGHT: f64 = 0.25;

/// One component of a strength.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Component {
    /// Its value, 0-1.
    pub value: f64,
    /// Its weight in the score.
    pub weight: f64,
    /// The notes behind it (for direct links: the directions linked).
    pub evidence: Vec<String>,
}

/// The result of `get_link_strength`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Strength {
    /// One note.
    pub a: String,
    /// The other.
    pub b: String,
    /// The strength, 0 (unconnected) to 1.
    pub score: f64,
    /// Direct links between them (`a->b`, `b->a`).
    pub direct: Component,
    /// Notes linking both (co-citation).
    pub co_citation: Component,
    /// Notes both link (shared outbound neighbours).
    pub shared_neighbors: Component,
}

/// One suggested link.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Suggestion {
    /// The note to link.
    pub path: String,
    /// Co-citation count plus two-hop count.
    pub score: usize,
    /// Notes that link both the note and this one.
    pub co_cited_by: Vec<String>,
    /// Notes the note links that link this one.
    pub via: Vec<String>,
}

/// The result of `suggest_links`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Suggestions {
    /// The note suggestions are for.
    pub path: String,
    /// Best first, then by path.
    pub suggestions: Vec<Suggestion>,
}

/// |x ∩ y| / |x ∪ y|, 0 for two empty sets; and the intersection.
fn jaccard(x: &BTreeSet<usize>, y: &BTreeSet<usize>) -> (f64, Vec<usize>) {
    let shared: Vec<usize> = x.intersection(y).copied().collect();
    let union = x.union(y).count();
    if union == 0 {
        return (0.0, shared);
    }
    (shared.len() as f64 / union as f64, shared)
}

/// The strength between notes `a` and `b` (see the module docs).
pub(super) fn strength(view: &GraphView, a: usize, b: usize) -> Strength {
    let names = |ids: Vec<usize>| ids.into_iter().map(|id| view.path(id).to_owned()).collect();
    let mut directions = Vec::new();
    if !view.kinds(a, b).is_empty() {
        directions.push("a->b".to_owned());
    }
    if !view.kinds(b, a).is_empty() {
        directions.push("b->a".to_owned());
    }
    let direct = 0.5 * directions.len() as f64;
    let others = |ids: &[(usize, BTreeSet<super::view::EdgeKind>)]| -> BTreeSet<usize> {
        ids.iter()
            .map(|(id, _)| *id)
            .filter(|id| *id != a && *id != b)
            .collect()
    };
    let (co, co_ids) = jaccard(&others(view.incoming(a)), &others(view.incoming(b)));
    let (shared, shared_ids) = jaccard(&others(view.outgoing(a)), &others(view.outgoing(b)));
    Strength {
        a: view.path(a).to_owned(),
        b: view.path(b).to_owned(),
        score: DIRECT_WEIGHT * direct + CO_CITATION_WEIGHT * co + SHARED_WEIGHT * shared,
        direct: Component {
            value: direct,
            weight: DIRECT_WEIGHT,
            evidence: directions,
        },
        co_citation: Component {
            value: co,
            weight: CO_CITATION_WEIGHT,
            evidence: names(co_ids),
        },
        shared_neighbors: Component {
            value: shared,
            weight: SHARED_WEIGHT,
            evidence: names(shared_ids),
        },
    }
}

/// How strongly two notes are connected (see the module docs).
pub(super) fn get_link_strength(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: LinkStrength = parse(args)?;
    let view = GraphView::load(ctx)?;
    let (a, b) = (view.id(&args.a)?, view.id(&args.b)?);
    structured(&strength(&view, a, b))
}

/// The notes `id` could link: co-cited with it by a note linking it, or linked by a note
/// it links; never itself nor a note it already links. Best first, then by path.
pub(super) fn suggest(view: &GraphView, id: usize, limit: usize) -> Vec<Suggestion> {
    let linked: BTreeSet<usize> = view.outgoing(id).iter().map(|(t, _)| *t).collect();
    let mut found: BTreeMap<usize, (BTreeSet<usize>, BTreeSet<usize>)> = BTreeMap::new();
    let wanted = |candidate: usize| candidate != id && !linked.contains(&candidate);
    for (source, _) in view.incoming(id) {
        for (candidate, _) in view.outgoing(*source) {
            if wanted(*candidate) {
                found.entry(*candidate).or_default().0.insert(*source);
            }
        }
    }
    for (middle, _) in view.outgoing(id) {
        for (candidate, _) in view.outgoing(*middle) {
            if wanted(*candidate) {
                found.entry(*candidate).or_default().1.insert(*middle);
            }
        }
    }
    let names = |ids: BTreeSet<usize>| ids.into_iter().map(|i| view.path(i).to_owned()).collect();
    let mut list: Vec<Suggestion> = found
        .into_iter()
        .map(|(candidate, (co, via))| Suggestion {
            path: view.path(candidate).to_owned(),
            score: co.len() + via.len(),
            co_cited_by: names(co),
            via: names(via),
        })
        .collect();
    list.sort_by(|x, y| y.score.cmp(&x.score).then_with(|| x.path.cmp(&y.path)));
    list.truncate(limit);
    list
}

/// Link suggestions for a note (see [`suggest`]).
pub(super) fn suggest_links(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: SuggestLinks = parse(args)?;
    let view = GraphView::load(ctx)?;
    let id = view.id(&args.path)?;
    structured(&Suggestions {
        suggestions: suggest(&view, id, args.limit),
        path: args.path,
    })
}
