//! `search` and `fetch`, shaped for ChatGPT-style connectors (OpenAI's MCP contract for deep
//! research and company knowledge): `search {query, limit}` returns
//! `{results: [{id, title, url, text}]}` (`text`: the best passage, at most 300 characters),
//! and `fetch {id}` returns `{id, title, text, url, metadata}` for an `id` a search returned.
//! The id is the note's vault-relative path and
//! the url its `obsidian-tc://<vault>/<path>` resource URI. `search` ranks like
//! `search_vault` (hybrid when vectors exist, else lexical, hidden notes never shown);
//! `fetch` reads like `read_note`, through the same path gate, so a hidden note fails the
//! same way.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::note::read;
use crate::content::injection::ContentFlags;
use crate::errors::ToolError;
use crate::index::semantic::SemanticError;
use crate::index::snippet::snippet;
use crate::note::title_of;
use crate::runtime::{PathArg, ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::index::chunk_text;
use crate::tools::common::note_uri::note_uri;
use crate::tools::common::retrieval_log::{self, chunk_hit, note_hit};
use crate::tools::common::searchable::Searchable;
use crate::tools::common::structured::{output_schema, structured};
use engine_core::acl::AclOp;

/// How many notes `search` returns when no `limit` is given.
const SEARCH_RESULTS: usize = 10;

/// The longest passage a search result shows, in characters.
const PASSAGE_CHARS: usize = 300;

/// The arguments of `search`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Search {
    /// What to look for, in words.
    #[schemars(length(min = 1, max = 2000))]
    query: String,
    /// The most results (default 10).
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 50))]
    limit: usize,
}

fn default_limit() -> usize {
    SEARCH_RESULTS
}

/// One search result.
#[derive(Debug, Serialize, JsonSchema)]
struct SearchResult {
    /// The note's vault-relative path: pass it to `fetch`.
    id: String,
    /// The note's title.
    title: String,
    /// The note's `obsidian-tc://` resource URI.
    url: String,
    /// The note's best passage for the query (at most 300 characters).
    text: String,
    /// The key of the chunk the passage comes from: pass it to `record_retrieval_feedback`.
    #[serde(skip_serializing_if = "Option::is_none")]
    chunk_id: Option<String>,
    /// Shapes of prompt injection in the chunk the passage comes from (absent when none).
    #[serde(flatten)]
    flags: ContentFlags,
}

/// What `search` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct SearchResults {
    /// The best-matching notes, best first.
    results: Vec<SearchResult>,
}

/// The arguments of `fetch`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Fetch {
    /// The `id` of a search result (a vault-relative note path).
    #[schemars(length(min = 1, max = 1024))]
    id: String,
}

/// What `fetch` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Fetched {
    /// The note's vault-relative path (canonical).
    id: String,
    /// The note's title.
    title: String,
    /// The note's whole text (LF line breaks, no BOM).
    text: String,
    /// The note's `obsidian-tc://` resource URI.
    url: String,
    /// `vault`, `path`, `sha256`, `size` (bytes) and `modified_ms` of the note, and
    /// `content_flags` and `content_risk` when its text is shaped like prompt injection.
    metadata: Value,
}

/// The `search` tool.
pub(super) fn search_tool() -> ToolDef {
    ToolDef::new(
        (
            "search",
            "Search (connector)",
            "Search the vault for a query; returns results [{id, title, url, text}] \
                      (id: the note path, for fetch). For ChatGPT-style connectors.",
        ),
        "context",
        (input_schema::<Search>(), output_schema::<SearchResults>()),
        search,
    )
    .keywords(&["connector", "chatgpt", "deep research", "search", "results"])
    .scopes(&["read:notes"])
}

/// The `fetch` tool.
pub(super) fn fetch_tool() -> ToolDef {
    ToolDef::new(
        (
            "fetch",
            "Fetch (connector)",
            "Connector fetch (ChatGPT deep research contract): the document for an \
                      id that search returned, with id, title, url and metadata.",
        ),
        "context",
        (input_schema::<Fetch>(), output_schema::<Fetched>()),
        fetch,
    )
    .keywords(&["connector", "chatgpt", "deep research", "fetch", "document"])
    .scopes(&["read:notes"])
    .paths(&[PathArg {
        name: "id",
        op: AclOp::Read,
    }])
}

fn search(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: Search = parse(args)?;
    let searchable = Searchable::open(ctx)?;
    searchable.with_retriever(ctx, |retriever| {
        let mut logged = Vec::new();
        let results = retriever
            .notes(searchable.retrieval(), &args.query, args.limit)
            .map_err(SemanticError::into_tool_error)?
            .into_iter()
            .map(|hit| {
                let chunk = chunk_text(ctx, hit.chunk_id);
                let returned = chunk_hit(retriever.view, hit.chunk_id, &chunk, hit.score)
                    .unwrap_or_else(|| note_hit(&hit.path, hit.score));
                let chunk_id = returned.chunk_key.clone();
                logged.push(returned);
                SearchResult {
                    chunk_id,
                    flags: ContentFlags::of(&chunk),
                    title: title_of(&hit.path),
                    url: note_uri(ctx.vault_id(), &hit.path),
                    text: snippet(&chunk, &args.query)
                        .text
                        .chars()
                        .take(PASSAGE_CHARS)
                        .collect(),
                    id: hit.path,
                }
            })
            .collect();
        retrieval_log::report(ctx, &args.query, logged);
        structured(&SearchResults { results })
    })
}

fn fetch(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: Fetch = parse(args)?;
    let (file, text) = read(ctx, &args.id)?;
    let mut metadata = json!({
        "vault": ctx.vault_id(),
        "path": file.path,
        "sha256": file.sha256,
        "size": file.bytes.len(),
        "modified_ms": file.modified_ms,
    });
    if let (Value::Object(metadata), Value::Object(flags)) =
        (&mut metadata, json!(ContentFlags::of(&text)))
    {
        metadata.extend(flags);
    }
    structured(&Fetched {
        title: title_of(&file.path),
        url: note_uri(ctx.vault_id(), &file.path),
        metadata,
        id: file.path,
        text,
    })
}
