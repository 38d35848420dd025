//! The search tools: `search_vault` (find notes for a query, ranked or by text, pattern or
//! rule), `search_text` (lines containing literal text), `search_regex` (lines matching a
//! regular expression), `index_vault` (scan the vault into the index now) and
//! `get_index_status` (how far the index is, what failed); `search_semantic` and
//! `search_jsonlogic` (the original obsidian-tc's names for two of `search_vault`'s modes);
//! `search_entities` (domain `memory`: agent memory's entities ranked as `search_vault`
//! ranks notes); and `record_retrieval_feedback` (whether a passage a ranked search returned
//! helped, stamped on the caller's retrieval log).

mod corpus;
mod entities;
mod facts;
mod feedback;
mod index_tools;
mod line_search;
mod matching;
mod named_modes;
mod search_regex;
mod search_text;
mod search_vault;
use search_vault::{Found, Mode as SearchMode, ResultPaging, SearchResults, SearchVault, search};
mod unranked;

use crate::runtime::ToolDef;

/// `search_entities`, listed with agent memory's tools (see [`crate::tools::memory`]).
pub fn entity_search_tool() -> ToolDef {
    entities::tool()
}

/// Every search tool but `search_entities`.
pub fn tools() -> Vec<ToolDef> {
    vec![
        search_vault::tool(),
        search_text::tool(),
        search_regex::tool(),
        index_tools::index_tool(),
        index_tools::status_tool(),
        named_modes::semantic_tool(),
        named_modes::jsonlogic_tool(),
        feedback::tool(),
    ]
}

/// The path prefix of the notes under `folder` (`Projects` and `/Projects/` give `Projects/`).
fn folder_prefix(folder: &str) -> String {
    format!("{}/", folder.trim_matches('/'))
}
