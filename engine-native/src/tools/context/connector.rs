//! `connector_search` and `connector_fetch`, shaped for ChatGPT-style connectors (OpenAI's MCP contract for
//! deep research and company knowledge): `search {query}` returns
//! `{results: [{id, title, url}]}`, and `fetch {id}` returns `{id, title, text, url,
//! metadata}` for an `id` a search returned. The contract wants the names `search` and
//! `fetch`; `search` is taken by the `search` domain envelope of the domain facade (a tool of
//! that name would shadow it), so the pair carries a prefix until that domain is renamed. The id is the note's vault-relative path and
//! the url its `obsidian-tc://<vault>/<path>` resource URI. `search` ranks like
//! `search_vault` (hybrid when vectors exist, else lexical, hidden notes never shown);
//! `fetch` reads like `read_note`, through the same path gate, so a hidden note fails the
//! same way.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::note::read;
use super::searchable::{Searchable, readable, semantic_error};
use crate::dispatch::{PathArg, ToolContext, ToolDef};
use crate::errors::ToolError;
use crate::index::parse::title_of;
use crate::index::retrieve::Retriever;
use crate::mcp::resources::note_uri;
use crate::tools::args::{input_schema, parse};
use crate::tools::structured::{output_schema, structured};
use engine_core::acl::AclOp;

/// How many notes `search` returns.
const SEARCH_RESULTS: usize = 10;

/// The arguments of `search`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Search {
    /// What to look for, in words.
    #[schemars(length(min = 1, max = 2000))]
    query: String,
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
    /// `vault`, `sha256`, `size` (bytes) and `modified_ms` of the note.
    metadata: Value,
}

/// The `connector_search` tool.
pub(super) fn search_tool() -> ToolDef {
    ToolDef {
        name: "connector_search",
        title: "Search (connector)",
        description: "Search the vault for a query; returns results [{id, title, url}] \
                      (id: the note path, for connector_fetch). For ChatGPT-style connectors.",
        domain: "context",
        keywords: &["connector", "chatgpt", "deep research", "search", "results"],
        input_schema: input_schema::<Search>(),
        output_schema: output_schema::<SearchResults>(),
        scopes: &["read:notes"],
        destructive: false,
        idempotency: false,
        vault_arg: true,
        path_args: &[],
        precheck: None,
        handler: search,
    }
}

/// The `connector_fetch` tool.
pub(super) fn fetch_tool() -> ToolDef {
    ToolDef {
        name: "connector_fetch",
        title: "Fetch (connector)",
        description: "Connector fetch (ChatGPT deep research contract): the document for an \
                      id that connector_search returned, with id, title, url and metadata.",
        domain: "context",
        keywords: &["connector", "chatgpt", "deep research", "fetch", "document"],
        input_schema: input_schema::<Fetch>(),
        output_schema: output_schema::<Fetched>(),
        scopes: &["read:notes"],
        destructive: false,
        idempotency: false,
        vault_arg: true,
        path_args: &[PathArg {
            name: "id",
            op: AclOp::Read,
        }],
        precheck: None,
        handler: fetch,
    }
}

fn search(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: Search = parse(args)?;
    let searchable = Searchable::open(ctx)?;
    let view = searchable
        .index
        .view
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let allowed = readable(ctx);
    let retriever = Retriever {
        view: &view,
        semantic: searchable.semantic.as_deref(),
        vault: ctx.vault_id(),
        allowed: &allowed,
    };
    let results = retriever
        .notes(searchable.retrieval(), &args.query, SEARCH_RESULTS)
        .map_err(semantic_error)?
        .into_iter()
        .map(|hit| SearchResult {
            title: title_of(&hit.path),
            url: note_uri(ctx.vault_id(), &hit.path),
            id: hit.path,
        })
        .collect();
    structured(&SearchResults { results })
}

fn fetch(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: Fetch = parse(args)?;
    let (file, text) = read(ctx, &args.id)?;
    structured(&Fetched {
        title: title_of(&file.path),
        url: note_uri(ctx.vault_id(), &file.path),
        metadata: json!({
            "vault": ctx.vault_id(),
            "sha256": file.sha256,
            "size": file.bytes.len(),
            "modified_ms": file.modified_ms,
        }),
        id: file.path,
        text,
    })
}
