//! Several obsidian-tc processes on one vault (issue 32): each MCP client starts its own server,
//! and a write that answered success must never be lost to another process's write.
//!
//! ```text
//! cargo build --release -p obsidian-tc --bin obsidian-tc
//! cargo build --release -p bench --bin bench_processes
//! target/release/bench_processes [--processes 4] [--calls 50] [--rounds 20] [--kills 5]
//!     [--bin …] [--baseline-bin …] [--check]
//! ```
//!
//! - **Writers**: each round starts `--processes` stdio servers of the release binary on a
//!   fresh vault, once with one cache folder for all of them and once with a cache folder each
//!   (the locks live in the vault, so both must hold). Every process then makes, all at once,
//!   `--calls` calls of each of four read-modify-writes of shared notes: `append_note` to
//!   `Log.md`, `add_observation` to the entity `Shared`, `patch_note` of its own heading in
//!   `Sections.md` (the section's body: every line so far), and `update_frontmatter` merging
//!   its own list property into `Props.md`. Checks: 0 refused calls, and every call that
//!   answered success is in its note exactly once, in its process's order.
//! - **Killed holder** (`--kills` times): a server is stopped (SIGSTOP, every thread of it
//!   seen stopped) while its appends hold a lock of the vault (read from `/proc/locks`), a
//!   second server's append to the same note then waits; the holder is killed (SIGKILL) and
//!   the time from the kill to the waiting append's answer is measured: the lock goes with
//!   the process.
//! - **Cost**: `append_note` p50 from one client, and from each of `--processes` clients at
//!   once; with `--baseline-bin` (an older build) the one-client p50 of that binary too, in
//!   the same run, interleaved.
//!
//! `--check` fails the run on any lost, duplicated, reordered or refused write, a waiting
//! append answered while the holder was stopped, or a killed holder that blocks the waiting
//! append for more than a second.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use bench::process_stats::all_threads_stopped;
use bench::programs::product;
use bench::rpc::{Session, expect_success, handshake};
use bench::server::{obsidian_tc, unthrottled};
use bench::stats::summarize;
use bench::stdio_client::StdioSession;
use clap::Parser;
use serde_json::{Value, json};

/// How long the waiting append may take after the holder was killed, with `--check`.
const KILL_RELEASE_LIMIT: Duration = Duration::from_secs(1);

/// The benchmark's options.
#[derive(Debug, Parser)]
struct Args {
    /// Server processes on the vault at once.
    #[arg(long, default_value_t = 4)]
    processes: usize,
    /// Calls of each kind each process makes per round.
    #[arg(long, default_value_t = 50)]
    calls: usize,
    /// Rounds, each with one shared cache folder and with a cache folder per process.
    #[arg(long, default_value_t = 20)]
    rounds: usize,
    /// Times a lock holder is stopped, a second server made to wait, and the holder killed.
    #[arg(long, default_value_t = 5)]
    kills: usize,
    /// The product binary (default: the release build beside this program).
    #[arg(long)]
    bin: Option<PathBuf>,
    /// An older build whose one-client `append_note` p50 is measured in the same run.
    #[arg(long)]
    baseline_bin: Option<PathBuf>,
    /// Fail on any lost, duplicated, reordered or refused write, or a slow lock release.
    #[arg(long)]
    check: bool,
}

/// The four read-modify-writes each process makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Append,
    Observation,
    Patch,
    Frontmatter,
}

const KINDS: [Kind; 4] = [
    Kind::Append,
    Kind::Observation,
    Kind::Patch,
    Kind::Frontmatter,
];

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Append => "append",
            Kind::Observation => "fact",
            Kind::Patch => "patch",
            Kind::Frontmatter => "fm",
        }
    }

    /// The note whose text holds this kind's writes.
    fn note(self) -> &'static str {
        match self {
            Kind::Append => "Log.md",
            Kind::Observation => "Memory/Shared.md",
            Kind::Patch => "Sections.md",
            Kind::Frontmatter => "Props.md",
        }
    }
}

/// Process `p`'s name in the notes.
fn writer(p: usize) -> String {
    format!("w{p:02}")
}

/// The text call `i` of process `p` writes for `kind` (fixed width: no token is part of another).
fn token(p: usize, kind: Kind, i: usize) -> String {
    format!("{}-{}-{i:03}", writer(p), kind.name())
}

/// The `tools/call` parameters of call `i` of process `p` for `kind`.
fn call_params(p: usize, kind: Kind, i: usize) -> Value {
    let (name, arguments) = match kind {
        Kind::Append => (
            "append_note",
            json!({"path": "Log.md", "content": token(p, kind, i)}),
        ),
        Kind::Observation => (
            "add_observation",
            json!({"name": "Shared", "text": token(p, kind, i), "session": "bench"}),
        ),
        Kind::Patch => {
            let body: Vec<String> = (0..=i).map(|n| token(p, kind, n)).collect();
            (
                "patch_note",
                json!({"path": "Sections.md", "heading": writer(p), "content": body.join("\n") + "\n"}),
            )
        }
        Kind::Frontmatter => (
            "update_frontmatter",
            json!({"path": "Props.md", "mode": "merge", "properties": {writer(p): [token(p, kind, i)]}}),
        ),
    };
    json!({"name": name, "arguments": arguments})
}

/// A fresh vault with the four notes the writers share.
fn write_vault(vault: &Path, processes: usize) -> Result<(), String> {
    let write = |rel: &str, text: String| {
        let path = vault.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {parent:?}: {e}"))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("cannot write {path:?}: {e}"))
    };
    write("Log.md", "# Log\n".to_owned())?;
    let sections: String = (0..processes)
        .map(|p| format!("## {}\n\n", writer(p)))
        .collect();
    write("Sections.md", format!("# Sections\n\n{sections}"))?;
    write("Props.md", "---\ntitle: Props\n---\n# Props\n".to_owned())?;
    write(
        "Memory/Shared.md",
        "---\ntype: concept\n---\n# Shared\n\n## Observations\n\n".to_owned(),
    )
}

/// What one process did: the tokens of its successful calls by kind, refusals, append times.
#[derive(Debug, Default)]
struct Done {
    succeeded: Vec<(Kind, String)>,
    refused: Vec<String>,
    append_times: Vec<Duration>,
}

/// Process `p`'s calls, started together with the others at `start`.
fn drive(mut session: StdioSession, p: usize, calls: usize, start: &Barrier) -> Done {
    let mut done = Done::default();
    start.wait();
    let mut id = 10;
    for i in 0..calls {
        for step in 0..KINDS.len() {
            // Each process rotates through the kinds from its own place.
            let kind = KINDS[(p + i + step) % KINDS.len()];
            id += 1;
            match session.request(id, "tools/call", call_params(p, kind, i)) {
                Ok((took, response)) => match expect_success(&response, kind.name()) {
                    Ok(()) => {
                        done.succeeded.push((kind, token(p, kind, i)));
                        if kind == Kind::Append {
                            done.append_times.push(took);
                        }
                    }
                    Err(message) => done.refused.push(message),
                },
                Err(message) => done.refused.push(message),
            }
        }
    }
    let _ = session.close();
    done
}

/// What the notes hold against the successful calls.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    expected: usize,
    lost: usize,
    duplicated: usize,
    out_of_order: usize,
    refused: usize,
}

impl Tally {
    fn clean(&self) -> bool {
        self.lost + self.duplicated + self.out_of_order + self.refused == 0
    }

    fn add(&mut self, other: Tally) {
        self.expected += other.expected;
        self.lost += other.lost;
        self.duplicated += other.duplicated;
        self.out_of_order += other.out_of_order;
        self.refused += other.refused;
    }
}

/// Checks each token of `tokens` (one process's, one kind's, in call order) occurs in `text`
/// exactly once, after the one before it.
fn tally(text: &str, tokens: &[&str]) -> Tally {
    let mut out = Tally {
        expected: tokens.len(),
        ..Tally::default()
    };
    let mut last = None;
    for token in tokens {
        let found: Vec<usize> = text.match_indices(token).map(|(at, _)| at).collect();
        match found.first() {
            None => out.lost += 1,
            Some(&at) => {
                out.duplicated += usize::from(found.len() > 1);
                out.out_of_order += usize::from(last.is_some_and(|before| at < before));
                last = Some(at);
            }
        }
    }
    out
}

/// One round: `processes` servers write at once; the notes are then checked.
fn writers_round(
    bin: &Path,
    args: &Args,
    shared_cache: bool,
) -> Result<(Tally, Vec<Duration>), String> {
    let temp = tempfile::tempdir().map_err(|e| format!("cannot make a temp folder: {e}"))?;
    let vault = temp.path().join("vault");
    write_vault(&vault, args.processes)?;
    let mut sessions = Vec::new();
    for p in 0..args.processes {
        let cache = match shared_cache {
            true => temp.path().join("cache"),
            false => temp.path().join(format!("cache-{p}")),
        };
        let mut session = StdioSession::spawn(unthrottled(obsidian_tc(bin, &vault, &cache, None)))?;
        handshake(&mut session)?;
        sessions.push(session);
    }
    let start = Arc::new(Barrier::new(args.processes));
    let workers: Vec<_> = sessions
        .into_iter()
        .enumerate()
        .map(|(p, session)| {
            let start = Arc::clone(&start);
            let calls = args.calls;
            thread::spawn(move || drive(session, p, calls, &start))
        })
        .collect();
    let mut total = Tally::default();
    let mut append_times = Vec::new();
    for worker in workers {
        let done = worker.join().map_err(|_| "a writer thread panicked")?;
        for message in done.refused.iter().take(3) {
            eprintln!("refused: {message}");
        }
        total.refused += done.refused.len();
        append_times.extend(done.append_times);
        for kind in KINDS {
            let text = std::fs::read_to_string(vault.join(kind.note()))
                .map_err(|e| format!("cannot read {}: {e}", kind.note()))?;
            let tokens: Vec<&str> = done
                .succeeded
                .iter()
                .filter(|(k, _)| *k == kind)
                .map(|(_, t)| t.as_str())
                .collect();
            total.add(tally(&text, &tokens));
        }
    }
    Ok((total, append_times))
}

/// `append_note` times of one client alone on a fresh vault, `calls` calls.
fn one_client_appends(bin: &Path, calls: usize) -> Result<Vec<Duration>, String> {
    let temp = tempfile::tempdir().map_err(|e| format!("cannot make a temp folder: {e}"))?;
    let vault = temp.path().join("vault");
    write_vault(&vault, 1)?;
    let mut session = StdioSession::spawn(unthrottled(obsidian_tc(
        bin,
        &vault,
        &temp.path().join("cache"),
        None,
    )))?;
    handshake(&mut session)?;
    let mut times = Vec::new();
    for i in 0..calls {
        let (took, response) =
            session.request(10 + i as u64, "tools/call", call_params(0, Kind::Append, i))?;
        expect_success(&response, "append_note")?;
        // The first calls wait for the index of the new vault.
        if i >= 5 {
            times.push(took);
        }
    }
    session.close()?;
    Ok(times)
}

/// The pids holding a `flock` on the vault's lock files, from `/proc/locks`.
fn flock_holders(vault: &Path) -> Result<Vec<u32>, String> {
    use std::os::unix::fs::MetadataExt;
    let dir = vault.join(".obsidian-tc/locks");
    let mut inodes = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for entry in entries.flatten() {
            if let Ok(meta) = entry.metadata() {
                inodes.push(meta.ino());
            }
        }
    }
    let locks = std::fs::read_to_string("/proc/locks")
        .map_err(|e| format!("cannot read /proc/locks: {e}"))?;
    // `1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF`
    Ok(locks
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (kind, pid, device) = (fields.get(1)?, fields.get(4)?, fields.get(5)?);
            let inode: u64 = device.rsplit(':').next()?.parse().ok()?;
            (*kind == "FLOCK" && inodes.contains(&inode)).then(|| pid.parse().ok())?
        })
        .collect())
}

fn signal(pid: u32, name: &str) -> Result<(), String> {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .status()
        .map_err(|e| format!("cannot run kill: {e}"))?;
    status
        .success()
        .then_some(())
        .ok_or_else(|| format!("kill -{name} {pid} failed"))
}

/// Stops process `pid` (SIGSTOP) and waits until each of its threads has: a lock it is seen
/// holding before then may be released the next moment (an unlock or an fsync finishing on a
/// thread that has not taken the signal yet).
fn stop(pid: u32) -> Result<(), String> {
    signal(pid, "STOP")?;
    let deadline = Instant::now() + Duration::from_secs(10);
    while !all_threads_stopped(pid)? {
        if Instant::now() > deadline {
            return Err(format!("process {pid} did not stop 10 s after SIGSTOP"));
        }
        thread::sleep(Duration::from_micros(200));
    }
    Ok(())
}

/// A holder stopped with a lock, a waiter's append, the holder killed: the waiter's time
/// from the kill to its answer, and whether it had been waiting.
fn killed_holder(bin: &Path) -> Result<(Duration, bool), String> {
    let temp = tempfile::tempdir().map_err(|e| format!("cannot make a temp folder: {e}"))?;
    let vault = temp.path().join("vault");
    write_vault(&vault, 2)?;
    let cache = temp.path().join("cache");
    let mut holder = StdioSession::spawn(unthrottled(obsidian_tc(bin, &vault, &cache, None)))?;
    handshake(&mut holder)?;
    let mut waiter = StdioSession::spawn(unthrottled(obsidian_tc(bin, &vault, &cache, None)))?;
    handshake(&mut waiter)?;
    let (_, warm) = waiter.request(2, "tools/call", call_params(1, Kind::Append, 0))?;
    expect_success(&warm, "the waiter's first append")?;
    let holder_pid = holder.pid();
    // The holder appends without pause until it dies.
    let appending = thread::spawn(move || {
        for i in 0.. {
            if holder
                .request(
                    10 + i,
                    "tools/call",
                    call_params(0, Kind::Append, i as usize),
                )
                .is_err()
            {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        thread::sleep(Duration::from_millis(3));
        stop(holder_pid)?;
        if flock_holders(&vault)?.contains(&holder_pid) {
            break;
        }
        signal(holder_pid, "CONT")?;
        if Instant::now() > deadline {
            return Err("the holder was never stopped while holding a lock".to_owned());
        }
    }
    let (answer_tx, answer_rx) = std::sync::mpsc::channel();
    let waiting = thread::spawn(move || {
        let answer = waiter.request(3, "tools/call", call_params(1, Kind::Append, 1));
        let _ = answer_tx.send((Instant::now(), answer));
        let _ = waiter.close();
    });
    // The waiter has its request in; it must not be answered while the lock is held (an early
    // answer is kept: it is the one the waiter gives, and it counts as not held up).
    let early = answer_rx.recv_timeout(Duration::from_millis(500));
    let blocked = early.is_err();
    let killed_at = Instant::now();
    signal(holder_pid, "KILL")?;
    let (answered_at, answer) = early
        .or_else(|waiting| match waiting {
            RecvTimeoutError::Timeout => answer_rx.recv_timeout(Duration::from_secs(30)),
            disconnected => Err(disconnected),
        })
        .map_err(|error| match error {
            RecvTimeoutError::Timeout => {
                "the waiting append got no answer 30 s after the holder was killed"
            }
            RecvTimeoutError::Disconnected => "the waiting append's thread ended without an answer",
        })?;
    let (_, response) = answer?;
    expect_success(&response, "the waiting append")?;
    waiting.join().map_err(|_| "the waiter thread panicked")?;
    appending.join().map_err(|_| "the holder thread panicked")?;
    Ok((answered_at.saturating_duration_since(killed_at), blocked))
}

fn p50(times: &[Duration]) -> f64 {
    summarize(times).map_or(f64::NAN, |s| s.median)
}

fn run(args: &Args) -> Result<bool, String> {
    let bin = product(args.bin.clone())?;
    let mut clean = true;
    println!(
        "{} processes x {} calls of each of append_note, add_observation, patch_note, update_frontmatter, all at once",
        args.processes, args.calls
    );
    let mut under_load = Vec::new();
    for shared_cache in [true, false] {
        let mut total = Tally::default();
        let started = Instant::now();
        for round in 0..args.rounds {
            let (tally, times) = writers_round(&bin, args, shared_cache)?;
            if !tally.clean() {
                eprintln!("round {round}: {tally:?}");
            }
            total.add(tally);
            under_load.extend(times);
        }
        let caches = if shared_cache {
            "one cache folder"
        } else {
            "a cache folder each"
        };
        println!(
            "{caches:<20} {} rounds in {:.1} s: {} writes answered success, {} lost, {} duplicated, {} out of order, {} refused",
            args.rounds,
            started.elapsed().as_secs_f64(),
            total.expected,
            total.lost,
            total.duplicated,
            total.out_of_order,
            total.refused
        );
        clean &= total.clean();
    }
    let mut releases = Vec::new();
    let mut not_held_up = 0;
    for _ in 0..args.kills {
        let (release, blocked) = killed_holder(&bin)?;
        releases.push(release);
        not_held_up += usize::from(!blocked);
    }
    let slowest = releases.iter().max().copied().unwrap_or_default();
    println!(
        "killed holder, {} times: the waiting append was held up by the stopped holder {} times and answered {:.1} ms (median; slowest {:.1} ms) after the SIGKILL",
        args.kills,
        args.kills - not_held_up,
        p50(&releases),
        slowest.as_secs_f64() * 1e3
    );
    clean &= not_held_up == 0 && slowest <= KILL_RELEASE_LIMIT;
    // One client alone, this build and the baseline interleaved in blocks.
    let mut alone = Vec::new();
    let mut baseline = Vec::new();
    for _ in 0..3 {
        alone.extend(one_client_appends(&bin, 105)?);
        if let Some(old) = &args.baseline_bin {
            baseline.extend(one_client_appends(old, 105)?);
        }
    }
    println!("append_note p50: one client {:.3} ms", p50(&alone));
    if !baseline.is_empty() {
        println!(
            "append_note p50: one client, baseline build {:.3} ms (this build / baseline {:.2}x)",
            p50(&baseline),
            p50(&alone) / p50(&baseline)
        );
    }
    println!(
        "append_note p50: each of {} clients writing at once {:.3} ms ({:.2}x one client)",
        args.processes,
        p50(&under_load),
        p50(&under_load) / p50(&alone)
    );
    Ok(clean)
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) if args.check => {
            eprintln!("bench_processes: a write was lost, refused or held up (see above)");
            ExitCode::FAILURE
        }
        Ok(false) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bench_processes: {message}");
            ExitCode::FAILURE
        }
    }
}
