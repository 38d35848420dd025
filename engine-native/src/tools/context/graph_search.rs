//! `vault_graph_search`: GraphRAG over the vault. The notes that best match the query (hybrid
//! when vectors exist, else lexical) seed a walk over the links between notes, both ways,
//! for `hops` links; links to the best matches raise a note by a capped personalized-PageRank
//! boost ([`crate::index::graph`]). Each result says which seed reached it and along which notes.
//! Hidden notes are never returned and never walked through.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::index::graph::{EXPANSION_BOOST, GraphHit, GraphQuery, MAX_HOPS, graph_notes};
use crate::index::retrieve::Retrieval;
use crate::index::semantic::SemanticError;
use crate::note::title_of;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::link_table;
use crate::tools::common::paging::{CursorLength, PageArgs, Paging, cursor_offset};
use crate::tools::common::retrieval_log::{self, ranked_hit};
use crate::tools::common::searchable::Searchable;
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `vault_graph_search`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GraphSearch {
    /// What to look for, in words.
    #[schemars(length(min = 1, max = 2000))]
    query: String,
    /// How many links to follow from each seed (default 1).
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 3))]
    hops: usize,
    /// How many of the best-matching notes seed the walk (default 5).
    #[serde(default = "five")]
    #[schemars(range(min = 1, max = 20))]
    seeds: usize,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<GraphSearchPaging>,
}

/// `vault_graph_search` pages by 10 notes (at most 100).
struct GraphSearchPaging;

impl Paging for GraphSearchPaging {
    const ITEMS: &'static str = "notes";
    const DEFAULT: usize = 10;
    const MAX: usize = 100;
    const CURSOR: CursorLength = CursorLength::between(1, 64);
}

fn one() -> usize {
    1
}

fn five() -> usize {
    DEFAULT_SEEDS
}

/// How many of the best-matching notes seed the walk when the caller does not say.
pub(super) const DEFAULT_SEEDS: usize = 5;

/// `vault_graph_search`'s ranking: the `seeds` best notes by `how`, walked `hops` links both
/// ways, every linked note entering (an expansion).
pub(super) fn expansion(how: Retrieval, seeds: usize, hops: usize) -> GraphQuery {
    GraphQuery {
        how,
        seeds,
        hops: hops.min(MAX_HOPS),
        boost: EXPANSION_BOOST,
        candidates: seeds,
        gate: false,
    }
}

/// A walk that reached a note.
#[derive(Debug, Serialize, JsonSchema)]
struct ViaPath {
    /// The seed it started from.
    seed: String,
    /// The notes walked, from the seed to this note, both included.
    path: Vec<String>,
}

/// The scores behind a result's rank.
#[derive(Debug, Serialize, JsonSchema)]
struct GraphScores {
    /// Its place in the query's own ranking (1 = best), when the query ranks it.
    seed_rank: Option<usize>,
    /// Its query score (BM25F, cosine or the hybrid score), when the query ranks it.
    seed_score: Option<f64>,
    /// Its best chunk's BM25F score, when the lexical ranking has it.
    lexical: Option<f32>,
    /// Its best chunk's cosine, when the semantic ranking has it.
    semantic: Option<f32>,
    /// The personalized-PageRank mass the seeds pass it through links (0 when none).
    proximity: f64,
}

/// One note found.
#[derive(Debug, Serialize, JsonSchema)]
struct GraphFound {
    /// The note's vault-relative path.
    path: String,
    /// Its title (file name without `.md`).
    title: String,
    /// Links from the nearest seed (0: it is a seed).
    hop: usize,
    /// The walks that reached it, nearest first (at most 3; empty for a seed no other seed
    /// reaches).
    via: Vec<ViaPath>,
    /// The score (higher is better): the seed's query score normalised to [0, 1] plus the
    /// link boost (in [0, 1]).
    score: f64,
    /// Its components.
    scores: GraphScores,
    /// The key of its best chunk, when the query ranks it: pass it to
    /// `record_retrieval_feedback`.
    #[serde(skip_serializing_if = "Option::is_none")]
    chunk_id: Option<String>,
}

/// What `vault_graph_search` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct GraphResults {
    /// How the seeds were ranked: `hybrid` or `lexical`.
    seeded_by: String,
    /// Best first.
    results: Vec<GraphFound>,
    /// Pass this as `cursor` to get the next page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    cursor: Option<String>,
}

/// The `vault_graph_search` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "vault_graph_search",
            "Graph search (GraphRAG)",
            "Find notes for a query and the notes linked with them: the best \
                      matches seed a walk over wikilinks and backlinks (hops 1-3), and notes \
                      linked with the best matches rise. Each result says which seed reached it and by which links.",
        ),
        "find",
        (
            input_schema::<GraphSearch>(),
            output_schema::<GraphResults>(),
        ),
        vault_graph_search,
    )
    .keywords(&["best hits", "also bring in", "and their links", 
        "graph",
        "graphrag",
        "related",
        "linked",
        "connected notes",
        "neighbours",
        "expand",
        "search with links",
    ])
    .scopes(&["read:notes"])
}

fn vault_graph_search(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GraphSearch = parse(args)?;
    let offset = cursor_offset(args.page.cursor())?;
    let limit = args.page.limit();
    let searchable = Searchable::open(ctx)?;
    let how = searchable.retrieval();
    let table = link_table(ctx)?;
    let graph = table.graph();
    searchable.with_retriever(ctx, |retriever| {
        let query = expansion(how, args.seeds, args.hops);
        let mut hits = graph_notes(retriever, graph, &args.query, query, offset + limit + 1)
            .map_err(SemanticError::into_tool_error)?;
        let more = hits.len() > offset + limit;
        hits.truncate(offset + limit);
        let mut logged = Vec::new();
        let results = hits
            .into_iter()
            .skip(offset)
            .map(|hit| {
                let row = hit.seed.as_ref().map(|(_, seed)| seed.chunk_id);
                let returned = ranked_hit(ctx, retriever.view, &hit.path, row, hit.score);
                let chunk_id = returned.chunk_key.clone();
                logged.push(returned);
                found(hit, chunk_id)
            })
            .collect();
        retrieval_log::report(ctx, &args.query, logged);
        structured(&GraphResults {
            seeded_by: if how == Retrieval::Hybrid {
                "hybrid"
            } else {
                "lexical"
            }
            .to_owned(),
            results,
            cursor: more.then(|| (offset + limit).to_string()),
        })
    })
}

fn found(hit: GraphHit, chunk_id: Option<String>) -> GraphFound {
    let (seed_rank, seed) = match hit.seed {
        Some((rank, seed)) => (Some(rank), Some(seed)),
        None => (None, None),
    };
    GraphFound {
        title: title_of(&hit.path),
        path: hit.path,
        hop: hit.hop,
        via: hit
            .via
            .into_iter()
            .map(|via| ViaPath {
                seed: via.seed,
                path: via.path,
            })
            .collect(),
        score: hit.score,
        scores: GraphScores {
            seed_rank,
            seed_score: seed.as_ref().map(|seed| seed.score),
            lexical: seed.as_ref().and_then(|seed| seed.lexical),
            semantic: seed.as_ref().and_then(|seed| seed.semantic),
            proximity: hit.proximity,
        },
        chunk_id,
    }
}
