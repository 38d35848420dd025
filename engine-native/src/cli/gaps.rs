//! `obsidian-tc gaps [--vault ID] [--queries FILE] <vault|config>`: a gap pass on each vault
//! (or one) through the dispatch pipeline: the tool `run_gap_pass` as the `cli` caller, with
//! no budget cut (every query, up to 100,000, for up to a day), its progress on stderr
//! ([`Progress`]), and each pass's summary printed as JSON on stdout. `gap_report` reads it.

use std::sync::{Mutex, PoisonError};

use serde_json::{Value, json};

use crate::cli::args::GapsArgs;
use crate::cli::call::cli_caller;
use crate::cli::progress::{Progress, Unit};
use crate::cli::source::dispatcher_for;
use crate::cli::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE, print_result};
use crate::dispatch::ClientSide;
use crate::runtime::Progress as CallProgress;

/// The most queries a pass from the command line runs.
const MAX_QUERIES: usize = 100_000;

/// The longest a pass from the command line may take, milliseconds (a day).
const BUDGET_MS: u64 = 86_400_000;

/// A call's progress reports shown on stderr.
struct Shown(Mutex<Progress>);

impl CallProgress for Shown {
    fn report(&self, done: u64, total: Option<u64>, _message: &str) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .update(done, total);
    }
}

/// Runs the passes; exit 0 when each vault's pass ran, 1 when one failed, 2 on bad usage
/// (an unknown vault, an unreadable query file).
pub fn run_gaps(args: GapsArgs) -> u8 {
    let queries = match &args.queries {
        None => None,
        Some(file) => match std::fs::read_to_string(file) {
            Ok(text) => Some(
                text.lines()
                    .map(str::trim)
                    .filter(|line| !line.is_empty())
                    .map(str::to_owned)
                    .collect::<Vec<_>>(),
            ),
            Err(error) => {
                eprintln!("cannot read the queries file {}: {error}", file.display());
                return EXIT_USAGE;
            }
        },
    };
    let dispatcher = match dispatcher_for(&args.flags) {
        Ok(dispatcher) => dispatcher,
        Err(code) => return code,
    };
    let served = dispatcher.runtime().served();
    let vaults: Vec<String> = served
        .vaults()
        .iter()
        .map(|entry| entry.id.clone())
        .filter(|id| args.vault.as_deref().is_none_or(|wanted| wanted == id))
        .collect();
    if vaults.is_empty() {
        eprintln!(
            "no vault {:?} in the configuration",
            args.vault.unwrap_or_default()
        );
        return EXIT_USAGE;
    }
    let mut reports = serde_json::Map::new();
    let mut code = EXIT_OK;
    for vault in vaults {
        let mut call = json!({
            "vault": vault,
            "min_results": args.min_results,
            "max_queries": MAX_QUERIES,
            "budget_ms": BUDGET_MS,
        });
        if let Some(queries) = &queries {
            call["queries"] = json!(queries);
        }
        if let Some(threshold) = args.threshold {
            call["threshold"] = json!(threshold);
        }
        let shown = Shown(Mutex::new(Progress::new(
            format!("gaps {vault}"),
            Unit::Count("queries"),
        )));
        let started = std::time::Instant::now();
        let outcome = dispatcher.call_from_client(
            &cli_caller(),
            "run_gap_pass",
            call,
            &ClientSide {
                confirmed: None,
                progress: Some(&shown),
                sampler: None,
            },
        );
        shown
            .0
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .finish();
        let report: Value = match outcome.result {
            Ok(mut value) => {
                value["duration_ms"] = json!(started.elapsed().as_millis());
                value
            }
            Err(error) => {
                eprintln!("the gap pass of vault {vault:?} failed: {error}");
                code = EXIT_FAILURE;
                error.to_structured()
            }
        };
        reports.insert(vault, report);
    }
    match print_result(&Value::Object(reports)) {
        Ok(()) => code,
        Err(failed) => failed,
    }
}
