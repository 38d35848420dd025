//! `search_vault`: find notes for a query. Mode `lexical` ranks chunks with engine-core's
//! BM25F (the plugin's scoring, bit for bit) and returns the best chunk of each note, with a
//! snippet and highlights. Only notes the caller may read are ranked, and the page is filled
//! from the ranking past any hidden note, so a hidden note never shows and never takes a
//! result's place. Results page with `cursor`. The search never waits for indexing: while a
//! scan runs it answers from what is indexed and says so in `coverage`.

use std::collections::HashSet;

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dispatch::{ToolContext, ToolDef};
use crate::errors::{ErrorCode, ToolError};
use crate::index::lexical::LexicalView;
use crate::index::parse::title_of;
use crate::index::snippet::{Snippet, snippet};
use crate::tools::args::{input_schema, parse};
use crate::tools::search::index_fault;
use crate::tools::structured::{output_schema, structured};

/// Results per page when no `limit` is given.
const DEFAULT_LIMIT: usize = 10;

/// The search modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Mode {
    /// The best mode available for this vault (today: lexical).
    Auto,
    /// BM25F over note titles, aliases, headings, tags and text.
    Lexical,
}

/// The arguments of `search_vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SearchVault {
    /// What to look for, in words.
    #[schemars(length(min = 1, max = 2000))]
    query: String,
    /// How to search (default `auto`).
    #[serde(default = "auto")]
    mode: Mode,
    /// Only notes under this folder (vault-relative).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    folder: Option<String>,
    /// The most notes in this page (default 10).
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 100))]
    limit: usize,
    /// The `cursor` of the previous page, to get the next one.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    cursor: Option<String>,
    /// Also say how the query was routed.
    #[serde(default)]
    explain: bool,
}

fn auto() -> Mode {
    Mode::Auto
}

fn default_limit() -> usize {
    DEFAULT_LIMIT
}

/// The scores behind a result's rank.
#[derive(Debug, Serialize, JsonSchema)]
struct Scores {
    /// The BM25F score of the best chunk.
    lexical: f32,
}

/// One found note.
#[derive(Debug, Serialize, JsonSchema)]
struct Found {
    /// The note's vault-relative path.
    path: String,
    /// Its title (file name without `.md`).
    title: String,
    /// The heading breadcrumb of the best chunk (`A > B`), empty before the first heading.
    heading: String,
    /// The best chunk's text around the query's words.
    snippet: Snippet,
    /// The rank score (higher is better).
    score: f32,
    /// Its components.
    scores: Scores,
}

/// How much of the vault the answer covers.
#[derive(Debug, Serialize, JsonSchema)]
struct Coverage {
    /// Chunks searched.
    chunks: usize,
    /// Whether a scan is still running (results may miss notes not indexed yet).
    scanning: bool,
}

/// What `search_vault` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct SearchResults {
    /// The mode that ran.
    mode: Mode,
    /// Best first.
    results: Vec<Found>,
    /// Pass this as `cursor` to get the next page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    cursor: Option<String>,
    /// How much of the vault was searched.
    coverage: Coverage,
    /// How the query was routed (when `explain` is set).
    #[serde(skip_serializing_if = "Option::is_none")]
    routing: Option<String>,
}

/// The `search_vault` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef {
        name: "search_vault",
        title: "Search the vault",
        description: "Find the notes that best match a query (BM25 over titles, aliases, \
                      headings, tags and text), best first, each with its best passage, \
                      highlights and scores. Paged with cursor; folder narrows it.",
        domain: "search",
        keywords: &[
            "search", "find", "query", "lookup", "look", "about", "mention", "relevant", "keyword",
            "match", "where", "discuss",
        ],
        input_schema: input_schema::<SearchVault>(),
        output_schema: output_schema::<SearchResults>(),
        scopes: &["read:notes"],
        destructive: false,
        idempotency: false,
        vault_arg: true,
        path_args: &[],
        precheck: None,
        handler: search_vault,
    }
}

fn search_vault(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: SearchVault = parse(args)?;
    let offset = match &args.cursor {
        Some(cursor) => parse_cursor(cursor)?,
        None => 0,
    };
    let folder = args
        .folder
        .as_deref()
        .map(|folder| format!("{}/", folder.trim_matches('/')));
    let index = ctx
        .dispatcher()
        .indexes()
        .vault(ctx.store(), ctx.vault_id())
        .map_err(index_fault)?;
    let status = index.status();
    let view = index
        .view
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let wanted = offset + args.limit + 1;
    let allowed = |path: &str| {
        folder.as_deref().is_none_or(|f| path.starts_with(f)) && ctx.may(path, AclOp::Read)
    };
    let mut found = best_chunk_per_note(&view, &args.query, wanted, &allowed);
    let more = found.len() > offset + args.limit;
    found.truncate(offset + args.limit);
    let results = found
        .into_iter()
        .skip(offset)
        .filter_map(|(chunk_id, score)| {
            let place = view.place(chunk_id)?;
            let text = ctx
                .store()
                .note_index()
                .chunk_text(chunk_id)
                .ok()
                .flatten()
                .unwrap_or_default();
            Some(Found {
                title: title_of(&place.path),
                heading: place.headings.join(" > "),
                snippet: snippet(&text, &args.query),
                path: place.path.clone(),
                score,
                scores: Scores { lexical: score },
            })
        })
        .collect();
    structured(&SearchResults {
        mode: Mode::Lexical,
        results,
        cursor: more.then(|| (offset + args.limit).to_string()),
        coverage: Coverage {
            chunks: view.len(),
            scanning: status.scanning,
        },
        routing: args.explain.then(|| routing(args.mode)),
    })
}

/// The best chunk of each of the first `wanted` notes `allowed` admits, best first: the
/// ranking is read deeper until the page is full or the ranking ends, so hidden notes never
/// shorten it.
fn best_chunk_per_note(
    view: &LexicalView,
    query: &str,
    wanted: usize,
    allowed: &dyn Fn(&str) -> bool,
) -> Vec<(i64, f32)> {
    let mut depth = (wanted * 4).max(64);
    loop {
        let hits = view.search(query, depth);
        let exhausted = hits.len() < depth;
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for hit in hits {
            let Some(place) = view.place(hit.chunk_id) else {
                continue;
            };
            if seen.contains(place.path.as_str()) || !allowed(&place.path) {
                seen.insert(place.path.clone());
                continue;
            }
            seen.insert(place.path.clone());
            out.push((hit.chunk_id, hit.score));
            if out.len() == wanted {
                return out;
            }
        }
        if exhausted {
            return out;
        }
        depth *= 4;
    }
}

/// Why the query ran the way it did.
fn routing(asked: Mode) -> String {
    match asked {
        Mode::Auto => "auto: lexical (BM25F), the only mode this vault has".to_owned(),
        Mode::Lexical => "lexical (BM25F), as asked".to_owned(),
    }
}

/// The offset a cursor carries.
fn parse_cursor(cursor: &str) -> Result<usize, ToolError> {
    cursor.parse().map_err(|_| {
        ToolError::new(
            ErrorCode::InvalidInput,
            "the cursor is not one this tool returned; start again without it",
        )
    })
}
