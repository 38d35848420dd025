//! `obsidian-tc index [--vault ID] <vault|config>`: scans each vault (or one) into the search
//! index, then embeds its chunks, with progress on stderr ([`Progress`]: a bar on a terminal,
//! plain lines otherwise), and prints what each vault got as JSON on stdout. With provider
//! `auto` the model is found or downloaded (shown as its own progress) while the first vault
//! is scanned; when it cannot be had, the index is lexical and the reason is printed.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::cli::args::IndexArgs;
use crate::cli::progress::{Progress, Unit};
use crate::cli::source::{chosen_vaults, dispatcher_for};
use crate::cli::{EXIT_FAILURE, EXIT_OK, print_result};
use crate::dispatch::Dispatcher;
use crate::embed::Phase;
use crate::index::lexical_reason;
use crate::index::semantic::{Coverage, SemanticError, SemanticIndex};

/// How often the wait for the `auto` model looks again.
const POLL: Duration = Duration::from_millis(100);

/// Runs the scans; exit 0 when every vault was indexed (notes that failed are listed by
/// `get_index_status`; an `auto` model that cannot be had leaves the index lexical), 1 when
/// a scan or an embedding pass could not run, 2 on bad usage.
pub fn run_index(args: IndexArgs) -> u8 {
    let dispatcher = match dispatcher_for(&args.flags) {
        Ok(dispatcher) => dispatcher,
        Err(code) => return code,
    };
    let served = dispatcher.runtime().served();
    let vaults = match chosen_vaults(&served, args.vault.as_deref()) {
        Ok(vaults) => vaults,
        Err(code) => return code,
    };
    let server = dispatcher.runtime();
    server
        .indexes()
        .load_model_first(server.store(), &served.config().config.embeddings);
    let mut reports = serde_json::Map::new();
    let mut code = EXIT_OK;
    for entry in vaults {
        let started = Instant::now();
        let mut progress = Progress::new(format!("indexing {}", entry.id), Unit::Count("notes"));
        let scanned = server.indexes().scan(
            server.store(),
            &entry.id,
            &entry.vault,
            server.clock().now_seconds(),
            &mut |done, total| progress.update(done as u64, Some(total as u64)),
            &|_| true,
        );
        progress.finish();
        let report = match scanned {
            Ok(report) => report,
            Err(error) => {
                eprintln!("indexing vault {:?} failed: {error}", entry.id);
                code = EXIT_FAILURE;
                continue;
            }
        };
        let mut value = json!(report);
        value["duration_ms"] = json!(started.elapsed().as_millis());
        match embed(&dispatcher, &entry.id) {
            Ok(Some(coverage)) => value["embeddings"] = json!(coverage),
            Ok(None) => {
                let reason = lexical_reason(server.indexes(), served.config());
                eprintln!("vault {:?}: {reason}", entry.id);
                value["lexical_only"] = json!(reason);
            }
            Err(error) => {
                eprintln!("embedding vault {:?} failed: {error}", entry.id);
                code = EXIT_FAILURE;
            }
        }
        reports.insert(entry.id.clone(), value);
    }
    match print_result(&reports) {
        Ok(()) => code,
        Err(failed) => failed,
    }
}

/// Embeds the chunks of `vault` without vectors (when a provider is configured), with a
/// progress bar; the vault's coverage afterwards, `None` when there are no vectors to make.
fn embed(dispatcher: &Dispatcher, vault: &str) -> Result<Option<Coverage>, SemanticError> {
    let served = dispatcher.runtime().served();
    let embeddings = &served.config().config.embeddings;
    let indexes = dispatcher.runtime().indexes();
    let store = dispatcher.runtime().store();
    let Some(semantic) = wait_for_vectors(dispatcher)? else {
        return Ok(None);
    };
    let before = semantic.coverage(store, vault)?;
    let total = before.chunks.saturating_sub(before.embedded) as u64;
    let mut progress = Progress::new(format!("embedding {vault}"), Unit::Count("chunks embedded"));
    progress.update(0, Some(total));
    let now = dispatcher.runtime().clock().now_seconds();
    let mut done = 0;
    let coverage = indexes.embed_pending(store, vault, embeddings, now, &mut |embedded| {
        done += embedded.len() as u64;
        progress.update(done, Some(total));
    });
    progress.finish();
    coverage
}

/// The vectors, once the provider is loaded: an `auto` model being downloaded or loaded is
/// waited for (its download shown); `None` when embeddings are off or the model cannot be had.
fn wait_for_vectors(
    dispatcher: &Dispatcher,
) -> Result<Option<std::sync::Arc<SemanticIndex>>, SemanticError> {
    let served = dispatcher.runtime().served();
    let embeddings = &served.config().config.embeddings;
    let indexes = dispatcher.runtime().indexes();
    let mut download: Option<Progress> = None;
    let found = loop {
        if let Some(semantic) = indexes.semantic(dispatcher.runtime().store(), embeddings)? {
            break Some(semantic);
        }
        match indexes.auto_model().phase() {
            Phase::Downloading { transfer, .. } => download
                .get_or_insert_with(|| {
                    Progress::new("downloading the embedding model", Unit::Bytes)
                })
                .update(transfer.bytes, transfer.total),
            Phase::Loading | Phase::Loaded => {}
            Phase::Idle | Phase::Failed { .. } => break None,
        }
        std::thread::sleep(POLL);
    };
    if let Some(progress) = download {
        progress.finish();
    }
    Ok(found)
}
