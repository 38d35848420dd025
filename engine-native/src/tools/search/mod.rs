//! The search tools: `search_vault` (find notes for a query), `index_vault` (scan the vault
//! into the index now) and `get_index_status` (how far the index is, what failed).

mod index_tools;
mod search_vault;

use crate::dispatch::ToolDef;
use crate::errors::ToolError;
use crate::store::StoreError;

/// Every search tool.
pub fn tools() -> Vec<ToolDef> {
    vec![
        search_vault::tool(),
        index_tools::index_tool(),
        index_tools::status_tool(),
    ]
}

/// `internal` for a failure of the cache database behind the index.
pub(crate) fn index_fault(error: StoreError) -> ToolError {
    ToolError::internal(format!("the search index's database failed: {error}"))
}
