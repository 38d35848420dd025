//! The search index as every family reads it: its database failures, the notes a caller may
//! read in it, a chunk's text, and a scan of the vault into it.

use std::sync::Arc;

use engine_core::rank::Visible;

use crate::errors::{ErrorCode, ToolError};
use crate::index::lexical::LexicalView;
use crate::index::{IndexError, ScanReport};
use crate::runtime::ToolContext;
use crate::store::StoreError;

/// `internal` for a failure of the cache database behind the index.
pub(crate) fn index_fault(error: StoreError) -> ToolError {
    ToolError::internal(format!("the search index's database failed: {error}"))
}

/// The chunks of `view` the caller may read, with their BM25F statistics, kept per ACL view
/// until the index changes: what every ranking of a call scores over.
pub(crate) fn readable_chunks(ctx: &ToolContext<'_>, view: &LexicalView) -> Arc<Visible> {
    view.visible(&ctx.read_view_key(), &|path| ctx.may_list(path))
}

/// The stored text of chunk `chunk_id` (empty when it is gone: a note changed meanwhile).
pub(crate) fn chunk_text(ctx: &ToolContext<'_>, chunk_id: i64) -> String {
    ctx.store()
        .note_index()
        .chunk_text(chunk_id)
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Scans the call's vault now, reporting progress; returns the report and how many notes
/// the vault has. A scan already running is `index_busy` (retry after it).
pub(crate) fn scan_notes(ctx: &ToolContext<'_>) -> Result<(ScanReport, u64), ToolError> {
    let mut notes = 0;
    let report = ctx
        .runtime()
        .indexes()
        .scan(
            ctx.store(),
            ctx.vault_id(),
            ctx.vault(),
            ctx.clock().now_seconds(),
            &mut |done, total| {
                notes = total as u64;
                ctx.report_progress(done as u64, Some(total as u64), "indexing notes");
            },
            &|path| ctx.may_list(path),
        )
        .map_err(scan_error)?;
    Ok((report, notes))
}

/// A scan that could not run or failed.
fn scan_error(error: IndexError) -> ToolError {
    match error {
        IndexError::Busy => ToolError::new(ErrorCode::IndexBusy, error.to_string()),
        other => ToolError::internal(other.to_string()),
    }
}
