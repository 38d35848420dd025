//! What a serving process does to keep its indexes fresh (config `index`): a watcher on each
//! vault (started first, so nothing changed during the first scan is missed) and a background
//! scan of each vault at start. Queries do not wait for either.

use std::sync::Arc;
use std::time::Instant;

use super::watch::{VaultWatcher, watch_vault};
use crate::dispatch::Dispatcher;

/// The running watchers; they stop when this is dropped.
#[derive(Debug)]
pub struct Freshness {
    _watchers: Vec<VaultWatcher>,
}

/// Starts the watchers and the start-up scans `dispatcher`'s `index` config asks for.
pub fn keep_fresh(dispatcher: &Arc<Dispatcher>) -> Freshness {
    let served = dispatcher.served();
    let config = served.config().config.index;
    let ids: Vec<String> = served
        .vaults()
        .iter()
        .map(|entry| entry.id.clone())
        .collect();
    let watchers = if config.watch {
        ids.iter()
            .filter_map(|id| match watch_vault(dispatcher, id) {
                Ok(watcher) => Some(watcher),
                Err(error) => {
                    tracing::warn!(
                        vault = %id,
                        "not watching this vault ({error}); changes made outside obsidian-tc \
                         are indexed by index_vault or the next start"
                    );
                    None
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    if config.scan_on_start {
        let dispatcher = Arc::clone(dispatcher);
        std::thread::spawn(move || scan_all(&dispatcher, &ids));
    }
    Freshness {
        _watchers: watchers,
    }
}

/// Scans each vault in turn, logging what each scan did.
fn scan_all(dispatcher: &Dispatcher, ids: &[String]) {
    for id in ids {
        let served = dispatcher.served();
        let Some(entry) = served.vault(id) else {
            continue;
        };
        let started = Instant::now();
        let result = dispatcher.indexes().scan(
            dispatcher.store(),
            id,
            &entry.vault,
            dispatcher.clock().now_seconds(),
            &mut |_, _| {},
        );
        match result {
            Ok(report) => tracing::info!(
                vault = %id,
                ms = started.elapsed().as_millis() as u64,
                added = report.added,
                updated = report.updated,
                removed = report.removed,
                failed = report.failed,
                "search index up to date"
            ),
            Err(error) => tracing::warn!(vault = %id, "start-up scan skipped: {error}"),
        }
    }
}
