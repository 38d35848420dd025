//! The search tools: `search_vault` (find notes for a query, ranked or by text, pattern or
//! rule), `search_text` (lines containing literal text), `search_regex` (lines matching a
//! regular expression), `index_vault` (scan the vault into the index now) and
//! `get_index_status` (how far the index is, what failed).

mod corpus;
mod facts;
mod index_tools;
pub(crate) use index_tools::scan_notes;
mod line_search;
mod matching;
mod search_regex;
mod search_text;
mod search_vault;
pub(crate) use search_vault::{Found, Mode as SearchMode, SearchVault, search};
mod unranked;

use std::sync::Arc;

use engine_core::acl::AclOp;
use engine_core::rank::Visible;

use crate::errors::{ErrorCode, ToolError};
use crate::index::lexical::LexicalView;
use crate::runtime::{ToolContext, ToolDef};
use crate::store::StoreError;

/// Every search tool.
pub fn tools() -> Vec<ToolDef> {
    vec![
        search_vault::tool(),
        search_text::tool(),
        search_regex::tool(),
        index_tools::index_tool(),
        index_tools::status_tool(),
    ]
}

/// `internal` for a failure of the cache database behind the index.
pub(crate) fn index_fault(error: StoreError) -> ToolError {
    ToolError::internal(format!("the search index's database failed: {error}"))
}

/// The chunks of `view` the caller may read, with their BM25F statistics, kept per ACL view
/// until the index changes: what every ranking of a call scores over.
pub(crate) fn readable_chunks(ctx: &ToolContext<'_>, view: &LexicalView) -> Arc<Visible> {
    view.visible(&ctx.read_view_key(), &|path| ctx.may(path, AclOp::Read))
}

/// The path prefix of the notes under `folder` (`Projects` and `/Projects/` give `Projects/`).
fn folder_prefix(folder: &str) -> String {
    format!("{}/", folder.trim_matches('/'))
}

/// The offset a search tool's `cursor` carries (0 without one).
pub(crate) fn cursor_offset(cursor: Option<&str>) -> Result<usize, ToolError> {
    let Some(cursor) = cursor else {
        return Ok(0);
    };
    cursor.parse().map_err(|_| {
        ToolError::new(
            ErrorCode::InvalidInput,
            "the cursor is not one this tool returned; start again without it",
        )
    })
}

/// The stored text of chunk `chunk_id` (empty when it is gone: a note changed meanwhile).
pub(crate) fn chunk_text(ctx: &crate::runtime::ToolContext<'_>, chunk_id: i64) -> String {
    ctx.store()
        .note_index()
        .chunk_text(chunk_id)
        .ok()
        .flatten()
        .unwrap_or_default()
}
