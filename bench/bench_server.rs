//! obsidian-tc's server latency against same-run baselines (issue 3, must-show 3).
//!
//! ```text
//! cargo build --release -p obsidian-tc --bin obsidian-tc
//! cargo build --release -p bench --bin empty_mcp_server --bin bench_server
//! target/release/bench_server [--vault ../shared/vaults/obsidian-help-en] \
//!     [--bin target/release/obsidian-tc] [--runs 30] [--calls 2000] [--check]
//! ```
//!
//! - **start-up**: spawn `obsidian-tc <vault> --cache-dir <tmp>` (zero-config stdio), write
//!   `initialize` at once, time until its response line. One untimed start first (the warm
//!   cache: `cache.db` exists, the binary is in the page cache), then `--runs` timed starts
//!   alternating with the same measurement of `empty_mcp_server` (rmcp, one empty tool):
//!   the ratio is what obsidian-tc adds over the SDK. Target: median ≤ 50 ms.
//! - **read_note round trip**, over stdio and over HTTP (`serve --http --port <free>`, one
//!   keep-alive connection, session id): `--calls` rounds of `tools/call read_note` on three
//!   notes of typical size (quartiles of the vault), interleaved on the same session with
//!   `generate_uri` (a tool that only builds a string and touches no file: what every call
//!   pays for, the transport, rmcp, the gates, the event row and the result conversion) and
//!   a protocol `ping`. Target: read_note median ≤ 2 ms.
//!
//! The machine may be shared and noisy: compare the medians side by side. `--check` exits
//! non-zero when a target is missed. Skips (exit 0) when the vault is absent.

use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::time::Duration;

use clap::Parser;

use bench::http_client::HttpSession;
use bench::programs::{Served, product, program};
use bench::roundtrip::{NOTES, RoundTrips, measure};
use bench::rpc::handshake;
use bench::server::{ServerProcess, free_port, obsidian_tc, unthrottled};
use bench::startup;
use bench::stats::summarize;
use bench::stdio_client::StdioSession;

/// Start-up target: median time to the `initialize` response, ms.
const STARTUP_TARGET_MS: f64 = 50.0;
/// Round-trip target: median `read_note`, ms.
const READ_NOTE_TARGET_MS: f64 = 2.0;

/// The benchmark's options.
#[derive(Debug, Parser)]
struct Args {
    /// The vault and the binary.
    #[command(flatten)]
    served: Served,
    /// The empty rmcp server (else `empty_mcp_server` next to this program).
    #[arg(long)]
    empty_server: Option<PathBuf>,
    /// Timed start-ups of each server.
    #[arg(long, default_value_t = 30)]
    runs: usize,
    /// Timed calls of each kind per transport.
    #[arg(long, default_value_t = 2000)]
    calls: usize,
    /// Exit non-zero when a target is missed.
    #[arg(long)]
    check: bool,
}

/// One line of the report.
struct Row {
    name: &'static str,
    subject: Vec<Duration>,
    /// The same-run baseline the ratio is taken against.
    baseline: (&'static str, Vec<Duration>),
    /// A second baseline, shown with its ratio too.
    second: Option<(&'static str, Vec<Duration>)>,
    target_ms: Option<f64>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if !args.served.vault.is_dir() {
        println!(
            "bench_server: skipped, the vault {} is absent",
            args.served.vault.display()
        );
        return ExitCode::SUCCESS;
    }
    match run(&args) {
        Ok(rows) => {
            let missed = report(&rows);
            if args.check && missed > 0 {
                eprintln!("bench_server: {missed} target(s) missed");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("bench_server: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<Vec<Row>, String> {
    let bin = product(args.served.bin.clone())?;
    let empty = program(
        args.empty_server.clone(),
        "empty_mcp_server",
        "-p bench --bin empty_mcp_server",
    )?;
    let vault = std::fs::canonicalize(&args.served.vault)
        .map_err(|e| format!("cannot resolve {}: {e}", args.served.vault.display()))?;
    let temp = tempfile::tempdir().map_err(|e| format!("cannot make a temp folder: {e}"))?;
    let subject_cache = temp.path().join("subject");

    eprintln!("start-up: {} runs each", args.runs);
    let subject_start = || obsidian_tc(&bin, &vault, &subject_cache, None);
    let empty_start = || Command::new(&empty);
    let (startup_subject, startup_baseline) =
        startup::compare(&subject_start, &empty_start, args.runs)?;

    eprintln!("round trips over stdio: {} calls of each kind", args.calls);
    let stdio = {
        let mut subject =
            stdio_session(unthrottled(obsidian_tc(&bin, &vault, &subject_cache, None)))?;
        measure(&mut subject, &NOTES, args.calls)?
    };

    eprintln!("round trips over HTTP: {} calls of each kind", args.calls);
    let http = {
        let port = free_port()?;
        let _subject = ServerProcess::spawn(unthrottled(obsidian_tc(
            &bin,
            &vault,
            &subject_cache,
            Some(port),
        )))?;
        let mut subject = http_session(port)?;
        measure(&mut subject, &NOTES, args.calls)?
    };

    Ok(vec![
        Row {
            name: "start-up to initialize (stdio, warm)",
            subject: startup_subject,
            baseline: ("empty rmcp server", startup_baseline),
            second: None,
            target_ms: Some(STARTUP_TARGET_MS),
        },
        round_trip_row("read_note round trip (stdio)", stdio),
        round_trip_row("read_note round trip (HTTP)", http),
    ])
}

fn round_trip_row(name: &'static str, samples: RoundTrips) -> Row {
    Row {
        name,
        subject: samples.read_note,
        baseline: ("generate_uri", samples.generate_uri),
        second: Some(("ping", samples.ping)),
        target_ms: Some(READ_NOTE_TARGET_MS),
    }
}

fn stdio_session(command: Command) -> Result<StdioSession, String> {
    let mut session = StdioSession::spawn(command)?;
    handshake(&mut session)?;
    Ok(session)
}

fn http_session(port: u16) -> Result<HttpSession, String> {
    let mut session = HttpSession::connect(port, "/mcp", Duration::from_secs(10))?;
    handshake(&mut session)?;
    Ok(session)
}

/// `name median (ratio)` of a baseline against `subject_median`, or `-`.
fn baseline_cell(baseline: Option<&(&str, Vec<Duration>)>, subject_median: f64) -> String {
    let Some((name, samples)) = baseline else {
        return "-".to_owned();
    };
    match summarize(samples) {
        Some(summary) => format!(
            "{name} {:.3} ms ({:.2}x)",
            summary.median,
            subject_median / summary.median
        ),
        None => format!("{name}: no samples"),
    }
}

/// Prints the table (times in ms; each ratio is the subject's median over the baseline's);
/// returns how many targets were missed.
fn report(rows: &[Row]) -> usize {
    println!(
        "{:<38} {:>8} {:>8} {:>8}  {:<36} {:<24} {:>7}  result",
        "measurement (ms)",
        "median",
        "p90",
        "p99",
        "baseline median (ratio)",
        "2nd baseline",
        "target"
    );
    let mut missed = 0;
    for row in rows {
        let Some(subject) = summarize(&row.subject) else {
            println!("{:<38} no samples", row.name);
            missed += 1;
            continue;
        };
        let (target, result) = match row.target_ms {
            Some(target) if subject.median <= target => (format!("{target}"), "PASS"),
            Some(target) => {
                missed += 1;
                (format!("{target}"), "FAIL")
            }
            None => ("-".to_owned(), "-"),
        };
        println!(
            "{:<38} {:>8.3} {:>8.3} {:>8.3}  {:<36} {:<24} {:>7}  {result}",
            row.name,
            subject.median,
            subject.p90,
            subject.p99,
            baseline_cell(Some(&row.baseline), subject.median),
            baseline_cell(row.second.as_ref(), subject.median),
            target,
        );
    }
    missed
}
