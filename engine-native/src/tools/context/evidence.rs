//! The evidence a knowledge tool puts before a model: `vault_graph_search`'s ranking (the
//! query's best notes seeding a one-link walk), each ranked note's best chunk cut to a few
//! hundred characters, kept only where the tool wants it, through the egress guard, and
//! logged in the retrieval log as what the call returned.

use std::collections::HashSet;

use super::graph_search::DEFAULT_SEEDS;
use crate::errors::ToolError;
use crate::index::graph::{EXPANSION_BOOST, GraphQuery, graph_notes};
use crate::index::semantic::SemanticError;
use crate::inference::egress::{Chunk, Guarded};
use crate::runtime::ToolContext;
use crate::tools::common::index::chunk_text;
use crate::tools::common::link_table::link_table;
use crate::tools::common::model::guard_evidence;
use crate::tools::common::retrieval_log::{self, ranked_hit};
use crate::tools::common::searchable::Searchable;

/// How many ranked notes are read per chunk wanted (room for what `keep` drops).
const POOL_FACTOR: usize = 3;

/// What a recall asks for.
pub(super) struct Recall<'q> {
    /// The query (the question, the proposal).
    pub query: &'q str,
    /// The most chunks kept.
    pub k: usize,
    /// The most characters of each chunk.
    pub max_chars: usize,
}

/// The `recall.k` best chunks for `recall.query` among the notes `keep` admits, through the
/// egress guard; what may be sent is logged as the call's retrieval.
pub(super) fn recall(
    ctx: &ToolContext<'_>,
    recall: &Recall<'_>,
    keep: &dyn Fn(&str) -> bool,
) -> Result<Guarded, ToolError> {
    let searchable = Searchable::open(ctx)?;
    let table = link_table(ctx)?;
    let graph = table.graph();
    searchable.with_retriever(ctx, |retriever| {
        let shape = GraphQuery {
            how: searchable.retrieval(),
            seeds: DEFAULT_SEEDS,
            hops: 1,
            boost: EXPANSION_BOOST,
            candidates: recall.k * POOL_FACTOR,
            gate: false,
        };
        let hits = graph_notes(
            retriever,
            graph,
            recall.query,
            shape,
            recall.k * POOL_FACTOR,
        )
        .map_err(SemanticError::into_tool_error)?;
        let mut chunks = Vec::new();
        let mut logged = Vec::new();
        for hit in hits {
            if chunks.len() == recall.k {
                break;
            }
            let Some((_, seed)) = hit.seed.as_ref().filter(|_| keep(&hit.path)) else {
                continue;
            };
            let text = chunk_text(ctx, seed.chunk_id);
            if text.trim().is_empty() {
                continue;
            }
            let returned = ranked_hit(
                ctx,
                retriever.view,
                &hit.path,
                Some(seed.chunk_id),
                hit.score,
            );
            chunks.push(Chunk {
                path: hit.path.clone(),
                chunk_id: returned.chunk_key.clone(),
                text: cut(&text, recall.max_chars),
                score: hit.score,
            });
            logged.push(returned);
        }
        let guarded = guard_evidence(ctx, chunks);
        let sent: HashSet<&Option<String>> = guarded
            .sendable
            .iter()
            .map(|chunk| &chunk.chunk_id)
            .collect();
        logged.retain(|hit| sent.contains(&hit.chunk_key));
        retrieval_log::report(ctx, recall.query, logged);
        Ok(guarded)
    })
}

/// `text` cut to `max` characters (an ellipsis marks the cut).
fn cut(text: &str, max: usize) -> String {
    let text = text.trim();
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// The chunks as numbered evidence: `[n] path` then the text, one blank line apart.
pub(super) fn numbered(chunks: &[Chunk]) -> String {
    chunks
        .iter()
        .enumerate()
        .map(|(at, chunk)| format!("[{}] {}\n{}", at + 1, chunk.path, chunk.text))
        .collect::<Vec<_>>()
        .join("\n\n")
}
