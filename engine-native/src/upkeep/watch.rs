//! Keeping a vault's index fresh while files change behind the server's back: a debounced
//! `notify` watcher on the realpath of the vault root. Event kinds are not trusted (editors
//! save through renames, sync tools touch without changing): each batch of changed paths is
//! re-read from disk. A batch of notes is refreshed by path; anything else (a folder renamed
//! or deleted, an event the watcher could not name) triggers an incremental scan, which
//! re-reads only what changed. Control folders (`.obsidian/`, `.trash/`, `.git/`, the cache
//! folder and any other dot-folder) are ignored.

use std::path::Path;
use std::sync::{Arc, Weak};
use std::time::Duration;

use notify_debouncer_full::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::dispatch::Dispatcher;
use crate::index::IndexError;
use crate::index::scan::is_note;
use crate::vault::relative_text;

/// How long the watcher waits for a burst of events to settle.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// How long a batch waits before retrying when a scan holds the index.
const BUSY_RETRY: Duration = Duration::from_millis(200);

/// A running watcher; it stops when dropped.
pub struct VaultWatcher {
    _debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
}

impl std::fmt::Debug for VaultWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VaultWatcher").finish_non_exhaustive()
    }
}

/// Watches vault `vault_id` of `dispatcher` (its realpath) and applies each settled batch
/// of changes to the index. The watcher holds the dispatcher weakly: it goes quiet when the
/// server is gone, and ignores batches for a vault a reload removed.
pub fn watch_vault(
    dispatcher: &Arc<Dispatcher>,
    vault_id: &str,
) -> Result<VaultWatcher, notify_debouncer_full::notify::Error> {
    let served = dispatcher.runtime().served();
    let Some(entry) = served.vault(vault_id) else {
        return Err(notify_debouncer_full::notify::Error::generic(&format!(
            "no vault {vault_id:?} to watch"
        )));
    };
    let root = std::fs::canonicalize(entry.vault.root())?;
    let weak = Arc::downgrade(dispatcher);
    let id = vault_id.to_owned();
    let watched_root = root.clone();
    let mut debouncer = new_debouncer(DEBOUNCE, None, move |result: DebounceEventResult| {
        let paths = match result {
            Ok(events) => Some(
                events
                    .iter()
                    .flat_map(|event| event.paths.iter())
                    .filter_map(|path| vault_path(&watched_root, path))
                    .collect::<Vec<_>>(),
            ),
            Err(errors) => {
                tracing::warn!(vault = %id, "watch errors: {errors:?}; rescanning");
                None
            }
        };
        apply(&weak, &id, paths);
    })?;
    debouncer.watch(&root, RecursiveMode::Recursive)?;
    Ok(VaultWatcher {
        _debouncer: debouncer,
    })
}

/// The vault-relative path of a changed `path`, `None` inside a dot-folder or outside.
fn vault_path(root: &Path, path: &Path) -> Option<String> {
    let rel = relative_text(root, path);
    if rel.is_empty() || rel.split('/').any(|segment| segment.starts_with('.')) {
        return None;
    }
    Some(rel)
}

/// Applies one batch: the named notes, or an incremental scan when `paths` is `None` or
/// names anything but notes. Retries while another scan holds the index.
fn apply(dispatcher: &Weak<Dispatcher>, vault_id: &str, paths: Option<Vec<String>>) {
    let Some(dispatcher) = dispatcher.upgrade() else {
        return;
    };
    let paths = paths.map(|mut paths| {
        paths.sort();
        paths.dedup();
        paths
    });
    if paths.as_ref().is_some_and(Vec::is_empty) {
        return;
    }
    loop {
        let served = dispatcher.runtime().served();
        let Some(entry) = served.vault(vault_id) else {
            return;
        };
        let now = dispatcher.runtime().clock().now_seconds();
        let indexes = dispatcher.runtime().indexes();
        let store = dispatcher.runtime().store();
        let result = match &paths {
            Some(paths) if paths.iter().all(|path| is_note(path)) => {
                indexes.refresh(store, vault_id, &entry.vault, paths, now)
            }
            _ => indexes.scan(store, vault_id, &entry.vault, now, &mut |_, _| {}, &|_| {
                true
            }),
        };
        match result {
            Ok(report) => {
                tracing::debug!(vault = vault_id, ?report, "index refreshed");
                return;
            }
            Err(IndexError::Busy) => std::thread::sleep(BUSY_RETRY),
            Err(error) => {
                tracing::warn!(vault = vault_id, "index refresh failed: {error}");
                return;
            }
        }
    }
}
