//! `graph_communities`: groups of notes more linked among themselves than to the rest,
//! by Louvain modularity optimisation over the links taken both ways (two notes linked in
//! either or both directions share one edge of weight 1).
//!
//! Deterministic: nodes are visited in path order, a node moves only to a community that
//! strictly improves modularity (ties go to the community with the lowest id), and
//! communities are numbered by their first member in path order.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::args::Communities;
use super::view::GraphView;
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;

/// The most passes over the nodes within one level.
const MAX_PASSES: usize = 100;
/// The most levels of aggregation.
const MAX_LEVELS: usize = 32;
/// A move must gain more than this.
const EPSILON: f64 = 1e-12;

/// One community.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Community {
    /// Its place, 1-based, largest first.
    pub id: usize,
    /// How many notes it holds.
    pub size: usize,
    /// Its notes, by path (at most `max_members`).
    pub members: Vec<String>,
    /// Links between two of its notes (each linked pair once).
    pub internal_links: usize,
}

/// The result of `graph_communities`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct CommunityList {
    /// Largest first, then by first member.
    pub communities: Vec<Community>,
    /// Communities of at least `min_size` notes (more than listed when `limit` cut).
    pub total_communities: usize,
    /// Newman modularity of the whole partition (-0.5 to 1; 0 without links).
    pub modularity: f64,
}

/// A weighted undirected graph: neighbour lists without self-loops, and self-loop weights.
struct Weighted {
    adj: Vec<BTreeMap<usize, f64>>,
    loops: Vec<f64>,
}

impl Weighted {
    fn degree(&self, node: usize) -> f64 {
        self.adj[node].values().sum::<f64>() + 2.0 * self.loops[node]
    }
}

/// The community of every note, by id (see the module docs).
pub(super) fn louvain(view: &GraphView) -> Vec<usize> {
    let n = view.len();
    let mut graph = Weighted {
        adj: vec![BTreeMap::new(); n],
        loops: vec![0.0; n],
    };
    for id in 0..n {
        for other in view.neighbours(id) {
            graph.adj[id].insert(other, 1.0);
        }
    }
    let mut membership: Vec<usize> = (0..n).collect();
    for _ in 0..MAX_LEVELS {
        let (community, moved) = one_level(&graph);
        if !moved {
            break;
        }
        membership.iter_mut().for_each(|c| *c = community[*c]);
        graph = aggregate(&graph, &community);
    }
    membership
}

/// One level of moves; the community of each node (numbered by first node) and whether any
/// node moved.
fn one_level(graph: &Weighted) -> (Vec<usize>, bool) {
    let n = graph.adj.len();
    let degree: Vec<f64> = (0..n).map(|node| graph.degree(node)).collect();
    let m2: f64 = degree.iter().sum();
    let mut community: Vec<usize> = (0..n).collect();
    if m2 == 0.0 {
        return (community, false);
    }
    let mut total = degree.clone();
    let mut moved_any = false;
    for _ in 0..MAX_PASSES {
        let mut moved = false;
        for node in 0..n {
            let current = community[node];
            let mut links_to: BTreeMap<usize, f64> = BTreeMap::new();
            for (other, weight) in &graph.adj[node] {
                *links_to.entry(community[*other]).or_default() += weight;
            }
            total[current] -= degree[node];
            let gain = |c: usize, w: f64| w - total[c] * degree[node] / m2;
            let mut best = current;
            let mut best_gain = gain(current, links_to.get(&current).copied().unwrap_or(0.0));
            for (&candidate, &weight) in &links_to {
                let candidate_gain = gain(candidate, weight);
                if candidate_gain > best_gain + EPSILON {
                    best = candidate;
                    best_gain = candidate_gain;
                }
            }
            total[best] += degree[node];
            if best != current {
                community[node] = best;
                moved = true;
                moved_any = true;
            }
        }
        if !moved {
            break;
        }
    }
    (renumber(&community), moved_any)
}

/// Community labels renumbered 0.. in order of first appearance.
fn renumber(community: &[usize]) -> Vec<usize> {
    let mut seen: BTreeMap<usize, usize> = BTreeMap::new();
    let mut order = Vec::with_capacity(community.len());
    for label in community {
        let next = seen.len();
        order.push(*seen.entry(*label).or_insert(next));
    }
    order
}

/// The graph of the communities: one node each, the weights between them summed, the
/// weights inside them as self-loops.
fn aggregate(graph: &Weighted, community: &[usize]) -> Weighted {
    let count = community.iter().max().map_or(0, |c| c + 1);
    let mut next = Weighted {
        adj: vec![BTreeMap::new(); count],
        loops: vec![0.0; count],
    };
    for (node, neighbours) in graph.adj.iter().enumerate() {
        let c = community[node];
        next.loops[c] += graph.loops[node];
        for (other, weight) in neighbours {
            let d = community[*other];
            if c != d {
                *next.adj[c].entry(d).or_default() += weight;
            } else if node < *other {
                next.loops[c] += weight;
            }
        }
    }
    next
}

/// Newman modularity of `membership` over the undirected neighbour graph of `view`.
fn modularity(view: &GraphView, membership: &[usize]) -> f64 {
    let degree: Vec<usize> = (0..view.len())
        .map(|id| view.neighbours(id).len())
        .collect();
    let m2 = degree.iter().sum::<usize>() as f64;
    if m2 == 0.0 {
        return 0.0;
    }
    let mut internal: BTreeMap<usize, f64> = BTreeMap::new();
    let mut total: BTreeMap<usize, f64> = BTreeMap::new();
    for id in 0..view.len() {
        *total.entry(membership[id]).or_default() += degree[id] as f64;
        for other in view.neighbours(id) {
            if membership[other] == membership[id] {
                *internal.entry(membership[id]).or_default() += 1.0;
            }
        }
    }
    total
        .iter()
        .map(|(c, t)| internal.get(c).copied().unwrap_or(0.0) / m2 - (t / m2).powi(2))
        .sum()
}

/// The communities of the readable notes (see the module docs).
pub(super) fn graph_communities(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: Communities = parse(args)?;
    let view = GraphView::load(ctx)?;
    let membership = louvain(&view);
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (id, community) in membership.iter().enumerate() {
        groups.entry(*community).or_default().push(id);
    }
    let mut sized: Vec<Vec<usize>> = groups
        .into_values()
        .filter(|members| members.len() >= args.min_size)
        .collect();
    sized.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    let total_communities = sized.len();
    let communities = sized
        .into_iter()
        .take(args.limit)
        .enumerate()
        .map(|(rank, members)| Community {
            id: rank + 1,
            size: members.len(),
            internal_links: members
                .iter()
                .map(|id| {
                    view.neighbours(*id)
                        .into_iter()
                        .filter(|other| other > id && membership[*other] == membership[*id])
                        .count()
                })
                .sum(),
            members: members
                .iter()
                .take(args.max_members)
                .map(|id| view.path(*id).to_owned())
                .collect(),
        })
        .collect();
    structured(&CommunityList {
        communities,
        total_communities,
        modularity: modularity(&view, &membership),
    })
}
