//! `obsidian-tc index [--vault ID] <vault|config>`: scans each vault (or one) into the search
//! index with a progress bar on stderr, then prints what each scan did as JSON on stdout.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::cli::args::IndexArgs;
use crate::cli::source::dispatcher_for;
use crate::cli::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE, print_result};
use crate::dispatch::Dispatcher;
use crate::index::semantic::Coverage;

/// How often a non-terminal stderr gets a progress line.
const LOG_EVERY: Duration = Duration::from_secs(2);

/// Runs the scans; exit 0 when every vault was indexed (notes that failed are listed by
/// `get_index_status`), 1 when a scan could not run, 2 on bad usage.
pub fn run_index(args: IndexArgs) -> u8 {
    let dispatcher = match dispatcher_for(&args.flags) {
        Ok(dispatcher) => dispatcher,
        Err(code) => return code,
    };
    let served = dispatcher.server().served();
    let vaults: Vec<_> = served
        .vaults()
        .iter()
        .filter(|entry| args.vault.as_deref().is_none_or(|id| id == entry.id))
        .collect();
    if vaults.is_empty() {
        let known: Vec<&str> = served.vaults().iter().map(|v| v.id.as_str()).collect();
        eprintln!(
            "no vault {:?} in the configuration; its vaults are {known:?}",
            args.vault.unwrap_or_default()
        );
        return EXIT_USAGE;
    }
    let mut reports = serde_json::Map::new();
    let mut code = EXIT_OK;
    for entry in vaults {
        let started = Instant::now();
        let mut progress = Progress::new(&entry.id, "notes");
        let scanned = dispatcher.server().indexes().scan(
            dispatcher.server().store(),
            &entry.id,
            &entry.vault,
            dispatcher.server().clock().now_seconds(),
            &mut |done, total| progress.update(done, total),
        );
        progress.finish();
        match scanned {
            Ok(report) => {
                let mut value = json!(report);
                value["duration_ms"] = json!(started.elapsed().as_millis());
                match embed(&dispatcher, &entry.id) {
                    Ok(Some(coverage)) => value["embeddings"] = json!(coverage),
                    Ok(None) => {}
                    Err(error) => {
                        eprintln!("embedding vault {:?} failed: {error}", entry.id);
                        code = EXIT_FAILURE;
                    }
                }
                reports.insert(entry.id.clone(), value);
            }
            Err(error) => {
                eprintln!("indexing vault {:?} failed: {error}", entry.id);
                code = EXIT_FAILURE;
            }
        }
    }
    match print_result(&reports) {
        Ok(()) => code,
        Err(failed) => failed,
    }
}

/// Embeds the chunks of `vault` without vectors (when a provider is configured), with a
/// progress bar; the vault's coverage afterwards.
fn embed(
    dispatcher: &Dispatcher,
    vault: &str,
) -> Result<Option<Coverage>, crate::index::semantic::SemanticError> {
    let served = dispatcher.server().served();
    let embeddings = &served.config().config.embeddings;
    let indexes = dispatcher.server().indexes();
    let Some(semantic) = indexes.semantic(dispatcher.server().store(), embeddings)? else {
        return Ok(None);
    };
    let before = semantic.coverage(dispatcher.server().store(), vault)?;
    let total = before.chunks.saturating_sub(before.embedded);
    let mut progress = Progress::new(vault, "chunks embedded");
    let now = dispatcher.server().clock().now_seconds();
    let coverage = indexes.embed_pending(
        dispatcher.server().store(),
        vault,
        embeddings,
        now,
        &mut |done| progress.update(done, total),
    );
    progress.finish();
    coverage
}

/// A progress bar on a terminal, a line every few seconds otherwise.
struct Progress<'a> {
    vault: &'a str,
    unit: &'static str,
    bar: Option<ProgressBar>,
    last_line: Instant,
}

impl<'a> Progress<'a> {
    fn new(vault: &'a str, unit: &'static str) -> Progress<'a> {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(0);
            if let Ok(style) = ProgressStyle::with_template(&format!(
                "{{prefix}} [{{bar:32}}] {{pos}}/{{len}} {unit} {{per_sec}} eta {{eta}}"
            )) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_prefix(format!("indexing {vault}"));
            bar
        });
        Progress {
            vault,
            unit,
            bar,
            last_line: Instant::now(),
        }
    }

    fn update(&mut self, done: usize, total: usize) {
        match &self.bar {
            Some(bar) => {
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            }
            None if self.last_line.elapsed() >= LOG_EVERY || done == total => {
                eprintln!("indexing {}: {done}/{total} {}", self.vault, self.unit);
                self.last_line = Instant::now();
            }
            None => {}
        }
    }

    fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}
