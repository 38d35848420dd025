//! Graph analytics over the resolved, typed link graph of the notes the caller may read
//! (`view::GraphView`; unreadable notes are removed before anything is computed):
//!
//! - `graph_path_between`: the shortest chain of links joining two notes, with edge kinds.
//! - `graph_neighbors`: the notes within n links, by direction and link kind.
//! - `find_link_cycles`: circular link chains, bounded and deterministic.
//! - `get_link_strength`: 0-1 connection strength of two notes, explained.
//! - `suggest_links`: notes to link from co-citation and two-hop paths.
//! - `graph_centrality`: PageRank or degree ranking.
//! - `graph_communities`: Louvain communities, deterministic.
//! - `vault_health_score`: 0-100 link health with its breakdown.
//!
//! All read the index (run `index_vault` first on a new vault).

mod args;
mod centrality;
mod communities;
mod cycles;
mod health;
mod strength;
pub(crate) mod view;
mod walk;

use crate::runtime::{PathArg, ToolDef};
use crate::tools::common::args::{PATH_READ, input_schema};
use crate::tools::common::structured::output_schema;
use engine_core::acl::AclOp;

/// `from` and `to` arguments the caller reads.
const FROM_TO: &[PathArg] = &[
    PathArg {
        name: "from",
        op: AclOp::Read,
    },
    PathArg {
        name: "to",
        op: AclOp::Read,
    },
];

/// `a` and `b` arguments the caller reads.
const A_B: &[PathArg] = &[
    PathArg {
        name: "a",
        op: AclOp::Read,
    },
    PathArg {
        name: "b",
        op: AclOp::Read,
    },
];

/// A read-only graph tool of domain `links`.
fn read_tool(
    name: &'static str,
    title: &'static str,
    description: &'static str,
    keywords: &'static [&'static str],
    schemas: (serde_json::Value, Option<serde_json::Value>),
    path_args: &'static [PathArg],
    handler: crate::runtime::Handler,
) -> ToolDef {
    ToolDef::new(
        (name, title, description),
        "links",
        (schemas.0, schemas.1),
        handler,
    )
    .keywords(keywords)
    .scopes(&["read:notes"])
    .paths(path_args)
}

/// The graph tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        read_tool(
            "graph_path_between",
            "Path between notes",
            "Trace how one note connects to another: the shortest chain of links joining them (direction out, in or both), each step with its direction and link kinds (wikilink, embed, markdown, frontmatter_relation).",
            &[
                "connection",
                "connected",
                "how connected",
                "chain",
                "shortest path",
                "how related",
                "link path",
                "path between",
            ],
            (
                input_schema::<args::PathBetween>(),
                output_schema::<walk::PathFound>(),
            ),
            FROM_TO,
            walk::graph_path_between,
        ),
        read_tool(
            "graph_neighbors",
            "Graph neighbors",
            "The notes within 1-3 links of a note (outgoing, backlinks or both), optionally only along some link kinds, nearest first, each with the link that reached it.",
            &[
                "neighbours",
                "neighbors",
                "nearby notes",
                "related",
                "hops",
                "local graph",
                "around",
                "close to",
            ],
            (
                input_schema::<args::Neighbors>(),
                output_schema::<walk::NeighborList>(),
            ),
            PATH_READ,
            walk::graph_neighbors,
        ),
        read_tool(
            "find_link_cycles",
            "Find link cycles",
            "Detect circular internal-link chains (a -> b -> ... -> a) among the notes, bounded by length and count, in a stable order; complete says whether all were found.",
            &[
                "cycles",
                "circular links",
                "loops",
                "graph",
                "circular",
                "loop back",
            ],
            (
                input_schema::<args::FindCycles>(),
                output_schema::<cycles::CycleList>(),
            ),
            &[],
            cycles::find_link_cycles,
        ),
        read_tool(
            "get_link_strength",
            "Link strength",
            "Score the connection strength (0-1) between two notes from the link graph: direct links, co-citation (notes linking both) and shared outbound neighbours, each component explained with its notes.",
            &[
                "relatedness",
                "similarity",
                "connection strength",
                "co-citation",
                "strongly linked",
                "closely related",
                "similar",
            ],
            (
                input_schema::<args::LinkStrength>(),
                output_schema::<strength::Strength>(),
            ),
            A_B,
            strength::get_link_strength,
        ),
        read_tool(
            "suggest_links",
            "Suggest links",
            "Suggest notes a note could link: notes co-cited with it (linked by the notes linking it) and notes two links away, excluding itself and notes it already links; best first with the evidence.",
            &[
                "recommend",
                "suggestions",
                "related notes",
                "missing connections",
            ],
            (
                input_schema::<args::SuggestLinks>(),
                output_schema::<strength::Suggestions>(),
            ),
            PATH_READ,
            strength::suggest_links,
        ),
        read_tool(
            "graph_centrality",
            "Graph centrality",
            "The structurally most important notes of the link graph by PageRank or degree, best first, each with its in/out degree.",
            &[
                "big hubs",
                "most connected",
                "central notes",
                "important notes",
                "pagerank",
                "hubs",
                "most linked",
                "central",
                "most important",
                "key notes",
                "influential",
            ],
            (
                input_schema::<args::Centrality>(),
                output_schema::<centrality::CentralityList>(),
            ),
            &[],
            centrality::graph_centrality,
        ),
        read_tool(
            "graph_communities",
            "Graph communities",
            "Community detection over the link graph (Louvain, deterministic): groups of notes more linked among themselves than to the rest, largest first, with the partition's modularity.",
            &[
                "clusters",
                "topics",
                "groups",
                "louvain",
                "modularity",
                "clusters of notes",
                "themes",
            ],
            (
                input_schema::<args::Communities>(),
                output_schema::<communities::CommunityList>(),
            ),
            &[],
            communities::graph_communities,
        ),
        read_tool(
            "vault_health_score",
            "Vault health score",
            "Composite vault link-health score (0-100) with a breakdown: orphan notes, unresolved links, hub density and link cycles, over the notes the caller may read.",
            &[
                "vault health",
                "health score",
                "hygiene score",
                "quality",
                "overall",
                "how healthy",
                "link health",
                "report",
            ],
            (
                input_schema::<args::HealthScore>(),
                output_schema::<health::Health>(),
            ),
            &[],
            health::vault_health_score,
        ),
    ]
}
