//! The search index as every family reads it: its database failures, the notes a caller may
//! read in it, a chunk's text, and a scan of the vault into it.

use std::sync::Arc;
use std::time::{Duration, Instant};

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

/// How long a call waits for a running scan (or a write's refresh) of its vault to end before
/// it is refused with `index_busy`: the watcher refreshes the index for a moment after every
/// change, and the scan of a small vault, or the last notes of a large one, ends within it.
pub(crate) const SCAN_WAIT: Duration = Duration::from_secs(3);

/// How often a waiting call looks again.
pub(crate) const SCAN_POLL: Duration = Duration::from_millis(20);

/// Scans the call's vault now, reporting progress; returns the report and how many notes
/// the vault has. A scan or refresh already running (in this process or another one) is
/// waited for up to [`SCAN_WAIT`], then the call is `index_busy` (retry after it).
pub(crate) fn scan_notes(ctx: &ToolContext<'_>) -> Result<(ScanReport, u64), ToolError> {
    let deadline = Instant::now() + SCAN_WAIT;
    let mut notes = 0;
    let report = loop {
        let scanned = ctx.runtime().indexes().scan(
            ctx.store(),
            ctx.vault_id(),
            ctx.vault(),
            ctx.clock().now_seconds(),
            &mut |done, total| {
                notes = total as u64;
                ctx.report_progress(done as u64, Some(total as u64), "indexing notes");
            },
            &|path| ctx.may_list(path),
        );
        match scanned {
            Err(IndexError::Busy) if Instant::now() < deadline => std::thread::sleep(SCAN_POLL),
            other => break other.map_err(scan_error)?,
        }
    };
    Ok((report, notes))
}

/// A scan that could not run or failed.
fn scan_error(error: IndexError) -> ToolError {
    match error {
        IndexError::Busy => ToolError::new(ErrorCode::IndexBusy, error.to_string()),
        other => ToolError::internal(other.to_string()),
    }
}
