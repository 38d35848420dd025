//! Snapshots of what a call changed: the handler runs inside a [`journal::record`]ing, and
//! each file it touched whose content really changed (a failed write leaves none) is kept
//! as it was before, under one change id per call, for `list_snapshots`, `restore_note` and
//! `undo_last_change`; their paths go to the session trace. Keeping the snapshot never fails
//! the call (the change is on disk): a failure is logged and counted as a bookkeeping fault.

use engine_core::hash::sha256_hex;

use crate::dispatch::dispatcher::Dispatcher;
use crate::runtime::context::ToolContext;
use crate::store::{ChangedFile, StoreError};
use crate::vault::VaultError;
use crate::vault::journal::{Before, BeforeState};

impl Dispatcher {
    /// Records the files of `befores` that the call in `ctx` changed; returns their paths.
    pub(crate) fn keep_snapshots(&self, ctx: &ToolContext<'_>, befores: &[Before]) -> Vec<String> {
        if befores.is_empty() {
            return Vec::new();
        }
        let afters: Vec<Option<String>> = befores
            .iter()
            .map(|before| sha256_now(ctx, &before.path))
            .collect();
        let changes: Vec<(&Before, Option<&str>)> = befores
            .iter()
            .zip(afters.iter().map(Option::as_deref))
            .filter(|(before, after)| changed(&before.state, *after))
            .collect();
        if let Err(error) = self.record_change(ctx, &changes) {
            self.runtime.metrics().record_bookkeeping_fault();
            tracing::warn!(
                vault = ctx.vault_id(),
                tool = ctx.tool().name(),
                "the snapshot of this change was not kept ({error}); it cannot be undone"
            );
        }
        changes
            .iter()
            .map(|(before, _)| before.path.clone())
            .collect()
    }

    fn record_change(
        &self,
        ctx: &ToolContext<'_>,
        changes: &[(&Before, Option<&str>)],
    ) -> Result<(), StoreError> {
        let files: Vec<ChangedFile<'_>> = changes
            .iter()
            .map(|&(before, after)| ChangedFile {
                path: &before.path,
                existed: before.state != BeforeState::Absent,
                content: match &before.state {
                    BeforeState::Content(bytes) => Some(bytes),
                    BeforeState::Absent | BeforeState::NotKept => None,
                },
                after_sha256: after,
            })
            .collect();
        ctx.keep_snapshots(files).map(drop)
    }
}

/// The SHA-256 of the file at `path` now; `None` when there is none (or it cannot be read,
/// which a restore then refuses to overwrite blindly).
fn sha256_now(ctx: &ToolContext<'_>, path: &str) -> Option<String> {
    match ctx.vault().read(path) {
        Ok(file) => Some(file.sha256),
        Err(VaultError::NotFound { .. }) => None,
        Err(_) => Some(String::new()),
    }
}

/// Whether a file that was `before` and now has `after` (its SHA-256, `None`: gone) changed.
fn changed(before: &BeforeState, after: Option<&str>) -> bool {
    match (before, after) {
        (BeforeState::Absent, None) => false,
        (BeforeState::Content(bytes), Some(after)) => sha256_hex(bytes) != after,
        _ => true,
    }
}
