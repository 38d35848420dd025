//! `get_context`: the passages of the vault that best answer a query, packed to a token
//! budget (`vault_context` packs the same way, after the hand-off note in its `bootstrap`
//! mode). Notes are ranked (hybrid when vectors exist, else
//! lexical); each ranked note's best chunk is packed first, then its other matching chunks
//! by lexical score, while they fit. The answer is grouped by note, in rank order, each
//! note's chunks in document order with their heading breadcrumbs, and lists the notes each
//! note links to. The packed text (note headers, links, breadcrumbs and chunk text) never
//! exceeds `max_tokens`, and the answer says how many matching chunks were left out.

use std::collections::{HashMap, HashSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::index::semantic::SemanticError;
use crate::note::title_of;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::budget::Budget;
use crate::tools::common::index::index_fault;
use crate::tools::common::link_table::link_table;
use crate::tools::common::retrieval_log::{self, chunk_hit};
use crate::tools::common::searchable::Searchable;
use crate::tools::common::structured::{output_schema, structured};

/// How many lexically matching chunks are looked at beyond each note's best one.
const EXTRA_CHUNK_DEPTH: usize = 200;

/// The arguments of `get_context`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GetContext {
    /// What the context is for, in words.
    #[schemars(length(min = 1, max = 2000))]
    query: String,
    /// The most estimated tokens (characters / 4) the packed text may take (default 2000).
    #[serde(default = "default_tokens")]
    #[schemars(range(min = 50, max = 100_000))]
    max_tokens: usize,
    /// How many of the best-matching notes to draw from (default 8).
    #[serde(default = "default_notes")]
    #[schemars(range(min = 1, max = 50))]
    notes: usize,
}

pub(super) fn default_tokens() -> usize {
    2000
}

pub(super) fn default_notes() -> usize {
    8
}

/// One packed chunk.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct ContextChunk {
    /// The heading breadcrumb (`A > B`), empty before the first heading.
    heading: String,
    /// Its position in the note, from 0.
    ordinal: u32,
    /// The chunk's key: pass it to `record_retrieval_feedback` to say whether it helped.
    chunk_id: String,
    /// The chunk's text.
    text: String,
}

/// One note's packed chunks.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct ContextNote {
    /// The note's vault-relative path.
    path: String,
    /// Its title (file name without `.md`).
    title: String,
    /// Its rank score for the query.
    score: f64,
    /// The notes it links to (the ones the caller may read).
    links: Vec<String>,
    /// Its packed chunks, in document order.
    chunks: Vec<ContextChunk>,
}

/// What `get_context` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Context {
    /// The notes, best first.
    notes: Vec<ContextNote>,
    /// The token budget asked for.
    max_tokens: usize,
    /// The estimated tokens packed (never more than `max_tokens`).
    tokens_used: usize,
    /// Matching chunks that did not fit the budget.
    chunks_left_out: usize,
}

/// The `get_context` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "get_context",
            "Context for a query",
            "The passages that best answer a query, packed to a token budget \
                      (max_tokens), grouped by note with heading breadcrumbs and each \
                      note's links; says how many matching chunks were left out.",
        ),
        "context",
        (input_schema::<GetContext>(), output_schema::<Context>()),
        get_context,
    )
    .keywords(&[
        "context", "rag", "passages", "chunks", "budget", "tokens", "answer", "ground", "relevant",
        "pack",
    ])
    .scopes(&["read:notes"])
}

/// A matching chunk waiting to be packed.
struct Candidate {
    /// The note's place in the ranking.
    note: usize,
    chunk_id: i64,
}

fn get_context(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GetContext = parse(args)?;
    let mut budget = Budget::new(ctx, args.max_tokens);
    let packed = pack(ctx, &args.query, args.notes, &mut budget)?;
    structured(&Context::of(packed, &budget))
}

impl Context {
    /// The answer for what `budget` packed.
    pub(super) fn of(packed: Packed, budget: &Budget) -> Context {
        Context {
            notes: packed.notes,
            max_tokens: budget.max_tokens,
            tokens_used: budget.used_tokens,
            chunks_left_out: packed.left_out,
        }
    }
}

/// The passages packed for a query.
pub(super) struct Packed {
    /// The notes with packed chunks, best first.
    pub(super) notes: Vec<ContextNote>,
    /// Matching chunks that did not fit the budget.
    pub(super) left_out: usize,
}

/// The passages of the `note_count` best notes for `query`, packed into what `budget` has
/// left.
pub(super) fn pack(
    ctx: &ToolContext<'_>,
    query: &str,
    note_count: usize,
    budget: &mut Budget,
) -> Result<Packed, ToolError> {
    let searchable = Searchable::open(ctx)?;
    let table = link_table(ctx)?;
    let graph = table.graph();
    searchable.with_retriever(ctx, |retriever| {
        let view = retriever.view;
        let ranked = retriever
            .notes(searchable.retrieval(), query, note_count)
            .map_err(SemanticError::into_tool_error)?;
        let rank_of: HashMap<&str, usize> = ranked
            .iter()
            .enumerate()
            .map(|(at, hit)| (hit.path.as_str(), at))
            .collect();
        // Each note's best chunk first (breadth before depth), then the other matching chunks.
        let mut candidates: Vec<Candidate> = ranked
            .iter()
            .enumerate()
            .map(|(note, hit)| Candidate {
                note,
                chunk_id: hit.chunk_id,
            })
            .collect();
        let mut queued: HashSet<i64> = candidates.iter().map(|c| c.chunk_id).collect();
        for hit in retriever.chunks(query, EXTRA_CHUNK_DEPTH) {
            let Some(place) = view.place(hit.chunk_id) else {
                continue;
            };
            if let Some(&note) = rank_of.get(place.path.as_str())
                && queued.insert(hit.chunk_id)
            {
                candidates.push(Candidate {
                    note,
                    chunk_id: hit.chunk_id,
                });
            }
        }
        let mut notes: Vec<ContextNote> = ranked
            .iter()
            .map(|hit| ContextNote {
                title: title_of(&hit.path),
                score: hit.score,
                links: graph
                    .outgoing(&hit.path)
                    .iter()
                    .filter(|path| (retriever.allowed)(path))
                    .cloned()
                    .collect(),
                path: hit.path.clone(),
                chunks: Vec::new(),
            })
            .collect();
        let mut left_out = 0;
        let mut logged = Vec::new();
        let chunk_rows = ctx.store().note_index();
        for candidate in candidates {
            let (Some(place), Some(text)) = (
                view.place(candidate.chunk_id),
                chunk_rows
                    .chunk_text(candidate.chunk_id)
                    .map_err(index_fault)?,
            ) else {
                continue;
            };
            let note = &mut notes[candidate.note];
            let heading = place.headings.join(" > ");
            // A note's header (path, title, links) is paid for with its first chunk.
            let header = if note.chunks.is_empty() {
                format!("{} {} {}", note.path, note.title, note.links.join(" "))
            } else {
                String::new()
            };
            if budget.take(&[&header, &heading, &text]).is_none() {
                left_out += 1;
                continue;
            }
            let Some(returned) = chunk_hit(view, candidate.chunk_id, &text, note.score) else {
                continue;
            };
            note.chunks.push(ContextChunk {
                heading,
                ordinal: place.ordinal,
                chunk_id: returned.chunk_key.clone().unwrap_or_default(),
                text,
            });
            logged.push((candidate.note, place.ordinal, returned));
        }
        notes.retain(|note| !note.chunks.is_empty());
        for note in &mut notes {
            note.chunks.sort_by_key(|chunk| chunk.ordinal);
        }
        // Logged in the answer's order: by note, then in document order.
        logged.sort_by_key(|(note, ordinal, _)| (*note, *ordinal));
        let logged = logged.into_iter().map(|(_, _, hit)| hit).collect();
        retrieval_log::report(ctx, query, logged);
        Ok(Packed { notes, left_out })
    })
}
