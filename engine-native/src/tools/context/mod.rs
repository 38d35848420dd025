//! The context tools: what an agent (or a ChatGPT-style connector) reads to answer from the
//! vault, packed to a budget.
//!
//! - `graph_search`: `vault_graph_search` (GraphRAG: seed notes expanded over links).
//! - `get_context`: `get_context` (the best chunks for a query, packed to a token budget,
//!   grouped by note, with each note's links).
//! - `vault_context`: `vault_context`, the same packing, with a `bootstrap` mode that reads
//!   the vault's hand-off note first (shared with `session_bootstrap` through
//!   `tools::common::preload`).
//! - `bundle`: `bundle_folder` and `bundle_files` (whole notes concatenated to a budget).
//! - `connector`: `search` and `fetch`, shaped like OpenAI's MCP
//!   connector contract (`search` / `fetch`).
//! - `search_and_read`: `search_and_read` (the original obsidian-tc's name): the best notes
//!   (or sections) of `vault_graph_search`'s ranking read whole, sharing the response budget.
//! - `reflect`, `challenge`: `reflect` and `knowledge_challenge` (facade domain `knowledge`),
//!   the same ranking as numbered evidence for the language model (`crate::inference`);
//!   `evidence` recalls and guards it, `judge` asks and strictly reads the challenge verdict.
//!
//! Every tool reads only notes the caller may read; hidden notes never show, never count,
//! and never connect others.

mod bundle;
mod challenge;
mod connector;
mod evidence;
mod get_context;
mod graph_search;
mod judge;
mod note;
mod reflect;
mod search_and_read;
mod sections;
mod vault_context;

use crate::runtime::ToolDef;

/// Every context tool.
pub fn tools() -> Vec<ToolDef> {
    vec![
        graph_search::tool(),
        get_context::tool(),
        vault_context::tool(),
        bundle::folder_tool(),
        bundle::files_tool(),
        connector::search_tool(),
        connector::fetch_tool(),
        search_and_read::tool(),
        reflect::tool(),
        challenge::tool(),
    ]
}
