//! The offline passes over derived tables, for the operator: run for the server itself (every
//! note, whatever the folder ACL) one vault (or each) after the other, with a progress bar on
//! stderr, printing each vault's result as JSON on stdout:
//!
//! - `obsidian-tc note-quality [--vault ID] [--budget-ms MS]`: the note-quality pass over
//!   the indexed notes ([`crate::runtime::Runtime::measure_notes`]; `obsidian-tc index`
//!   first indexes them);
//! - `obsidian-tc contradictions [--vault ID] [--max-pairs N] [--budget-ms MS]`: the
//!   contradiction detector ([`crate::runtime::Runtime::detect_contradictions`]); without a
//!   configured model it judges nothing and says so.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cli::args::PassArgs;
use crate::cli::progress::{Progress, Unit};
use crate::cli::source::{chosen_vaults, dispatcher_for};
use crate::cli::{EXIT_FAILURE, EXIT_OK, print_result};
use crate::index::contradictions::{Budget, NEIGHBOURS};
use crate::runtime::passes::Detection;
use crate::runtime::{Runtime, VaultEntry};

/// `obsidian-tc note-quality`: exit 0 when every vault's pass ran, 1 when one failed, 2 on
/// bad usage.
pub fn run_note_quality(args: PassArgs) -> u8 {
    run_each(
        &args,
        ("measuring", "notes"),
        &|server, entry, deadline, progress| {
            server
                .measure_notes(entry, deadline, progress)
                .map(|report| json!(report))
        },
    )
}

/// `obsidian-tc contradictions`: exit 0 when every vault's run ran (judging nothing without
/// a model or vectors, which it says), 1 when one failed, 2 on bad usage.
pub fn run_contradictions(args: PassArgs) -> u8 {
    let max_pairs = usize::try_from(args.max_pairs)
        .unwrap_or(usize::MAX)
        .max(NEIGHBOURS);
    run_each(
        &args,
        ("judging", "passages"),
        &move |server, entry, deadline, progress| {
            let budget = Budget {
                max_pairs,
                deadline,
            };
            match server.detect_contradictions(&entry.id, "cli", budget, progress) {
                Ok(Detection::Ran { model, report }) => {
                    let mut value = json!(report);
                    value["available"] = json!(true);
                    value["model"] = json!(model);
                    Ok(value)
                }
                Ok(Detection::NoJudge) => Ok(unavailable("no language model is configured")),
                Ok(Detection::NoVectors) => Ok(unavailable("semantic search is off")),
                Err(error) => Err(error.to_string()),
            }
        },
    )
}

fn unavailable(message: &str) -> Value {
    json!({"available": false, "message": message})
}

/// One vault's pass: the server, the vault, the deadline and the progress callback.
type Pass<'a> =
    dyn Fn(&Runtime, &VaultEntry, Instant, &mut dyn FnMut(u64, u64)) -> Result<Value, String> + 'a;

fn run_each(args: &PassArgs, (verb, unit): (&str, &'static str), pass: &Pass<'_>) -> u8 {
    let dispatcher = match dispatcher_for(&args.flags) {
        Ok(dispatcher) => dispatcher,
        Err(code) => return code,
    };
    let server = dispatcher.runtime();
    let served = server.served();
    let vaults = match chosen_vaults(&served, args.vault.as_deref()) {
        Ok(vaults) => vaults,
        Err(code) => return code,
    };
    let mut results = serde_json::Map::new();
    let mut code = EXIT_OK;
    for entry in vaults {
        let started = Instant::now();
        let deadline = started + Duration::from_millis(args.budget_ms);
        let mut progress = Progress::new(format!("{verb} {}", entry.id), Unit::Count(unit));
        let outcome = pass(server, entry, deadline, &mut |done, total| {
            progress.update(done, Some(total))
        });
        progress.finish();
        match outcome {
            Ok(mut value) => {
                value["duration_ms"] = json!(started.elapsed().as_millis());
                results.insert(entry.id.clone(), value);
            }
            Err(error) => {
                eprintln!("vault {:?}: {error}", entry.id);
                code = EXIT_FAILURE;
            }
        }
    }
    match print_result(&results) {
        Ok(()) => code,
        Err(failed) => failed,
    }
}
