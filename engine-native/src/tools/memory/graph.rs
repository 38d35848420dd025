//! `query_entity_graph`: the entities around one, breadth first over typed relations both
//! ways (the relations an entity's note states, and those other entity notes state about
//! it), to a depth limit. Every note is read as it is now; a relation leading to a note the
//! caller may not read is left out, as is that note, so what is hidden changes nothing shown.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::entity_note::{entity_path, read_entity_note, readable_target};
use crate::errors::ToolError;
use crate::memory::{EntityType, read_entity};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::frontmatter::read_text;
use crate::tools::common::link_table::link_table;
use crate::tools::common::memory_folder::memory_folder;
use crate::tools::common::structured::{output_schema, structured};
use crate::vault::EntryKind;

/// The depth when none is given.
const DEFAULT_DEPTH: u32 = 2;

/// The most notes one answer holds; past it the walk stops and says so.
const MAX_NODES: usize = 500;

/// The arguments of `query_entity_graph`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct QueryEntityGraph {
    /// The entity to start from.
    #[schemars(length(min = 1, max = 200))]
    name: String,
    /// How many relations away to go (default 2).
    #[serde(default = "default_depth")]
    #[schemars(range(min = 1, max = 5))]
    depth: u32,
    /// Follow only this relation (`works_at`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 128))]
    relation: Option<String>,
}

fn default_depth() -> u32 {
    DEFAULT_DEPTH
}

/// A note reached.
#[derive(Debug, Serialize, JsonSchema)]
struct Node {
    /// Its vault-relative path.
    path: String,
    /// Its name (the note's name).
    name: String,
    /// Its entity type; absent for a note outside the memory folder or without one.
    #[serde(rename = "type")]
    kind: Option<EntityType>,
    /// How many relations away from the start it is.
    depth: u32,
}

/// A typed relation between two notes reached.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
struct Edge {
    /// The note stating it.
    from: String,
    /// The relation.
    relation: String,
    /// The note it points to.
    to: String,
}

/// What `query_entity_graph` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct EntityGraph {
    /// The notes reached, nearest first (then by path); the start is at depth 0.
    nodes: Vec<Node>,
    /// The relations among them, sorted.
    edges: Vec<Edge>,
    /// Whether the walk stopped at the node limit before the depth limit.
    truncated: bool,
}

/// The `query_entity_graph` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "query_entity_graph",
            "Query memory entity graph",
            "Walk the memory from one entity, breadth first, along typed relations in both directions (what its note states and what other entity notes state about it) up to depth (default 2, at most 5), optionally one relation only. Returns the notes reached with their depth and type, and the relations between them. Notes you may not read are left out.",
        ),
        "memory",
        (input_schema::<QueryEntityGraph>(), output_schema::<EntityGraph>()),
        query_entity_graph,
    )
    .keywords(&["memory graph", "related entities", "who is connected", "relationships of", "around", "neighbourhood", "traverse memory"])
    .scopes(&["read:memory"])
}

fn query_entity_graph(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: QueryEntityGraph = parse(args)?;
    let start = entity_path(ctx, &args.name, AclOp::Read)?;
    let root = read_entity_note(ctx, &args.name, &start)?.note.path;
    let MemoryGraph { edges, kinds } = memory_graph(ctx, args.relation.as_deref())?;
    let mut depth_of: BTreeMap<String, u32> = BTreeMap::from([(root.clone(), 0)]);
    let mut queue = VecDeque::from([root]);
    let mut truncated = false;
    while let Some(path) = queue.pop_front() {
        let depth = depth_of[&path];
        if depth == args.depth {
            continue;
        }
        let neighbours = edges.iter().filter_map(|edge| {
            if edge.from == path {
                Some(&edge.to)
            } else if edge.to == path {
                Some(&edge.from)
            } else {
                None
            }
        });
        for next in neighbours {
            if depth_of.contains_key(next) {
                continue;
            }
            if depth_of.len() == MAX_NODES {
                truncated = true;
                break;
            }
            depth_of.insert(next.clone(), depth + 1);
            queue.push_back(next.clone());
        }
    }
    let mut nodes: Vec<Node> = depth_of
        .iter()
        .map(|(path, &depth)| Node {
            name: note_name(path),
            kind: kinds.get(path).copied().flatten(),
            path: path.clone(),
            depth,
        })
        .collect();
    nodes.sort_by(|a, b| (a.depth, &a.path).cmp(&(b.depth, &b.path)));
    let shown: Vec<Edge> = edges
        .into_iter()
        .filter(|edge| depth_of.contains_key(&edge.from) && depth_of.contains_key(&edge.to))
        .collect();
    structured(&EntityGraph {
        nodes,
        edges: shown,
        truncated,
    })
}

/// The entity notes of the memory folder the caller may read, each read once.
struct MemoryGraph {
    /// Every relation they state to a note the caller may read, sorted, without repeats.
    edges: Vec<Edge>,
    /// Each entity note's type.
    kinds: BTreeMap<String, Option<EntityType>>,
}

/// The [`MemoryGraph`] of the caller's memory folder: relations resolved as Obsidian
/// resolves the links, `relation` only when given.
fn memory_graph(ctx: &ToolContext<'_>, relation: Option<&str>) -> Result<MemoryGraph, ToolError> {
    let folder = memory_folder(ctx);
    let mut kinds = BTreeMap::new();
    let Ok(entries) = ctx.vault().list(Some(&folder)) else {
        return Ok(MemoryGraph {
            edges: Vec::new(),
            kinds,
        });
    };
    let table = link_table(ctx)?;
    let resolver = table.resolver();
    let prefix = format!("{folder}/");
    let mut edges = BTreeSet::new();
    for entry in entries {
        let direct = entry
            .path
            .strip_prefix(&prefix)
            .is_some_and(|name| !name.contains('/') && name.ends_with(".md"));
        if entry.kind != EntryKind::File || !direct || !ctx.may_list(&entry.path) {
            continue;
        }
        let Ok(note) = read_text(ctx.vault(), &entry.path) else {
            continue;
        };
        let Ok(entity) = read_entity(&note.text) else {
            continue;
        };
        kinds.insert(note.path.clone(), entity.kind);
        for stated in entity.relations {
            if relation.is_some_and(|wanted| wanted != stated.relation) {
                continue;
            }
            if let Some(target) = readable_target(ctx, resolver, &stated.target, &note.path) {
                edges.insert(Edge {
                    from: note.path.clone(),
                    relation: stated.relation,
                    to: target,
                });
            }
        }
    }
    Ok(MemoryGraph {
        edges: edges.into_iter().collect(),
        kinds,
    })
}

/// A note's name: its file name without `.md`.
fn note_name(path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.strip_suffix(".md").unwrap_or(file).to_owned()
}
