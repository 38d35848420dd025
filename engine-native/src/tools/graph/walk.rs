//! `graph_path_between` (the shortest chain of links joining two notes) and
//! `graph_neighbors` (the notes within n links), breadth-first in path order.

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::args::{Direction, Neighbors, PathBetween};
use super::view::{EdgeKind, GraphView};
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;

/// One link of a chain.
#[derive(Debug, Serialize, JsonSchema, PartialEq)]
pub(super) struct Step {
    /// The note the step leaves.
    pub from: String,
    /// The note the step reaches.
    pub to: String,
    /// `forward` when `from` links `to`, `backward` when `to` links `from`.
    pub direction: &'static str,
    /// The kinds of the link followed.
    pub kinds: Vec<EdgeKind>,
}

/// The result of `graph_path_between`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct PathFound {
    /// Whether a chain of at most `max_hops` links joins the notes.
    pub found: bool,
    /// The notes of the chain, `from` first, `to` last (empty when none was found).
    pub path: Vec<String>,
    /// The links of the chain, in order.
    pub steps: Vec<Step>,
    /// The number of links (0 when none was found or `from` is `to`).
    pub hops: usize,
}

/// One note near the start of `graph_neighbors`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Neighbor {
    /// The note's path.
    pub path: String,
    /// How many links away it is.
    pub hop: usize,
    /// The link that first reached it.
    pub via: Step,
}

/// The result of `graph_neighbors`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct NeighborList {
    /// The note the walk started from.
    pub path: String,
    /// The notes reached, nearest first, then by path.
    pub neighbors: Vec<Neighbor>,
    /// How many notes were reached in all (more than listed when `limit` cut the list).
    pub total_count: usize,
}

/// The steps a walk may take from `id`: (next note, step), in path order.
fn steps(
    view: &GraphView,
    id: usize,
    direction: Direction,
    kinds: Option<&[EdgeKind]>,
) -> Vec<(usize, Step)> {
    let admit = |edge_kinds: &std::collections::BTreeSet<EdgeKind>| -> Vec<EdgeKind> {
        edge_kinds
            .iter()
            .copied()
            .filter(|kind| kinds.is_none_or(|wanted| wanted.contains(kind)))
            .collect()
    };
    let mut out = Vec::new();
    if direction != Direction::In {
        for (next, edge) in view.outgoing(id) {
            let kinds = admit(edge);
            if !kinds.is_empty() {
                out.push((*next, step(view, id, *next, "forward", kinds)));
            }
        }
    }
    if direction != Direction::Out {
        for (next, edge) in view.incoming(id) {
            let kinds = admit(edge);
            if !kinds.is_empty() {
                out.push((*next, step(view, id, *next, "backward", kinds)));
            }
        }
    }
    out.sort_by_key(|(next, _)| *next);
    out
}

fn step(
    view: &GraphView,
    from: usize,
    to: usize,
    direction: &'static str,
    kinds: Vec<EdgeKind>,
) -> Step {
    Step {
        from: view.path(from).to_owned(),
        to: view.path(to).to_owned(),
        direction,
        kinds,
    }
}

/// Breadth-first from `start` up to `hops` links: for each note reached, its hop and the
/// step that reached it, in the order reached (nearest first, then path order).
fn bfs(
    view: &GraphView,
    start: usize,
    hops: usize,
    direction: Direction,
    kinds: Option<&[EdgeKind]>,
    stop_at: Option<usize>,
) -> Vec<Option<(usize, Step)>> {
    let mut reached: Vec<Option<(usize, Step)>> = (0..view.len()).map(|_| None).collect();
    let mut seen = vec![false; view.len()];
    seen[start] = true;
    let mut queue = VecDeque::from([(start, 0)]);
    while let Some((note, hop)) = queue.pop_front() {
        if hop == hops {
            continue;
        }
        for (next, step) in steps(view, note, direction, kinds) {
            if seen[next] {
                continue;
            }
            seen[next] = true;
            reached[next] = Some((hop + 1, step));
            if Some(next) == stop_at {
                return reached;
            }
            queue.push_back((next, hop + 1));
        }
    }
    reached
}

/// The shortest chain of links from `from` to `to` (see the module docs).
pub(super) fn graph_path_between(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: PathBetween = parse(args)?;
    let view = GraphView::load(ctx)?;
    let (from, to) = (view.id(&args.from)?, view.id(&args.to)?);
    structured(&path_between(
        &view,
        from,
        to,
        args.direction,
        args.max_hops,
    ))
}

/// The shortest chain from `from` to `to`, ties broken by path order.
fn path_between(
    view: &GraphView,
    from: usize,
    to: usize,
    direction: Direction,
    max_hops: usize,
) -> PathFound {
    if from == to {
        return PathFound {
            found: true,
            path: vec![view.path(from).to_owned()],
            steps: Vec::new(),
            hops: 0,
        };
    }
    let mut reached = bfs(view, from, max_hops, direction, None, Some(to));
    let mut chain = Vec::new();
    let mut at = to;
    while at != from {
        let Some((_, step)) = reached[at].take() else {
            return PathFound {
                found: false,
                path: Vec::new(),
                steps: Vec::new(),
                hops: 0,
            };
        };
        at = view.id(&step.from).unwrap_or(from);
        chain.push(step);
    }
    chain.reverse();
    let mut path = vec![view.path(from).to_owned()];
    path.extend(chain.iter().map(|step| step.to.clone()));
    PathFound {
        found: true,
        hops: chain.len(),
        path,
        steps: chain,
    }
}

/// The notes within `hops` links of a note (see the module docs).
pub(super) fn graph_neighbors(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: Neighbors = parse(args)?;
    let view = GraphView::load(ctx)?;
    let start = view.id(&args.path)?;
    let reached = bfs(
        &view,
        start,
        args.hops,
        args.direction,
        args.kinds.as_deref(),
        None,
    );
    let mut neighbors: Vec<Neighbor> = reached
        .into_iter()
        .enumerate()
        .filter_map(|(id, found)| {
            found.map(|(hop, via)| Neighbor {
                path: view.path(id).to_owned(),
                hop,
                via,
            })
        })
        .collect();
    neighbors.sort_by(|a, b| a.hop.cmp(&b.hop).then_with(|| a.path.cmp(&b.path)));
    let total_count = neighbors.len();
    neighbors.truncate(args.limit);
    structured(&NeighborList {
        path: args.path,
        neighbors,
        total_count,
    })
}
