//! `search_and_read` (the original obsidian-tc's name): a search and the reading of what it
//! found in one call. `vault_graph_search`'s ranking (the `k` best notes, at least five,
//! seeding a one-link walk) is read [`POOL_FACTOR`] × `k` deep and cut to `k` distinct
//! notes, or, in mode `section`, to `k` distinct heading sections (each ranked note's best
//! chunk first, then the query's best chunks of those notes). Each item is read like
//! `read_note` reads it, as the caller: its frontmatter, its body (or section), its hash.
//!
//! The response's byte budget (the byte governor's limit less what the context tools keep
//! back) is shared equally among the items, or `max_bytes_per_item` each: an item over it is
//! cut (at a line break when one is near, else at a character) and marked `truncated`, with
//! `size_bytes` its whole size. What still does not fit pages with `next_cursor`, a cursor
//! bound to the caller and the arguments. An item that cannot be read is an entry of
//! `errors` with its rank: a hidden or vanished note is `note_not_found` either way, with no
//! path. Hidden notes are never ranked, walked through or read.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use engine_core::markdown::extract;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::graph_search::{DEFAULT_SEEDS, expansion};
use super::note;
use super::sections::section;
use crate::content::injection::ContentFlags;
use crate::errors::{ErrorCode, ToolError};
use crate::index::graph::{GraphHit, graph_notes};
use crate::index::retrieve::Retriever;
use crate::index::semantic::SemanticError;
use crate::runtime::{ToolContext, ToolDef};
use crate::store::RetrievedHit;
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::budget::{clip_json, json_bytes, response_bytes};
use crate::tools::common::index::chunk_text;
use crate::tools::common::link_table::link_table;
use crate::tools::common::paging::{bound_cursor, bound_offset};
use crate::tools::common::retrieval_log::{self, ranked_hit};
use crate::tools::common::searchable::Searchable;
use crate::tools::common::structured::{output_schema, structured};

/// How many hits of the ranking are read per item asked for.
const POOL_FACTOR: usize = 4;

/// Bytes of the budget kept for the answer's frame (mode, errors, cursor).
const ENVELOPE_RESERVE: usize = 1024;

/// The smallest `max_bytes_per_item`.
const MIN_ITEM_BYTES: usize = 512;

/// The code of an item that is hidden or gone.
const NOT_FOUND: &str = "note_not_found";

/// The arguments of `search_and_read`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SearchAndRead {
    /// What to look for, in words.
    #[schemars(length(min = 1, max = 2000))]
    query: String,
    /// How many notes (or sections) to read (1-20, default 5).
    #[serde(default = "five")]
    #[schemars(range(min = 1, max = 20))]
    k: usize,
    /// `note` (default): each note's frontmatter and whole body; `section`: the heading
    /// section each hit matched.
    #[serde(default)]
    mode: ReadMode,
    /// The most bytes one item may take (default: an equal share of the response budget).
    /// Above the share, items page with `next_cursor` instead of being cut.
    #[serde(default)]
    #[schemars(range(min = 512))]
    max_bytes_per_item: Option<usize>,
    /// The `next_cursor` of the previous page of this same call.
    #[serde(default)]
    #[schemars(length(min = 1, max = 256))]
    cursor: Option<String>,
}

fn five() -> usize {
    5
}

/// What an item is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum ReadMode {
    /// A whole note.
    #[default]
    Note,
    /// The heading section a hit matched.
    Section,
}

/// One item the search selected.
struct Selected {
    path: String,
    score: f64,
    /// The section's breadcrumb and its chunk (mode `section`).
    section: Option<(Vec<String>, i64)>,
    /// What the retrieval log keeps of it: the section's chunk, or the note's best one.
    returned: RetrievedHit,
}

/// One item read.
#[derive(Debug, Serialize, JsonSchema)]
struct ReadItem {
    /// The note's vault-relative path.
    path: String,
    /// Its place in the selection, from 1.
    rank: usize,
    /// Its `vault_graph_search` score (the note's, for a section).
    score: f64,
    /// The SHA-256 of the note's bytes (pass it as `expected_sha256` to a later write).
    content_hash: String,
    /// The key of the section's chunk, or of the note's best chunk: pass it to
    /// `record_retrieval_feedback`.
    #[serde(skip_serializing_if = "Option::is_none")]
    chunk_id: Option<String>,
    /// The note's frontmatter properties (`{}` when it has none or they are not valid YAML).
    frontmatter: Map<String, Value>,
    /// The section's heading breadcrumb (`A > B`, empty before the first heading; mode
    /// `section` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    heading: Option<String>,
    /// The body after the frontmatter (mode `note`) or the section's text, cut when
    /// `truncated`.
    body: String,
    /// The bytes of the whole body (or section), before any cut.
    size_bytes: usize,
    /// Whether `body` was cut to fit the item's share of the budget.
    truncated: bool,
    /// Shapes of prompt injection in the whole body (absent when none).
    #[serde(flatten)]
    flags: ContentFlags,
}

/// An item that could not be read.
#[derive(Debug, Serialize, JsonSchema)]
struct ItemError {
    /// Its place in the selection, from 1.
    rank: usize,
    /// `note_not_found` (hidden or gone), `too_large` (over its share even without a body),
    /// or the read's error code.
    code: String,
    /// What happened.
    message: String,
}

/// What `search_and_read` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct SearchRead {
    /// The mode that ran.
    mode: ReadMode,
    /// The items read on this page, best first.
    notes: Vec<ReadItem>,
    /// The items of this page that could not be read.
    errors: Vec<ItemError>,
    /// Pass this as `cursor` with the same arguments for the next page; null on the last.
    next_cursor: Option<String>,
}

/// One item's place on the page.
enum Entry {
    Read(ReadItem),
    Failed(ItemError),
}

/// The `search_and_read` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "search_and_read",
            "Search and read",
            "Search the vault and read the k best notes (1-20, default 5) in one call: each \
             note's frontmatter and body, or with mode section the heading section each hit \
             matched. Ranking is vault_graph_search's. The notes share the response budget \
             equally: one over its share is cut and marked truncated (size_bytes is its whole \
             size; read_note reads it whole); what does not fit comes with next_cursor (repeat \
             the same call with cursor). An unreadable item is in errors with its rank.",
        ),
        "find",
        (
            input_schema::<SearchAndRead>(),
            output_schema::<SearchRead>(),
        ),
        search_and_read,
    )
    .keywords(&[
        "search and read",
        "read the top results",
        "read the best matches",
    ])
    .scopes(&["read:notes"])
}

fn search_and_read(ctx: &ToolContext<'_>, raw: Value) -> Result<Value, ToolError> {
    let args: SearchAndRead = parse(raw.clone())?;
    let offset = bound_offset(ctx, &raw, args.cursor.as_deref())?;
    let selected = select(ctx, &args)?;
    let room = response_bytes(ctx).saturating_sub(ENVELOPE_RESERVE);
    let share = room / selected.len().max(1);
    let cap = args
        .max_bytes_per_item
        .unwrap_or(share)
        .min(room)
        .max(MIN_ITEM_BYTES);
    let mut page = SearchRead {
        mode: args.mode,
        notes: Vec::new(),
        errors: Vec::new(),
        next_cursor: None,
    };
    let mut used = 0;
    let mut logged = Vec::new();
    for (at, item) in selected.iter().enumerate().skip(offset) {
        let entry = read_item(ctx, at + 1, item, cap)?;
        let bytes = match &entry {
            Entry::Read(item) => serialized_bytes(item)?,
            Entry::Failed(error) => serialized_bytes(error)?,
        };
        // Every page holds at least one item, so paging always moves on.
        if used > 0 && used + bytes > room {
            page.next_cursor = Some(bound_cursor(ctx, &raw, at));
            break;
        }
        used += bytes;
        match entry {
            Entry::Read(read) => {
                logged.push(item.returned.clone());
                page.notes.push(read);
            }
            Entry::Failed(error) => page.errors.push(error),
        }
    }
    retrieval_log::report(ctx, &args.query, logged);
    structured(&page)
}

/// The items to read: `vault_graph_search`'s ranking cut to `k` notes or sections.
fn select(ctx: &ToolContext<'_>, args: &SearchAndRead) -> Result<Vec<Selected>, ToolError> {
    let searchable = Searchable::open(ctx)?;
    let table = link_table(ctx)?;
    let pool = POOL_FACTOR * args.k;
    searchable.with_retriever(ctx, |retriever| {
        let query = expansion(searchable.retrieval(), args.k.max(DEFAULT_SEEDS), 1);
        let hits = graph_notes(retriever, table.graph(), &args.query, query, pool)
            .map_err(SemanticError::into_tool_error)?;
        Ok(match args.mode {
            ReadMode::Note => hits
                .into_iter()
                .take(args.k)
                .map(|hit| {
                    let row = hit.seed.as_ref().map(|(_, seed)| seed.chunk_id);
                    Selected {
                        returned: ranked_hit(ctx, retriever.view, &hit.path, row, hit.score),
                        path: hit.path,
                        score: hit.score,
                        section: None,
                    }
                })
                .collect(),
            ReadMode::Section => sections_of(ctx, retriever, &hits, &args.query, (pool, args.k)),
        })
    })
}

/// The first `k` distinct sections of the ranked notes `hits`: each note's best chunk in
/// rank order, then the query's `pool` best chunks that lie in those notes.
fn sections_of(
    ctx: &ToolContext<'_>,
    retriever: &Retriever<'_>,
    hits: &[GraphHit],
    query: &str,
    (pool, k): (usize, usize),
) -> Vec<Selected> {
    let score_of: HashMap<&str, f64> = hits
        .iter()
        .map(|hit| (hit.path.as_str(), hit.score))
        .collect();
    let best = hits
        .iter()
        .filter_map(|hit| hit.seed.as_ref().map(|(_, seed)| seed.chunk_id));
    let pooled = retriever
        .chunks(query, pool)
        .into_iter()
        .map(|hit| hit.chunk_id);
    let mut seen: HashSet<(&str, &[String])> = HashSet::new();
    let mut out = Vec::new();
    for chunk_id in best.chain(pooled) {
        let Some(place) = retriever.view.place(chunk_id) else {
            continue;
        };
        let Some(&score) = score_of.get(place.path.as_str()) else {
            continue;
        };
        if out.len() == k || !seen.insert((place.path.as_str(), place.headings.as_slice())) {
            continue;
        }
        out.push(Selected {
            returned: ranked_hit(ctx, retriever.view, &place.path, Some(chunk_id), score),
            path: place.path.clone(),
            score,
            section: Some((place.headings.clone(), chunk_id)),
        });
    }
    out
}

/// Reads `item` (ranked `rank`) as the caller, cut to `cap` bytes.
fn read_item(
    ctx: &ToolContext<'_>,
    rank: usize,
    item: &Selected,
    cap: usize,
) -> Result<Entry, ToolError> {
    let (file, text) = match note::read(ctx, &item.path) {
        Ok(read) => read,
        Err(error) => return Ok(Entry::Failed(item_error(rank, &error))),
    };
    let meta = extract(&text);
    let body_start = meta.frontmatter.as_ref().map_or(0, |fm| fm.body_start);
    let whole_body = &text[body_start.min(text.len())..];
    let (heading, body): (Option<String>, Cow<'_, str>) = match &item.section {
        None => (None, Cow::Borrowed(whole_body)),
        Some((breadcrumb, chunk_id)) => {
            let body = match section(&text, &meta, breadcrumb) {
                Some(found) => Cow::Borrowed(found),
                // The note changed since it was indexed: the chunk, else the whole body.
                None => match chunk_text(ctx, *chunk_id) {
                    chunk if chunk.is_empty() => Cow::Borrowed(whole_body),
                    chunk => Cow::Owned(chunk),
                },
            };
            (Some(breadcrumb.join(" > ")), body)
        }
    };
    let mut read = ReadItem {
        path: file.path,
        rank,
        score: item.score,
        content_hash: file.sha256,
        chunk_id: item.returned.chunk_key.clone(),
        frontmatter: crate::frontmatter::read(&text)
            .map(|fm| fm.properties)
            .unwrap_or_default(),
        heading,
        body: String::new(),
        size_bytes: body.len(),
        truncated: false,
        flags: ContentFlags::of(&body),
    };
    let frame = serialized_bytes(&read)?;
    // The empty body's two quotes are in `frame` already.
    if frame + json_bytes(&body) - 2 <= cap {
        read.body = body.into_owned();
        return Ok(Entry::Read(read));
    }
    read.truncated = true;
    let frame = serialized_bytes(&read)?;
    if frame > cap {
        return Ok(Entry::Failed(ItemError {
            rank,
            code: "too_large".to_owned(),
            message: format!(
                "the note's frontmatter alone takes {frame} bytes, over the {cap} bytes an \
                 item may take; read it with read_frontmatter"
            ),
        }));
    }
    read.body = clip_json(&body, cap - frame).to_owned();
    Ok(Entry::Read(read))
}

/// The entry of an item whose read failed: a hidden or vanished note is `note_not_found`
/// either way, naming nothing.
fn item_error(rank: usize, error: &ToolError) -> ItemError {
    match error.code {
        ErrorCode::AclDenied | ErrorCode::Forbidden | ErrorCode::NotFound => ItemError {
            rank,
            code: NOT_FOUND.to_owned(),
            message: "note not found".to_owned(),
        },
        code => ItemError {
            rank,
            code: code.to_string(),
            message: error.message.clone(),
        },
    }
}

/// The bytes `value` takes as compact JSON.
fn serialized_bytes<T: Serialize>(value: &T) -> Result<usize, ToolError> {
    serde_json::to_vec(value)
        .map(|json| json.len())
        .map_err(|error| ToolError::internal(format!("could not serialize an item: {error}")))
}
