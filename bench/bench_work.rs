//! The work memory over 100,000 episodes, in process through `Dispatcher::call` (issue 37).
//!
//! ```text
//! cargo run --release -p bench --bin bench_work -- [--episodes 100000] [--calls 200]
//! ```
//!
//! A small temp vault and cache, a manual clock one second per call. The fill is real tool
//! calls through the dispatcher (so each is an episode, an audit row and its paths): nine in
//! ten by the timed caller `agent` (`note_exists` on 500 paths, a `write_note` every 50th, a
//! `read_note` of a missing note every 25th, which fails), one in ten by `other`. It prints:
//! the cache database's growth per 10,000 calls (after a WAL checkpoint; the episode tables
//! alone when SQLite has `dbstat`); the first `work_search` (the evaluator promotes every
//! pending episode); then `--calls` rounds, in rotating order, of `work_search` (newest 20,
//! a common word, a rare word, a word that matches nothing), `work_episodes` and the
//! baselines `server_health` (the original's `ping`) and `read_note`, with p50 / p90 / p99; last, a retention sweep with the
//! clock moved so that half the episodes are past `work.retentionDays`: what it removed and
//! how long it took.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bench::stats::summarize;
use clap::Parser;
use obsidian_tc::auth::Caller;
use obsidian_tc::config::{ConfigOrigin, LoadInput, load};
use obsidian_tc::dispatch::Dispatcher;
use obsidian_tc::runtime::ManualClock;
use serde_json::{Value, json};

/// The benchmark's options.
#[derive(Debug, Parser)]
struct Args {
    /// Episodes to fill (tool calls made).
    #[arg(long, default_value_t = 100_000)]
    episodes: u64,
    /// Timed calls of each kind.
    #[arg(long, default_value_t = 200)]
    calls: usize,
}

/// 2026-01-01T00:00:00Z in milliseconds.
const START_MS: u64 = 1_767_225_600_000;

/// Calls between two storage measurements.
const STEP: u64 = 10_000;

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bench_work: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    let temp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let vault = temp.path().join("vault");
    std::fs::create_dir_all(&vault).map_err(|e| e.to_string())?;
    std::fs::write(vault.join("Welcome.md"), "# Welcome\n\nThe bench vault.\n")
        .map_err(|e| e.to_string())?;
    let cache = temp.path().join("cache");
    let config = json!({
        "vaults": [{"id": "bench", "path": vault.to_string_lossy()}],
        "cacheDir": cache.to_string_lossy(),
        "throttle": {"enabled": false},
        "index": {"scanOnStart": false, "watch": false},
        "embeddings": {"provider": "none"},
        "work": {"maxEpisodes": 1_000_000},
    });
    let loaded = load(&LoadInput {
        origin: ConfigOrigin::File {
            path: temp.path().join("config.json"),
            text: config.to_string(),
        },
        env: BTreeMap::new(),
        overrides: Vec::new(),
    })
    .map_err(|e| format!("invalid config: {e}"))?;
    let clock = Arc::new(ManualClock::new(START_MS));
    let server = Dispatcher::new(loaded, clock.clone()).map_err(|e| e.to_string())?;
    let db = server.runtime().store().path().to_path_buf();
    let agent = Caller {
        id: "agent".to_owned(),
        ..Caller::stdio()
    };
    let other = Caller {
        id: "other".to_owned(),
        ..Caller::stdio()
    };

    let fill_started = Instant::now();
    let mut sizes = vec![db_bytes(&db)?];
    for n in 0..args.episodes {
        clock.advance(1000);
        let who = if n % 10 == 9 { &other } else { &agent };
        let (tool, call_args) = fill_call(n);
        let _ = server.call(who, tool, call_args);
        if (n + 1) % STEP == 0 {
            sizes.push(db_bytes(&db)?);
        }
    }
    let fill = fill_started.elapsed();
    let growth: Vec<u64> = sizes
        .windows(2)
        .map(|w| w[1].saturating_sub(w[0]))
        .collect();
    let mean = growth.iter().sum::<u64>() / growth.len().max(1) as u64;
    println!(
        "filled {} episodes in {:.1} s ({:.0} calls/s); cache.db {} bytes",
        args.episodes,
        fill.as_secs_f64(),
        args.episodes as f64 / fill.as_secs_f64(),
        sizes.last().copied().unwrap_or_default()
    );
    println!(
        "growth per {STEP} calls: mean {mean} bytes ({:.1} MiB), per step {growth:?}",
        mean as f64 / 1_048_576.0
    );
    match episode_table_bytes(&db) {
        Ok(bytes) => println!(
            "episode tables (episodes, episode_paths, episodes_fts*, indexes): {bytes} bytes, {:.0} bytes per episode",
            bytes as f64 / args.episodes as f64
        ),
        Err(error) => println!("episode tables: not measured ({error})"),
    }

    let started = Instant::now();
    let first = call(&server, &agent, "work_search", json!({"k": 20}))?;
    println!(
        "first work_search (evaluator promotes every pending episode): {:.1} ms, {} results",
        started.elapsed().as_secs_f64() * 1e3,
        first["results"].as_array().map_or(0, Vec::len)
    );
    let kinds: Vec<(&str, &str, Value)> = vec![
        ("work_search newest 20", "work_search", json!({"k": 20})),
        (
            "work_search common word",
            "work_search",
            json!({"query": "note_exists", "k": 20}),
        ),
        (
            "work_search rare word",
            "work_search",
            json!({"query": "write_note", "k": 20}),
        ),
        (
            "work_search no match",
            "work_search",
            json!({"query": "zzzzqq", "k": 20}),
        ),
        (
            "work_search pending+error",
            "work_search",
            json!({"query": "not_found", "include_pending": true, "k": 20}),
        ),
        ("work_episodes 50", "work_episodes", json!({})),
        ("server_health (baseline)", "server_health", json!({})),
        (
            "read_note (baseline)",
            "read_note",
            json!({"path": "Welcome.md"}),
        ),
    ];
    let mut samples: Vec<Vec<Duration>> = vec![Vec::with_capacity(args.calls); kinds.len()];
    for round in 0..args.calls {
        for offset in 0..kinds.len() {
            let which = (round + offset) % kinds.len();
            let (_, tool, call_args) = &kinds[which];
            let start = Instant::now();
            call(&server, &agent, tool, call_args.clone())?;
            samples[which].push(start.elapsed());
        }
    }
    for ((label, _, _), timed) in kinds.iter().zip(&samples) {
        if let Some(summary) = summarize(timed) {
            println!(
                "{label:<28} p50 {:>7.3} ms  p90 {:>7.3} ms  p99 {:>7.3} ms  ({} calls)",
                summary.median,
                summary.p90,
                summary.p99,
                timed.len()
            );
        }
    }

    // Half the fill is past the 30-day window: the sweep removes it.
    let half = args.episodes / 2;
    clock.set(START_MS + 30 * 86_400_000 + half * 1000);
    let started = Instant::now();
    let swept = server
        .runtime()
        .sweep_cache()
        .map_err(|e| format!("sweep: {e}"))?;
    println!(
        "retention sweep: {} episodes (and {} audit rows) removed in {:.1} ms",
        swept.episodes,
        swept.events,
        started.elapsed().as_secs_f64() * 1e3
    );
    Ok(())
}

/// The `n`th fill call: mostly `note_exists` on 500 paths, a write every 50th, a failing
/// read every 25th.
fn fill_call(n: u64) -> (&'static str, Value) {
    if n.is_multiple_of(50) {
        let path = format!("Notes/n{}.md", n % 500);
        (
            "write_note",
            json!({"path": path, "content": format!("note {n}\n"), "mode": "upsert"}),
        )
    } else if n.is_multiple_of(25) {
        (
            "read_note",
            json!({"path": format!("Missing/m{}.md", n % 500)}),
        )
    } else {
        (
            "note_exists",
            json!({"path": format!("Notes/n{}.md", n % 500)}),
        )
    }
}

fn call(server: &Dispatcher, who: &Caller, tool: &str, args: Value) -> Result<Value, String> {
    server
        .call(who, tool, args)
        .result
        .map_err(|e| format!("{tool}: {e}"))
}

/// The database file's size after a WAL checkpoint.
fn db_bytes(db: &Path) -> Result<u64, String> {
    let conn = rusqlite::Connection::open(db).map_err(|e| e.to_string())?;
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .map_err(|e| e.to_string())?;
    std::fs::metadata(db)
        .map(|meta| meta.len())
        .map_err(|e| e.to_string())
}

/// The bytes of the episode tables and their indexes (SQLite's `dbstat`).
fn episode_table_bytes(db: &Path) -> Result<u64, String> {
    let conn = rusqlite::Connection::open(db).map_err(|e| e.to_string())?;
    conn.query_row(
        "SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'episode%'",
        [],
        |row| row.get::<_, i64>(0),
    )
    .map(|bytes| u64::try_from(bytes).unwrap_or_default())
    .map_err(|e| e.to_string())
}
