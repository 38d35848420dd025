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

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;

use clap::Parser;

use bench::http_client::HttpSession;
use bench::programs::{product, program};
use bench::roundtrip::{RoundTrips, measure};
use bench::rpc::handshake;
use bench::startup;
use bench::stats::summarize;
use bench::stdio_client::StdioSession;

/// Three notes of the vault at its size quartiles (about 1.7, 2.8 and 5.1 KB).
const NOTES: [&str; 3] = [
    "Import notes/Import CSV files.md",
    "Getting started/Import notes.md",
    "Editing and formatting/Editing shortcuts.md",
];

/// Start-up target: median time to the `initialize` response, ms.
const STARTUP_TARGET_MS: f64 = 50.0;
/// Round-trip target: median `read_note`, ms.
const READ_NOTE_TARGET_MS: f64 = 2.0;

/// The benchmark's options.
#[derive(Debug, Parser)]
struct Args {
    /// The vault to serve.
    #[arg(long, default_value = "../shared/vaults/obsidian-help-en")]
    vault: PathBuf,
    /// The obsidian-tc binary (else OBSIDIAN_TC_BIN, else `obsidian-tc` next to this
    /// program).
    #[arg(long)]
    bin: Option<PathBuf>,
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
    if !args.vault.is_dir() {
        println!(
            "bench_server: skipped, the vault {} is absent",
            args.vault.display()
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
    let bin = product(args.bin.clone())?;
    let empty = program(
        args.empty_server.clone(),
        "empty_mcp_server",
        "-p bench --bin empty_mcp_server",
    )?;
    let vault = std::fs::canonicalize(&args.vault)
        .map_err(|e| format!("cannot resolve {}: {e}", args.vault.display()))?;
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

/// `obsidian-tc <vault> --cache-dir <cache>` (stdio), or `serve --http --port <port>`, with
/// embeddings off (`OBSIDIAN_TC_EMBEDDINGS_PROVIDER=none`): a model loading or embedding in
/// the background would take the cores the round trips are timed on (`bench_first_run`
/// measures that).
fn obsidian_tc(bin: &Path, vault: &Path, cache: &Path, http_port: Option<u16>) -> Command {
    let mut command = Command::new(bin);
    command.env("OBSIDIAN_TC_EMBEDDINGS_PROVIDER", "none");
    if let Some(port) = http_port {
        command.args(["serve", "--http", "--port", &port.to_string()]);
    }
    command.arg(vault).arg("--cache-dir").arg(cache);
    command
}

/// `command` with the rate limit off (`OBSIDIAN_TC_THROTTLE_ENABLED=false`): thousands of
/// calls a second would otherwise meet `throttled` after the burst of 100.
fn unthrottled(mut command: Command) -> Command {
    command.env("OBSIDIAN_TC_THROTTLE_ENABLED", "false");
    command
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

/// A free loopback port (released before the server binds it).
fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|e| format!("cannot find a free port: {e}"))
}

/// A server child process, killed when dropped.
struct ServerProcess(std::process::Child);

impl ServerProcess {
    fn spawn(mut command: Command) -> Result<ServerProcess, String> {
        command
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map(ServerProcess)
            .map_err(|e| format!("cannot start {command:?}: {e}"))
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
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
