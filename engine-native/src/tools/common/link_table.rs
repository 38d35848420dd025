//! The vault's resolved link table (as it is now, or complete for a change that rewrites
//! links), its files, and the note a `path` argument names (canonical, and an indexed note).

use std::sync::Arc;
use std::time::Instant;

use engine_core::acl::AclOp;

use crate::errors::{ErrorCode, ToolError};
use crate::index::links::LinkTable;
use crate::runtime::ToolContext;
use crate::tools::common::index::{SCAN_POLL, SCAN_WAIT, index_fault, scan_notes};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::EntryKind;

/// The resolved link table of the call's vault (kept until the index changes).
pub(crate) fn link_table(ctx: &ToolContext<'_>) -> Result<Arc<LinkTable>, ToolError> {
    ctx.runtime()
        .indexes()
        .links()
        .get(ctx.store(), ctx.vault_id(), || {
            vault_files(ctx).map_err(|error| error.message)
        })
        .map_err(|error| ToolError::internal(format!("the link index failed: {error}")))
}

/// The link table a link-rewriting change plans from, which must hold every note: a running
/// scan of the vault is waited for up to [`SCAN_WAIT`], then the change is refused
/// (retryable); a vault never indexed (`index.scanOnStart` off) is scanned first, so no
/// incoming link is missed.
pub(crate) fn complete_link_table(ctx: &ToolContext<'_>) -> Result<Arc<LinkTable>, ToolError> {
    let indexes = ctx.runtime().indexes();
    let deadline = Instant::now() + SCAN_WAIT;
    let status = loop {
        let status = indexes
            .vault(ctx.store(), ctx.vault_id())
            .map_err(index_fault)?
            .status();
        if !status.scanning || Instant::now() >= deadline {
            break status;
        }
        std::thread::sleep(SCAN_POLL);
    };
    if status.scanning {
        return Err(ToolError::new(
            ErrorCode::IndexBusy,
            format!(
                "the vault is being indexed ({} of {} notes) and links are rewritten from the index; nothing was changed",
                status.done, status.total
            ),
        ));
    }
    let generation = ctx
        .store()
        .note_index()
        .generation(ctx.vault_id())
        .map_err(index_fault)?;
    if generation == 0 {
        scan_notes(ctx)?;
    }
    link_table(ctx)
}

/// Every file of the call's vault (notes and attachments), sorted.
pub(crate) fn vault_files(ctx: &ToolContext<'_>) -> Result<Vec<String>, ToolError> {
    let entries = ctx
        .vault()
        .list(None)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    Ok(entries
        .into_iter()
        .filter(|entry| entry.kind == EntryKind::File)
        .map(|entry| entry.path)
        .collect())
}

/// The canonical path of the existing note `path` (its spelling on disk); `not_found` when
/// the vault has no such file.
pub(crate) fn existing_note(
    ctx: &ToolContext<'_>,
    table: &LinkTable,
    path: &str,
) -> Result<String, ToolError> {
    if let Some(found) = table.resolver().find(path) {
        return Ok(found.to_owned());
    }
    let file = ctx
        .vault()
        .read(path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    Ok(file.path)
}
