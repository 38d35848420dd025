//! What a serving process does to keep its indexes fresh (config `index`): a watcher on each
//! vault (started first, so nothing changed during the first scan is missed), a background
//! scan of each vault at start, and, with an embedding provider, a background embedder that
//! gives new chunks their vectors. Queries do not wait for any of them.

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use super::watch::{VaultWatcher, watch_vault};
use crate::dispatch::Dispatcher;
use crate::embed::settings::EmbeddingProvider;

/// How often the embedder looks for chunks without vectors.
const EMBED_EVERY: Duration = Duration::from_secs(1);

/// How long the embedder waits after the provider failed.
const EMBED_BACKOFF: Duration = Duration::from_secs(30);

/// The running watchers; they stop when this is dropped.
#[derive(Debug)]
pub struct Freshness {
    _watchers: Vec<VaultWatcher>,
}

/// Starts the watchers and the start-up scans `dispatcher`'s `index` config asks for.
pub fn keep_fresh(dispatcher: &Arc<Dispatcher>) -> Freshness {
    let served = dispatcher.runtime().served();
    let config = &served.config().config.index;
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
    // The `auto` model's download (or load) starts now; the first scan waits for a load (not
    // a download), so that the model's load-time copies do not stack on the index.
    dispatcher.runtime().indexes().prepare_embeddings(
        dispatcher.runtime().store(),
        &served.config().config.embeddings,
    );
    let weak = Arc::downgrade(dispatcher);
    if config.scan_on_start {
        dispatcher.runtime().indexes().start_up_scans(&ids);
    }
    let scan_first = config.scan_on_start.then(|| Arc::clone(dispatcher));
    std::thread::spawn(move || {
        if let Some(dispatcher) = scan_first {
            let server = dispatcher.runtime();
            server
                .indexes()
                .load_model_first(server.store(), &server.served().config().config.embeddings);
            scan_all(&dispatcher, &ids);
        }
        embed_forever(&weak);
    });
    Freshness {
        _watchers: watchers,
    }
}

/// Fills in the vectors of new chunks while the server runs (when a provider is configured):
/// one pass over the vaults every [`EMBED_EVERY`], waiting [`EMBED_BACKOFF`] after a failure.
/// While an `auto` model is being downloaded or loaded, each pass finds no vectors yet and
/// the next one looks again; the first after it arrived embeds. Ends when the server is gone
/// or embeddings are off.
fn embed_forever(dispatcher: &Weak<Dispatcher>) {
    let mut last_error = String::new();
    loop {
        let Some(dispatcher) = dispatcher.upgrade() else {
            return;
        };
        let server = dispatcher.runtime();
        let served = server.served();
        let embeddings = &served.config().config.embeddings;
        let mut wait = EMBED_EVERY;
        for entry in served.vaults() {
            let now = server.clock().now_seconds();
            match server.indexes().embed_pending(
                server.store(),
                &entry.id,
                embeddings,
                now,
                &mut |_| {},
            ) {
                Ok(None) if embeddings.provider == EmbeddingProvider::None => return,
                Ok(None) => {}
                Ok(Some(_)) => last_error.clear(),
                Err(error) => {
                    let message = error.to_string();
                    if message != last_error {
                        tracing::warn!(vault = %entry.id, "embedding paused: {message}");
                        last_error = message;
                    }
                    wait = EMBED_BACKOFF;
                }
            }
        }
        drop(served);
        drop(dispatcher);
        std::thread::sleep(wait);
    }
}

/// Scans each vault in turn, logging what each scan did.
fn scan_all(dispatcher: &Dispatcher, ids: &[String]) {
    for id in ids {
        let served = dispatcher.runtime().served();
        let indexes = dispatcher.runtime().indexes();
        let Some(entry) = served.vault(id) else {
            indexes.start_up_scan_ended(id);
            continue;
        };
        let started = Instant::now();
        let result = indexes.scan(
            dispatcher.runtime().store(),
            id,
            &entry.vault,
            dispatcher.runtime().clock().now_seconds(),
            &mut |_, _| {},
            &|_| true,
        );
        indexes.start_up_scan_ended(id);
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
