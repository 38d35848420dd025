//! Load and soak over Streamable HTTP (issue 21, must-show 3 and 4).
//!
//! ```text
//! cargo build --release -p obsidian-tc --bin obsidian-tc
//! cargo build --release -p bench --bin bench_load
//! target/release/bench_load [--vault ../shared/vaults/obsidian-help-en] [--bin …]
//!     [--clients 50] [--calls 1000] [--small] [--check]
//! target/release/bench_load --soak 30 [--soak-clients 10] [--rate 10] [--no-appends]
//! ```
//!
//! The vault is copied to a temp folder (with a `Load/` folder of notes to append to) and
//! served by the release binary (`serve --http`, embeddings and the rate limit off). After the
//! index is built:
//!
//! - **load**: a same-run baseline first (one client, 2025-11-25, the same mix and number of
//!   calls), then `--clients` concurrent clients, half on 2025-11-25 sessions and half on
//!   stateless 2026-07-28 (`server/discover`, the per-request headers and `_meta`), each
//!   `--calls` calls of the mix in `bench_support::load_agent` (40 % `read_note`, 20 %
//!   `search_vault`, 20 % `list_notes`/`list_tags`, 10 % `append_note` to its own note,
//!   10 % to the one shared note). `--small` is 8 clients × 150 calls (CI).
//! - **soak** (`--soak <minutes>`): `--soak-clients` clients at `--rate` calls a second each
//!   for that long; appends go to a new own and shared note every minute (a daily note, as
//!   it were). The server's RSS and open file descriptors (`/proc/<pid>`) are sampled once
//!   the warm-up (a tenth of the run, at most a minute) is over, every minute, and at the
//!   end; growth over 10 % fails.
//!
//! Checks, both modes: 0 failed calls, and every append that succeeded is in its note once,
//! in the agent's order (own notes and the shared note). Latency per class: client-side
//! (µs clock, the whole HTTP round trip) and server-side from the audit log (`event_log`
//! `duration_ms`: the dispatch pipeline from arrival to result, whole milliseconds, queue
//! waits included). `--check` also fails when the server-side p99 of a read class (read,
//! search, list) is over 20 ms. Skips (exit 0) when the vault is absent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;

use bench::http_client::HttpSession;
use bench::load_agent::{
    Agent, AgentReport, Class, Corpus, LOAD_FOLDER, LineCheck, Span, append_line, check_lines,
    own_note, shared_note,
};
use bench::process_stats::{ProcessSample, growth_percent, sample};
use bench::programs::{Served, product};
use bench::rpc::{Session, expect_success, handshake};
use bench::server::{ServerProcess, free_port, obsidian_tc, unthrottled};
use bench::stats::summarize;

/// Server-side p99 target of the read classes, ms.
const READ_P99_TARGET_MS: f64 = 20.0;
/// Allowed growth of RSS and open descriptors over a soak, percent.
const SOAK_GROWTH_LIMIT: f64 = 10.0;
/// The search queries: words of the Obsidian help.
const QUERIES: [&str; 8] = [
    "link",
    "canvas",
    "plugin",
    "sync",
    "template",
    "graph view",
    "daily notes",
    "properties",
];
/// The read tools of the audit log (server-side p99 target).
const READ_TOOLS: [&str; 4] = ["read_note", "search_vault", "list_notes", "list_tags"];

/// The benchmark's options.
#[derive(Debug, Parser)]
struct Args {
    /// The vault (copied first by bench_load) and the binary.
    #[command(flatten)]
    served: Served,
    /// Concurrent clients of the load run.
    #[arg(long, default_value_t = 50)]
    clients: usize,
    /// Calls per client of the load run (and of the baseline).
    #[arg(long, default_value_t = 1000)]
    calls: usize,
    /// The CI size: 8 clients × 150 calls.
    #[arg(long)]
    small: bool,
    /// Run a soak of this many minutes instead of the load run.
    #[arg(long)]
    soak: Option<f64>,
    /// Clients of the soak.
    #[arg(long, default_value_t = 10)]
    soak_clients: usize,
    /// Calls a second per soak client.
    #[arg(long, default_value_t = 10.0)]
    rate: f64,
    /// Fail when a read class's server-side p99 is over 20 ms.
    #[arg(long)]
    check: bool,
    /// No appends: each append of the mix is a `read_note` instead, so the vault and the
    /// index do not grow (tells data growth from memory the server keeps in a soak).
    #[arg(long)]
    no_appends: bool,
}

fn main() -> ExitCode {
    let mut args = Args::parse();
    if args.small {
        (args.clients, args.calls) = (8, 150);
    }
    if !args.served.vault.is_dir() {
        println!(
            "bench_load: skipped, the vault {} is absent",
            args.served.vault.display()
        );
        return ExitCode::SUCCESS;
    }
    match run(&args) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(problems) => {
            eprintln!("bench_load: {problems} check(s) failed");
            ExitCode::FAILURE
        }
        Err(message) => {
            eprintln!("bench_load: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the load or the soak; returns how many checks failed.
fn run(args: &Args) -> Result<usize, String> {
    let bin = product(args.served.bin.clone())?;
    let temp = tempfile::tempdir().map_err(|e| format!("cannot make a temp folder: {e}"))?;
    let vault = temp.path().join("vault");
    copy_vault(&args.served.vault, &vault)?;
    let corpus = corpus(&vault)?;
    let soak = args
        .soak
        .map(|minutes| Duration::from_secs_f64(minutes * 60.0));
    let clients = if soak.is_some() {
        args.soak_clients
    } else {
        args.clients
    };
    let generations = soak.map_or(1, |span| span.as_secs().div_ceil(60) + 1);
    prepare_notes(&vault, clients + 1, generations)?;
    let cache = temp.path().join("cache");
    let port = free_port()?;
    let server = ServerProcess::spawn(unthrottled(obsidian_tc(&bin, &vault, &cache, Some(port))))?;
    wait_for_index(port)?;
    let audit = cache.join("cache.db");
    match soak {
        None => load(args, port, &corpus, &vault, &audit),
        Some(span) => soak_run(args, port, &corpus, &vault, span, server.pid()),
    }
}

/// The load run: the single-client baseline, then the concurrent clients.
fn load(
    args: &Args,
    port: u16,
    corpus: &Corpus,
    vault: &Path,
    audit: &Path,
) -> Result<usize, String> {
    eprintln!("baseline: 1 client x {} calls", args.calls);
    let baseline_agent = Agent {
        index: args.clients,
        stateless: false,
        corpus,
        appends: !args.no_appends,
    };
    let first = last_event_id(audit)?;
    let baseline = baseline_agent.run(port, Span::Calls(args.calls))?;
    let middle = last_event_id(audit)?;
    eprintln!(
        "load: {} clients x {} calls (half 2025-11-25, half 2026-07-28)",
        args.clients, args.calls
    );
    let started = Instant::now();
    let reports = run_agents(args, args.clients, port, corpus, Span::Calls(args.calls))?;
    let wall = started.elapsed();
    let last = last_event_id(audit)?;
    let mut all = reports;
    all.push((args.clients, baseline));
    let (check, problems) = verify(vault, &all, 1)?;
    let baseline = all.pop().map(|(_, report)| report).unwrap_or_default();
    let reports: Vec<AgentReport> = all.into_iter().map(|(_, report)| report).collect();
    let failed: usize = reports.iter().map(|r| r.failed).sum::<usize>() + baseline.failed;
    let calls: usize = reports.iter().map(calls_of).sum();
    println!(
        "load: {} clients x {} calls = {} calls in {:.1} s ({:.0} calls/s); failed calls: {failed}",
        args.clients,
        args.calls,
        calls + failed,
        wall.as_secs_f64(),
        (calls + failed) as f64 / wall.as_secs_f64()
    );
    print_failures(&reports);
    println!(
        "appends checked: {} lines, lost {}, duplicated {}, out of order {}",
        check.expected, check.lost, check.duplicated, check.out_of_order
    );
    println!("\nclient-side round trip (ms): p50 / p99, load vs single-client baseline");
    for class in Class::ALL {
        let loaded: Vec<Duration> = reports
            .iter()
            .flat_map(|r| r.samples.get(&class).cloned().unwrap_or_default())
            .collect();
        let alone = baseline.samples.get(&class).cloned().unwrap_or_default();
        println!(
            "  {:<30} {:>18}   baseline {:>18}",
            class.name(),
            cell(&loaded),
            cell(&alone)
        );
    }
    println!(
        "\nserver-side (audit log duration_ms, whole ms): p50 / p99 (count), load vs baseline"
    );
    let loaded = server_durations(audit, middle, last)?;
    let alone = server_durations(audit, first, middle)?;
    let mut slow = 0;
    for (tool, durations) in &loaded {
        let summary = summarize(durations);
        let target = READ_TOOLS.contains(&tool.as_str());
        let verdict = match summary {
            Some(s) if target && s.p99 > READ_P99_TARGET_MS => {
                slow += 1;
                "over the 20 ms read target"
            }
            Some(_) if target => "within the 20 ms read target",
            _ => "",
        };
        println!(
            "  {:<30} {:>18} ({:>6})   baseline {:>18}   {verdict}",
            tool,
            cell(durations),
            durations.len(),
            cell(alone.get(tool).map(Vec::as_slice).unwrap_or_default()),
        );
    }
    let errors = server_errors(audit, middle, last)?;
    println!("server-side error rows in the load: {errors}");
    let mut failed_checks = problems + usize::from(failed > 0) + usize::from(errors > 0);
    if args.check {
        failed_checks += slow;
    }
    Ok(failed_checks)
}

/// The soak: paced clients for `span`, the server's RSS and descriptors sampled.
fn soak_run(
    args: &Args,
    port: u16,
    corpus: &Corpus,
    vault: &Path,
    span: Duration,
    pid: u32,
) -> Result<usize, String> {
    let start = Instant::now();
    let until = start + span;
    let warmup = (span / 10).min(Duration::from_secs(60));
    eprintln!(
        "soak: {} clients x {} calls/s for {:.1} min (warm-up {} s)",
        args.soak_clients,
        args.rate,
        span.as_secs_f64() / 60.0,
        warmup.as_secs()
    );
    let paced = Span::Paced {
        start,
        until,
        per_second: args.rate,
        generation: Duration::from_secs(60),
    };
    let (reports, samples) = std::thread::scope(|scope| {
        let agents = scope.spawn(move || run_agents(args, args.soak_clients, port, corpus, paced));
        let samples = sample_during(pid, start, warmup, until);
        let reports = agents
            .join()
            .map_err(|_| "an agent thread panicked".to_owned());
        (reports, samples)
    });
    let reports = reports??;
    let samples = samples?;
    let (check, problems) = verify(vault, &reports, span.as_secs().div_ceil(60) + 1)?;
    let reports: Vec<AgentReport> = reports.into_iter().map(|(_, report)| report).collect();
    let failed: usize = reports.iter().map(|r| r.failed).sum();
    let calls: usize = reports.iter().map(calls_of).sum();
    println!(
        "soak: {} clients, {:.1} min, {} calls, failed calls: {failed}",
        args.soak_clients,
        span.as_secs_f64() / 60.0,
        calls + failed
    );
    print_failures(&reports);
    println!(
        "appends checked: {} lines, lost {}, duplicated {}, out of order {}",
        check.expected, check.lost, check.duplicated, check.out_of_order
    );
    let (first, last) = (samples[0], samples[samples.len() - 1]);
    let rss = growth_percent(first.rss_kib, last.rss_kib);
    let fds = growth_percent(first.fds, last.fds);
    println!(
        "RSS: {} KiB after warm-up, {} KiB at the end ({rss:+.1} %); open descriptors: {} -> {} ({fds:+.1} %); limit +{SOAK_GROWTH_LIMIT} %",
        first.rss_kib, last.rss_kib, first.fds, last.fds
    );
    for class in Class::ALL {
        let all: Vec<Duration> = reports
            .iter()
            .flat_map(|r| r.samples.get(&class).cloned().unwrap_or_default())
            .collect();
        println!("  client-side {:<30} {:>18}", class.name(), cell(&all));
    }
    Ok(problems
        + usize::from(failed > 0)
        + usize::from(rss > SOAK_GROWTH_LIMIT)
        + usize::from(fds > SOAK_GROWTH_LIMIT))
}

/// Samples `pid` when the warm-up is over, every minute (printed), and at `until`.
fn sample_during(
    pid: u32,
    start: Instant,
    warmup: Duration,
    until: Instant,
) -> Result<Vec<ProcessSample>, String> {
    let mut samples = Vec::new();
    let mut next = start + warmup;
    loop {
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
        let now = sample(pid)?;
        eprintln!(
            "  t={:>5.0} s  RSS {} KiB  fds {}",
            start.elapsed().as_secs_f64(),
            now.rss_kib,
            now.fds
        );
        samples.push(now);
        if next >= until {
            return Ok(samples);
        }
        next = (next + Duration::from_secs(60)).min(until);
    }
}

/// Runs `clients` agents at once (odd ones on 2026-07-28); each report with its agent.
fn run_agents(
    args: &Args,
    clients: usize,
    port: u16,
    corpus: &Corpus,
    span: Span,
) -> Result<Vec<(usize, AgentReport)>, String> {
    let appends = !args.no_appends;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..clients)
            .map(|index| {
                scope.spawn(move || {
                    let agent = Agent {
                        index,
                        stateless: index % 2 == 1,
                        corpus,
                        appends,
                    };
                    agent.run(port, span).map(|report| (index, report))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .map_err(|_| "an agent thread panicked".to_owned())?
            })
            .collect()
    })
}

fn calls_of(report: &AgentReport) -> usize {
    report.samples.values().map(Vec::len).sum()
}

/// Checks every agent's own notes and its lines in the shared notes (over `generations`);
/// returns the counts and 1 when something is off.
fn verify(
    vault: &Path,
    reports: &[(usize, AgentReport)],
    generations: u64,
) -> Result<(LineCheck, usize), String> {
    let read_all = |name: &dyn Fn(u64) -> String| -> Result<String, String> {
        let mut text = String::new();
        for generation in 0..generations {
            let path = vault.join(name(generation));
            text.push_str(
                &std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
            );
        }
        Ok(text)
    };
    let shared = read_all(&shared_note)?;
    let mut total = LineCheck::default();
    for (index, report) in reports {
        let own = read_all(&|generation| own_note(*index, generation))?;
        for (class, text) in [(Class::AppendOwn, &own), (Class::AppendShared, &shared)] {
            let lines: Vec<String> = report
                .appended
                .get(&class)
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .map(|(n, _)| append_line(class, *index, *n))
                .collect();
            total.add(check_lines(text, &lines));
        }
    }
    let problems = usize::from(!total.clean());
    Ok((total, problems))
}

fn print_failures(reports: &[AgentReport]) {
    for message in reports.iter().flat_map(|r| &r.messages).take(5) {
        println!("  failure: {message}");
    }
}

/// `p50 / p99` of `samples` in ms, or `-`.
fn cell(samples: &[Duration]) -> String {
    match summarize(samples) {
        Some(s) => format!("{:.3} / {:.3}", s.median, s.p99),
        None => "-".to_owned(),
    }
}

/// Copies the vault at `from` to `to` (without `.git` and `.trash`).
fn copy_vault(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("cannot list {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list {}: {e}", from.display()))?;
        let name = entry.file_name();
        if name == ".git" || name == ".trash" {
            continue;
        }
        let (source, target) = (entry.path(), to.join(&name));
        let kind = entry
            .file_type()
            .map_err(|e| format!("cannot stat {}: {e}", source.display()))?;
        if kind.is_dir() {
            copy_vault(&source, &target)?;
        } else if kind.is_file() {
            std::fs::copy(&source, &target)
                .map_err(|e| format!("cannot copy {}: {e}", source.display()))?;
        }
    }
    Ok(())
}

/// The notes to read (every Markdown file of the copy) and the folders to list.
fn corpus(vault: &Path) -> Result<Corpus, String> {
    let mut notes = Vec::new();
    let mut folders = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        let entries = std::fs::read_dir(vault.join(&relative))
            .map_err(|e| format!("cannot list {}: {e}", relative.display()))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let path = relative.join(&name);
            let text = path.to_string_lossy().into_owned();
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                folders.push(text);
                pending.push(path);
            } else if name.ends_with(".md") {
                notes.push(text);
            }
        }
    }
    notes.sort();
    folders.sort();
    if notes.is_empty() || folders.is_empty() {
        return Err(format!("{} has no notes or no folders", vault.display()));
    }
    Ok(Corpus {
        notes,
        folders,
        queries: QUERIES.to_vec(),
    })
}

/// Creates `Load/`: a shared note and one own note per agent (`agents`, the baseline's
/// included) for each generation.
fn prepare_notes(vault: &Path, agents: usize, generations: u64) -> Result<(), String> {
    let folder = vault.join(LOAD_FOLDER);
    std::fs::create_dir_all(&folder).map_err(|e| format!("cannot create {LOAD_FOLDER}: {e}"))?;
    for generation in 0..generations {
        let mut notes = vec![(shared_note(generation), "# Shared\n".to_owned())];
        notes.extend(
            (0..agents).map(|agent| (own_note(agent, generation), format!("# Agent {agent}\n"))),
        );
        for (path, text) in notes {
            std::fs::write(vault.join(&path), text)
                .map_err(|e| format!("cannot write {path}: {e}"))?;
        }
    }
    Ok(())
}

/// Waits until the server answers and its first scan is done (`get_index_status`).
fn wait_for_index(port: u16) -> Result<(), String> {
    let mut session = HttpSession::connect(port, "/mcp", Duration::from_secs(30))?;
    handshake(&mut session)?;
    let deadline = Instant::now() + Duration::from_secs(300);
    for id in 1.. {
        let params = serde_json::json!({"name": "get_index_status", "arguments": {}});
        let (_, response) = session.request(id, "tools/call", params)?;
        expect_success(&response, "get_index_status")?;
        let status = &response["result"]["structuredContent"];
        if status["scanned"] == true && status["scanning"] == false {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(format!("the index is not ready after 300 s: {status}"));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Ok(())
}

fn open_audit(audit: &Path) -> Result<rusqlite::Connection, String> {
    rusqlite::Connection::open_with_flags(audit, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| format!("cannot open {}: {e}", audit.display()))
}

/// The id of the last audit row so far.
fn last_event_id(audit: &Path) -> Result<i64, String> {
    open_audit(audit)?
        .query_row("SELECT COALESCE(MAX(id), 0) FROM event_log", [], |row| {
            row.get(0)
        })
        .map_err(|e| format!("cannot read the audit log: {e}"))
}

/// Server-side durations of the calls logged after row `after` up to row `upto`, by tool.
fn server_durations(
    audit: &Path,
    after: i64,
    upto: i64,
) -> Result<BTreeMap<String, Vec<Duration>>, String> {
    let connection = open_audit(audit)?;
    let mut statement = connection
        .prepare("SELECT tool, duration_ms FROM event_log WHERE id > ?1 AND id <= ?2")
        .map_err(|e| format!("cannot read the audit log: {e}"))?;
    let rows = statement
        .query_map([after, upto], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
        })
        .map_err(|e| format!("cannot read the audit log: {e}"))?;
    let mut out: BTreeMap<String, Vec<Duration>> = BTreeMap::new();
    for row in rows {
        let (tool, ms) = row.map_err(|e| format!("cannot read the audit log: {e}"))?;
        out.entry(tool)
            .or_default()
            .push(Duration::from_millis(ms.max(0) as u64));
    }
    Ok(out)
}

/// Error rows logged after row `after` up to row `upto`.
fn server_errors(audit: &Path, after: i64, upto: i64) -> Result<i64, String> {
    open_audit(audit)?
        .query_row(
            "SELECT COUNT(*) FROM event_log WHERE id > ?1 AND id <= ?2 AND outcome = 'error'",
            [after, upto],
            |row| row.get(0),
        )
        .map_err(|e| format!("cannot read the audit log: {e}"))
}
