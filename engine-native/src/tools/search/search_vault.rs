//! `search_vault`: find notes for a query. Mode `lexical` ranks chunks with engine-core's
//! BM25F (the plugin's scoring, bit for bit), `semantic` by embedding cosine, `hybrid` fuses
//! both (RRF), `auto` picks hybrid when embeddings are configured; each note shows its best
//! chunk, with a snippet and highlights. Only notes the caller may read are ranked, and the page is filled
//! from the ranking past any hidden note, so a hidden note never shows and never takes a
//! result's place. Results page with `cursor`. The search never waits for indexing: while a
//! scan runs it answers from what is indexed and says so in `coverage`.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dispatch::{ToolContext, ToolDef};
use crate::errors::{ErrorCode, ToolError};
use crate::index::parse::title_of;
use crate::index::retrieve::{Retrieval, Retriever};
use crate::index::semantic::SemanticError;
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
    /// `hybrid` when an embedding provider is configured, else `lexical`.
    Auto,
    /// BM25F over note titles, aliases, headings, tags and text.
    Lexical,
    /// Cosine similarity of embeddings (needs an embedding provider).
    Semantic,
    /// Lexical and semantic rankings fused by weighted Reciprocal Rank Fusion.
    Hybrid,
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
    /// The BM25F score of the note's best chunk, when the lexical ranking has the note.
    lexical: Option<f32>,
    /// The cosine of the note's best chunk, when the semantic ranking has the note.
    semantic: Option<f32>,
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
    /// The rank score (higher is better): BM25F, cosine, or the fused RRF score.
    score: f64,
    /// Its components.
    scores: Scores,
}

/// How much of the vault the answer covers.
#[derive(Debug, Serialize, JsonSchema)]
struct Coverage {
    /// Chunks searched.
    chunks: usize,
    /// Chunks with an embedding (absent without an embedding provider): while this is
    /// below `chunks`, semantic results cover only part of the vault.
    #[serde(skip_serializing_if = "Option::is_none")]
    embedded: Option<usize>,
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
        description: "Find the notes that best match a query (lexical BM25, semantic \
                      embeddings, or both fused), best first, each with its best passage, \
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
    let indexes = ctx.dispatcher().indexes();
    let index = indexes
        .vault(ctx.store(), ctx.vault_id())
        .map_err(index_fault)?;
    let semantic = match args.mode {
        Mode::Lexical => None,
        _ => indexes
            .semantic(ctx.store(), &ctx.served().config().config.embeddings)
            .map_err(semantic_error)?,
    };
    let mode = route(args.mode, semantic.is_some())?;
    let status = index.status();
    let view = index
        .view
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let allowed = |path: &str| {
        folder.as_deref().is_none_or(|f| path.starts_with(f)) && ctx.may(path, AclOp::Read)
    };
    let retriever = Retriever {
        view: &view,
        semantic: semantic.as_deref(),
        vault: ctx.vault_id(),
        allowed: &allowed,
    };
    let how = match mode {
        Mode::Semantic => Retrieval::Semantic,
        Mode::Hybrid => Retrieval::Hybrid,
        Mode::Auto | Mode::Lexical => Retrieval::Lexical,
    };
    let mut found = retriever
        .notes(how, &args.query, offset + args.limit + 1)
        .map_err(semantic_error)?;
    let more = found.len() > offset + args.limit;
    found.truncate(offset + args.limit);
    let results = found
        .into_iter()
        .skip(offset)
        .filter_map(|hit| {
            let place = view.place(hit.chunk_id)?;
            let text = ctx
                .store()
                .note_index()
                .chunk_text(hit.chunk_id)
                .ok()
                .flatten()
                .unwrap_or_default();
            Some(Found {
                title: title_of(&hit.path),
                heading: place.headings.join(" > "),
                snippet: snippet(&text, &args.query),
                path: hit.path,
                score: hit.score,
                scores: Scores {
                    lexical: hit.lexical,
                    semantic: hit.semantic,
                },
            })
        })
        .collect();
    let embedded = match &semantic {
        Some(semantic) => Some(
            semantic
                .coverage(ctx.store(), ctx.vault_id())
                .map_err(semantic_error)?
                .embedded,
        ),
        None => None,
    };
    structured(&SearchResults {
        mode,
        results,
        cursor: more.then(|| (offset + args.limit).to_string()),
        coverage: Coverage {
            chunks: view.len(),
            embedded,
            scanning: status.scanning,
        },
        routing: args.explain.then(|| routing(args.mode, mode)),
    })
}

/// The mode that runs for the one asked: `auto` is `hybrid` when an embedding provider is
/// configured, else `lexical`; `semantic` and `hybrid` need a provider.
fn route(asked: Mode, has_vectors: bool) -> Result<Mode, ToolError> {
    match (asked, has_vectors) {
        (Mode::Auto, true) => Ok(Mode::Hybrid),
        (Mode::Auto, false) => Ok(Mode::Lexical),
        (Mode::Semantic | Mode::Hybrid, false) => Err(ToolError::new(
            ErrorCode::InvalidInput,
            "semantic and hybrid search need an embedding provider, and none is configured",
        )
        .with_recovery(
            "search with mode lexical (or auto), or ask the user to set embeddings.provider",
        )),
        (mode, _) => Ok(mode),
    }
}

/// Why the query ran the way it did.
fn routing(asked: Mode, ran: Mode) -> String {
    let how = match ran {
        Mode::Lexical => "lexical: BM25F over titles, aliases, headings, tags and text",
        Mode::Semantic => "semantic: cosine similarity of the query's embedding to each chunk's",
        Mode::Hybrid => "hybrid: the lexical and semantic rankings fused by weighted RRF",
        Mode::Auto => "auto",
    };
    match (asked, ran) {
        (Mode::Auto, Mode::Hybrid) => {
            format!("auto chose {how} (an embedding provider is configured)")
        }
        (Mode::Auto, _) => format!("auto chose {how} (no embedding provider is configured)"),
        _ => format!("{how}, as asked"),
    }
}

/// The parser-level offset a cursor carries.
fn parse_cursor(cursor: &str) -> Result<usize, ToolError> {
    cursor.parse().map_err(|_| {
        ToolError::new(
            ErrorCode::InvalidInput,
            "the cursor is not one this tool returned; start again without it",
        )
    })
}

/// A failure of the embedding provider or the vectors.
fn semantic_error(error: SemanticError) -> ToolError {
    match error {
        SemanticError::Embed(error) => error.to_tool_error(),
        other => ToolError::internal(other.to_string()),
    }
}
