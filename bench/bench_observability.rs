//! What observability costs a call (issue 24, must-show 4): the `read_note` round trip over
//! stdio with Prometheus metrics off, with metrics on (the default), and with metrics on and
//! every call's spans exported over OTLP/HTTP, all in the same run.
//!
//! ```text
//! cargo build --release -p obsidian-tc --bin obsidian-tc
//! cargo build --release -p bench --bin bench_observability
//! target/release/bench_observability [--vault ../shared/vaults/obsidian-help-en] \
//!     [--bin target/release/obsidian-tc] [--blocks 5] [--calls 400] [--check]
//! ```
//!
//! Three servers run side by side on the same vault, each with its own cache:
//! `OBSIDIAN_TC_METRICS_ENABLED=false` (the baseline), the default, and the default with
//! `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at a receiver this program starts (it answers every
//! `POST /v1/traces` with 200 and counts the requests: a run where no span arrived is an
//! error, not a fast result). Each block times `--calls` `read_note`s on every server, one
//! server after the other in a rotating order, so that the machine's noise falls on all three
//! alike; a block's ratio is a server's median over the baseline's median, and the reported
//! ratio is the median of the blocks' ratios. Targets: metrics ≤ 1.05x, metrics and export
//! ≤ 1.10x. `--check` exits non-zero when one is missed. Skips (exit 0) when the vault is
//! absent.

use std::net::SocketAddr;
use std::process::{Command, ExitCode};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use clap::Parser;
use serde_json::json;

use bench::programs::{Served, product};
use bench::roundtrip::NOTES;
use bench::rpc::{Session, expect_success, handshake};
use bench::server::{obsidian_tc, unthrottled};
use bench::stats::summarize;
use bench::stdio_client::StdioSession;

/// The most a server with metrics on may take over the baseline (median of block ratios).
const METRICS_TARGET: f64 = 1.05;
/// The most a server with metrics on and OTLP export may take over the baseline.
const EXPORT_TARGET: f64 = 1.10;

/// The benchmark's options.
#[derive(Debug, Parser)]
struct Args {
    /// The vault and the binary.
    #[command(flatten)]
    served: Served,
    /// Timed blocks; each gives one ratio per server.
    #[arg(long, default_value_t = 5)]
    blocks: usize,
    /// Timed `read_note` calls per server in each block.
    #[arg(long, default_value_t = 400)]
    calls: usize,
    /// Exit non-zero when a target is missed.
    #[arg(long)]
    check: bool,
}

/// One server of the comparison.
struct Subject {
    name: &'static str,
    session: StdioSession,
    /// Every timed round trip, ms.
    samples: Vec<f64>,
    /// The median of each block, ms.
    block_medians: Vec<f64>,
    next_id: u64,
}

impl Subject {
    fn start(name: &'static str, command: Command) -> Result<Subject, String> {
        let mut session = StdioSession::spawn(command)?;
        handshake(&mut session)?;
        Ok(Subject {
            name,
            session,
            samples: Vec::new(),
            block_medians: Vec::new(),
            next_id: 10,
        })
    }

    /// `calls` round trips of `read_note`; returns their times in ms.
    fn read_notes(&mut self, calls: usize) -> Result<Vec<f64>, String> {
        let mut times = Vec::with_capacity(calls);
        for call in 0..calls {
            self.next_id += 1;
            let note = NOTES[call % NOTES.len()];
            let (took, response) = self.session.request(
                self.next_id,
                "tools/call",
                json!({"name": "read_note", "arguments": {"path": note}}),
            )?;
            expect_success(&response, &format!("read_note {note} on {}", self.name))?;
            times.push(took.as_secs_f64() * 1e3);
        }
        Ok(times)
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    if !args.served.vault.is_dir() {
        println!(
            "bench_observability: skipped, the vault {} is absent",
            args.served.vault.display()
        );
        return ExitCode::SUCCESS;
    }
    match run(&args) {
        Ok(missed) if args.check && missed > 0 => {
            eprintln!("bench_observability: {missed} target(s) missed");
            ExitCode::FAILURE
        }
        Ok(_) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bench_observability: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the blocks and prints the table; returns how many targets were missed.
fn run(args: &Args) -> Result<usize, String> {
    let bin = product(args.served.bin.clone())?;
    let vault = std::fs::canonicalize(&args.served.vault)
        .map_err(|e| format!("cannot resolve {}: {e}", args.served.vault.display()))?;
    let temp = tempfile::tempdir().map_err(|e| format!("cannot make a temp folder: {e}"))?;
    let receiver = Receiver::start()?;
    let server =
        |cache: &str| unthrottled(obsidian_tc(&bin, &vault, &temp.path().join(cache), None));
    let mut off = server("off");
    off.env("OBSIDIAN_TC_METRICS_ENABLED", "false");
    let mut exported = server("exported");
    exported.env(
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        format!("http://{}", receiver.address),
    );
    let mut subjects = [
        Subject::start("metrics off, no export (baseline)", without_otel(off))?,
        Subject::start("metrics on", without_otel(server("metrics")))?,
        Subject::start("metrics on, OTLP export", exported)?,
    ];
    // One untimed block warms the page cache, the caches of the note reads and the exporter.
    for subject in subjects.iter_mut() {
        subject.read_notes(args.calls.min(100))?;
    }
    for block in 0..args.blocks {
        eprintln!(
            "block {}/{}: {} calls per server",
            block + 1,
            args.blocks,
            args.calls
        );
        for turn in 0..subjects.len() {
            let subject = &mut subjects[(block + turn) % 3];
            let times = subject.read_notes(args.calls)?;
            subject.block_medians.push(median(&times));
            subject.samples.extend(times);
        }
    }
    // The batch exporter sends on a timer: give it the time to send what the last block made.
    std::thread::sleep(Duration::from_secs(6));
    let exports = receiver.requests.load(Ordering::Relaxed);
    if exports == 0 {
        return Err("the OTLP receiver got no request: the export is not on".to_owned());
    }
    Ok(report(
        &subjects,
        exports,
        receiver.bytes.load(Ordering::Relaxed),
    ))
}

/// The command without any `OTEL_*` variable of this process's environment.
fn without_otel(mut command: Command) -> Command {
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("OTEL_") {
            command.env_remove(name);
        }
    }
    command
}

/// The median of `values` (nearest rank, as [`summarize`]).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[(sorted.len() - 1) / 2]
}

/// Prints one line per server; returns how many targets were missed.
fn report(subjects: &[Subject; 3], exports: u64, bytes: u64) -> usize {
    println!(
        "{:<36} {:>8} {:>8} {:>8}  {:>14}  {:<8}  result",
        "read_note round trip (stdio)", "p50 ms", "p90 ms", "p99 ms", "ratio (blocks)", "target"
    );
    let baseline = &subjects[0];
    let mut missed = 0;
    for (subject, target) in subjects
        .iter()
        .zip([None, Some(METRICS_TARGET), Some(EXPORT_TARGET)])
    {
        let samples: Vec<Duration> = subject
            .samples
            .iter()
            .map(|ms| Duration::from_secs_f64(ms / 1e3))
            .collect();
        let Some(summary) = summarize(&samples) else {
            continue;
        };
        let ratios: Vec<f64> = subject
            .block_medians
            .iter()
            .zip(&baseline.block_medians)
            .map(|(own, base)| own / base)
            .collect();
        let ratio = median(&ratios);
        let (target_cell, result) = match target {
            None => ("-".to_owned(), "baseline"),
            Some(target) if ratio <= target => (format!("<= {target:.2}x"), "ok"),
            Some(target) => {
                missed += 1;
                (format!("<= {target:.2}x"), "MISSED")
            }
        };
        println!(
            "{:<36} {:>8.3} {:>8.3} {:>8.3}  {:>13.3}x  {:<8}  {result}",
            subject.name, summary.median, summary.p90, summary.p99, ratio, target_cell
        );
    }
    println!("OTLP receiver: {exports} export request(s), {bytes} bytes of spans");
    missed
}

/// A local OTLP/HTTP endpoint that accepts every trace export and counts it.
struct Receiver {
    address: SocketAddr,
    requests: Arc<AtomicU64>,
    bytes: Arc<AtomicU64>,
}

impl Receiver {
    /// Binds a free loopback port and serves `POST /v1/traces` on a thread of its own.
    fn start() -> Result<Receiver, String> {
        let listener = std::net::TcpListener::bind("127.0.0.1:0")
            .map_err(|e| format!("cannot bind the OTLP receiver: {e}"))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("cannot set up the OTLP receiver: {e}"))?;
        let address = listener
            .local_addr()
            .map_err(|e| format!("cannot read the OTLP receiver's address: {e}"))?;
        let requests = Arc::new(AtomicU64::new(0));
        let bytes = Arc::new(AtomicU64::new(0));
        let counters = (Arc::clone(&requests), Arc::clone(&bytes));
        std::thread::spawn(move || serve(listener, counters));
        Ok(Receiver {
            address,
            requests,
            bytes,
        })
    }
}

/// Serves the receiver until the process ends.
fn serve(listener: std::net::TcpListener, (requests, bytes): (Arc<AtomicU64>, Arc<AtomicU64>)) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("bench_observability: the OTLP receiver cannot start: {e}");
            return;
        }
    };
    runtime.block_on(async move {
        let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
            eprintln!("bench_observability: the OTLP receiver cannot listen");
            return;
        };
        let app = axum::Router::new().route(
            "/v1/traces",
            axum::routing::post(move |body: axum::body::Bytes| async move {
                requests.fetch_add(1, Ordering::Relaxed);
                bytes.fetch_add(body.len() as u64, Ordering::Relaxed);
                (
                    [("content-type", "application/x-protobuf")],
                    Vec::<u8>::new(),
                )
            }),
        );
        if let Err(e) = axum::serve(listener, app).await {
            eprintln!("bench_observability: the OTLP receiver stopped: {e}");
        }
    });
}
