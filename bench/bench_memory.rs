//! Agent memory latency over stdio (issue 23): `get_entity` and `add_observation` on a memory
//! of `--entities` entity notes, against `read_note` of the same notes and `ping` on the same
//! session, interleaved, in the same run.
//!
//! ```text
//! cargo run --release -p bench --bin bench_memory -- [--entities 5000] [--calls 300] \
//!     [--bin target/release/obsidian-tc] [--check]
//! ```
//!
//! The memory is written to a temp vault first: each entity a note in `Memory/` as
//! `create_entity` writes it (a type, a relation to the next entity, three dated
//! observations). The server indexes it at start; untimed calls wait until it answers, then
//! each round calls `get_entity`, `add_observation` (a new fact each time, so every call
//! writes), `read_note` and `ping` on one entity, rotating their order. With `--check`, a
//! p50 over 20 ms (the read target of the other tools) fails the run.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use bench::programs::product;
use bench::rpc::{Session, expect_success, handshake};
use bench::server::{obsidian_tc, unthrottled};
use bench::stats::summarize;
use bench::stdio_client::StdioSession;
use clap::Parser;
use serde_json::{Value, json};

/// The p50 each memory call must stay under with `--check`, in ms.
const TARGET_MS: f64 = 20.0;

/// The benchmark's options.
#[derive(Debug, Parser)]
struct Args {
    /// How many entities the memory holds.
    #[arg(long, default_value_t = 5000)]
    entities: usize,
    /// Timed rounds (one call of each kind per round).
    #[arg(long, default_value_t = 300)]
    calls: usize,
    /// The product binary (default: the release build, built when missing).
    #[arg(long)]
    bin: Option<std::path::PathBuf>,
    /// Fail when a memory call's p50 is over 20 ms.
    #[arg(long)]
    check: bool,
}

/// The name of the `i`th entity.
fn entity(i: usize) -> String {
    format!("Entity {i:05}")
}

/// Writes `count` entity notes into `vault`'s `Memory/` folder.
fn write_memory(vault: &Path, count: usize) -> Result<(), String> {
    let folder = vault.join("Memory");
    std::fs::create_dir_all(&folder).map_err(|e| format!("cannot create {folder:?}: {e}"))?;
    let types = ["person", "project", "concept", "place"];
    for i in 0..count {
        let name = entity(i);
        let text = format!(
            "---\ntype: {}\nknows: \"[[{}]]\"\n---\n# {name}\n\n## Observations\n\n\
             - Fact one about {name} [date:: 2026-11-01] [session:: bench]\n\
             - Works on topic {} [date:: 2026-11-02]\n\
             - Met at event {} [date:: 2026-11-03]\n",
            types[i % types.len()],
            entity((i + 1) % count),
            i % 97,
            i % 31,
        );
        std::fs::write(folder.join(format!("{name}.md")), text)
            .map_err(|e| format!("cannot write entity {i}: {e}"))?;
    }
    Ok(())
}

/// The samples of each call kind.
#[derive(Default)]
struct Samples {
    get_entity: Vec<Duration>,
    add_observation: Vec<Duration>,
    read_note: Vec<Duration>,
    ping: Vec<Duration>,
}

fn tool(name: &str, arguments: Value) -> Value {
    json!({"name": name, "arguments": arguments})
}

/// One call of `kind` on entity `i` (round `round`), checked to succeed.
fn call(
    session: &mut dyn Session,
    id: u64,
    kind: usize,
    i: usize,
    round: usize,
) -> Result<Duration, String> {
    let name = entity(i);
    let (method, params, what) = match kind {
        0 => (
            "tools/call",
            tool("get_entity", json!({"name": name})),
            "get_entity",
        ),
        1 => (
            "tools/call",
            tool(
                "add_observation",
                json!({"name": name, "text": format!("Observed in round {round}"), "session": "bench"}),
            ),
            "add_observation",
        ),
        2 => (
            "tools/call",
            tool("read_note", json!({"path": format!("Memory/{name}.md")})),
            "read_note",
        ),
        _ => ("ping", json!({}), "ping"),
    };
    let (took, response) = session.request(id, method, params)?;
    expect_success(&response, &format!("{what} {name}"))?;
    Ok(took)
}

fn run(args: &Args) -> Result<Samples, String> {
    let bin = product(args.bin.clone())?;
    let temp = tempfile::tempdir().map_err(|e| format!("cannot make a temp folder: {e}"))?;
    let vault = temp.path().join("vault");
    eprintln!("writing {} entity notes", args.entities);
    write_memory(&vault, args.entities)?;
    let mut session = StdioSession::spawn(unthrottled(obsidian_tc(
        &bin,
        &vault,
        &temp.path().join("cache"),
        None,
    )))?;
    handshake(&mut session)?;
    let mut id = 1;
    // Untimed: the first calls wait for the index of the new vault.
    for kind in 0..4 {
        id += 1;
        call(&mut session, id, kind, 0, 0)?;
    }
    eprintln!(
        "{} rounds of get_entity, add_observation, read_note, ping",
        args.calls
    );
    let mut samples = Samples::default();
    for round in 0..args.calls {
        // A different entity each round, spread over the whole memory.
        let i = (round * 7919) % args.entities;
        for step in 0..4 {
            id += 1;
            let kind = (round + step) % 4;
            let took = call(&mut session, id, kind, i, round)?;
            match kind {
                0 => samples.get_entity.push(took),
                1 => samples.add_observation.push(took),
                2 => samples.read_note.push(took),
                _ => samples.ping.push(took),
            }
        }
    }
    session.close()?;
    Ok(samples)
}

/// Prints the table; returns how many memory calls missed the target.
fn report(samples: &Samples) -> usize {
    let read = summarize(&samples.read_note).map_or(f64::NAN, |s| s.median);
    let ping = summarize(&samples.ping).map_or(f64::NAN, |s| s.median);
    println!(
        "{:<18} {:>8} {:>8} {:>8}  {:>14} {:>10}  result",
        "call (ms)", "median", "p90", "p99", "/ read_note", "/ ping"
    );
    let mut missed = 0;
    for (name, taken, target) in [
        ("get_entity", &samples.get_entity, true),
        ("add_observation", &samples.add_observation, true),
        ("read_note", &samples.read_note, false),
        ("ping", &samples.ping, false),
    ] {
        let Some(summary) = summarize(taken) else {
            continue;
        };
        let result = match target {
            true if summary.median <= TARGET_MS => format!("PASS (<= {TARGET_MS} ms)"),
            true => {
                missed += 1;
                format!("MISS (> {TARGET_MS} ms)")
            }
            false => "baseline".to_owned(),
        };
        println!(
            "{name:<18} {:>8.3} {:>8.3} {:>8.3}  {:>13.2}x {:>9.2}x  {result}",
            summary.median,
            summary.p90,
            summary.p99,
            summary.median / read,
            summary.median / ping,
        );
    }
    missed
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(samples) => {
            println!(
                "memory of {} entities, {} rounds over stdio (medians of the same run)",
                args.entities, args.calls
            );
            let missed = report(&samples);
            if args.check && missed > 0 {
                eprintln!("bench_memory: {missed} call kind(s) over {TARGET_MS} ms at p50");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("bench_memory: {message}");
            ExitCode::FAILURE
        }
    }
}
