//! `list_tasks` latency on a real vault, in process through `Dispatcher::call` as the stdio
//! caller (issue 6, tasks).
//!
//! ```text
//! cargo run --release -p bench --bin bench_tasks -- \
//!     [--vault ../shared/vaults/pf2e-srd] [--calls 300] [--warmup 20] [--tasks-every 3]
//! ```
//!
//! The vault is read in place (the cache goes to a temp folder) and indexed once. pf2e-srd
//! has no tasks, so with `--tasks-every N` the vault is first copied to a temp folder and
//! every Nth note (by path) gets a `## Tasks` section of four tasks in the Tasks plugin's
//! emoji format (statuses, due and scheduled dates, priorities and tags varying
//! deterministically), giving the filters real work. Then,
//! after `--warmup` untimed calls, each query shape is called `--calls` times and its p50,
//! p95 and max are printed. Skips (exit 0) when the vault is absent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use obsidian_tc::auth::Caller;
use obsidian_tc::config::{ConfigOrigin, LoadInput, load};
use obsidian_tc::dispatch::Dispatcher;
use obsidian_tc::runtime::SystemClock;
use serde_json::{Value, json};

/// The benchmark's options.
#[derive(Debug, Parser)]
struct Args {
    /// The vault to read.
    #[arg(long, default_value = "../shared/vaults/pf2e-srd")]
    vault: PathBuf,
    /// Timed calls per query shape.
    #[arg(long, default_value_t = 300)]
    calls: usize,
    /// Untimed calls first.
    #[arg(long, default_value_t = 20)]
    warmup: usize,
    /// Copy the vault and add four tasks to every Nth note (0: read the vault as it is).
    #[arg(long, default_value_t = 0)]
    tasks_every: usize,
}

/// The tasks added to the `index`th note given some.
fn injected_tasks(index: usize) -> String {
    let statuses = [" ", "x", "/", " ", "-"];
    let priorities = ["", " ⏫", " 🔼", " 🔽", ""];
    let tags = ["#spell", "#combat", "#prep", "#spell #prep"];
    let mut out = String::from("\n\n## Tasks\n");
    for k in 0..4 {
        let n = index * 4 + k;
        let status = statuses[n % statuses.len()];
        let due_day = 1 + n % 28;
        let month = 1 + (n / 28) % 12;
        out.push_str(&format!(
            "- [{status}] Prepare action {n} {tag}{priority} ⏳ 2026-{month:02}-{:02} 📅 2026-{month:02}-{due_day:02}\n",
            1 + (due_day + 20) % 28,
            tag = tags[n % tags.len()],
            priority = priorities[n % priorities.len()],
        ));
    }
    out
}

/// Copies `from` into `to`, adding [`injected_tasks`] to every `every`th note by path;
/// returns how many tasks were added.
fn copy_with_tasks(from: &Path, to: &Path, every: usize) -> Result<usize, String> {
    let mut files = Vec::new();
    collect_files(from, &mut files)?;
    files.sort();
    let mut added = 0;
    let mut notes = 0;
    for file in files {
        let rel = file.strip_prefix(from).map_err(|e| e.to_string())?;
        let target = to.join(rel);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        let mut bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        if file.extension().is_some_and(|ext| ext == "md") {
            if notes % every == 0 {
                bytes.extend_from_slice(injected_tasks(notes).as_bytes());
                added += 4;
            }
            notes += 1;
        }
        std::fs::write(&target, bytes).map_err(|e| format!("{}: {e}", target.display()))?;
    }
    Ok(added)
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let kind = entry.file_type().map_err(|e| e.to_string())?;
        if kind.is_dir() {
            collect_files(&entry.path(), out)?;
        } else if kind.is_file() {
            out.push(entry.path());
        }
    }
    Ok(())
}

/// The query shapes measured.
fn shapes() -> Vec<(&'static str, Value)> {
    vec![
        ("all tasks, first page", json!({})),
        (
            "open tasks due before a date, under a folder",
            json!({"status": ["todo", "in_progress"], "due": {"before": "2026-06-01"}, "path_prefix": "rules/"}),
        ),
        (
            "tagged, text filter, priority",
            json!({"tags": ["spell"], "text_contains": "action", "priority": ["high", "none"]}),
        ),
    ]
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let rank = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[rank.min(sorted.len() - 1)].as_secs_f64() * 1e3
}

fn run(args: &Args) -> Result<(), String> {
    let source = args
        .vault
        .canonicalize()
        .map_err(|e| format!("{}: {e}", args.vault.display()))?;
    let work = tempfile::TempDir::new().map_err(|e| e.to_string())?;
    let vault = if args.tasks_every == 0 {
        source
    } else {
        let copy = work.path().join("vault");
        let added = copy_with_tasks(&source, &copy, args.tasks_every)?;
        println!("copied {} with {added} tasks added", source.display());
        copy
    };
    let config = json!({
        "vaults": [{"id": "bench", "path": vault.to_string_lossy()}],
        "cacheDir": work.path().join("cache").to_string_lossy(),
        "throttle": {"enabled": false},
        "index": {"scanOnStart": false, "watch": false},
        "embeddings": {"provider": "none"},
    });
    let config_path = work.path().join("config.json");
    std::fs::write(&config_path, config.to_string()).map_err(|e| e.to_string())?;
    let loaded = load(&LoadInput {
        origin: ConfigOrigin::File {
            path: config_path,
            text: config.to_string(),
        },
        env: BTreeMap::new(),
        overrides: Vec::new(),
    })
    .map_err(|e| format!("invalid config: {e}"))?;
    let server = Dispatcher::new(loaded, Arc::new(SystemClock)).map_err(|e| e.to_string())?;
    let caller = Caller::stdio();
    let call = |tool: &str, args: Value| {
        server
            .call(&caller, tool, args)
            .result
            .map_err(|e| format!("{tool}: {e}"))
    };
    let started = Instant::now();
    let indexed = call("index_vault", json!({}))?;
    println!(
        "indexed {} in {:.1} s: {}",
        vault.display(),
        started.elapsed().as_secs_f64(),
        indexed
    );
    for (name, query) in shapes() {
        let first = call("list_tasks", query.clone())?;
        for _ in 0..args.warmup {
            call("list_tasks", query.clone())?;
        }
        let mut samples = Vec::with_capacity(args.calls);
        for _ in 0..args.calls {
            let start = Instant::now();
            call("list_tasks", query.clone())?;
            samples.push(start.elapsed());
        }
        samples.sort();
        println!(
            "list_tasks [{name}] total={} calls={} p50={:.3} ms p95={:.3} ms max={:.3} ms",
            first["total"],
            samples.len(),
            percentile(&samples, 0.50),
            percentile(&samples, 0.95),
            percentile(&samples, 1.0),
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    if !args.vault.exists() {
        println!("skipped: {} is absent", args.vault.display());
        return ExitCode::SUCCESS;
    }
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("bench_tasks: {error}");
            ExitCode::FAILURE
        }
    }
}
