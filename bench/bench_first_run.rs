//! The first run with semantic search on by default (issue 18, must-show 5): the time from
//! starting `obsidian-tc <vault>` (zero-config stdio, embeddings `auto`) to its first
//! `search_vault` answer in mode `hybrid`, with the embedding model already in the Hugging
//! Face cache and a fresh index, the time until every chunk is embedded, and the server's
//! peak RSS (`VmHWM`) by then.
//!
//! ```text
//! cargo build --release -p obsidian-tc --bin obsidian-tc
//! cargo build --release -p bench --bin bench_first_run
//! target/release/bench_first_run --model <all-MiniLM-L6-v2 folder> [--model-name ORG/NAME] \
//!     [--vault ../shared/vaults/obsidian-help-en] [--bin target/release/obsidian-tc] [--runs 3]
//! ```
//!
//! Each run gets a fresh home whose `~/.cache/huggingface/hub` holds the pinned model (its
//! files copied from `--model`, default `OBSIDIAN_TC_TEST_MODEL`, as another tool would have
//! left them), a fresh cache folder (`OBSIDIAN_TC_CACHE_DIR`: the vault is only read) and
//! `HF_HUB_OFFLINE=1` (nothing may be downloaded). The clock starts before the process is
//! spawned; `search_vault` is asked every 50 ms until it answers `hybrid`, then
//! `get_index_status` until `embeddings.state` is `ready`. Skips (exit 0) when the vault is
//! absent.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{Value, json};

use bench::programs::{Served, product};
use bench::rpc::{Session, handshake};
use bench::stats::summarize;
use bench::stdio_client::StdioSession;
use obsidian_tc::embed::hub::{MINILM_MODEL, ModelSpec, WeightsFormat, pinned_spec};

/// The query asked until it is answered in mode hybrid.
const QUERY: &str = "how do I link to a heading in another note";

/// How often the server is asked again.
const POLL: Duration = Duration::from_millis(50);

/// The longest a run may take.
const LIMIT: Duration = Duration::from_secs(1800);

/// The benchmark's options.
#[derive(Debug, Parser)]
struct Args {
    /// The vault and the binary.
    #[command(flatten)]
    served: Served,
    /// A sentence-transformers folder holding the pinned files of `--model-name` (else
    /// OBSIDIAN_TC_TEST_MODEL).
    #[arg(long)]
    model: Option<PathBuf>,
    /// The pinned model served (`OBSIDIAN_TC_EMBEDDINGS_MODEL`): the test model by default,
    /// since the default model, multilingual-e5-small, cannot be had on this machine.
    #[arg(long, default_value = MINILM_MODEL)]
    model_name: String,
    /// Timed first runs.
    #[arg(long, default_value_t = 3)]
    runs: usize,
}

/// What one first run measured.
struct Run {
    first_hybrid: Duration,
    all_embedded: Duration,
    chunks: u64,
    peak_mib: Option<f64>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if !args.served.vault.is_dir() {
        println!("skipped: no vault at {}", args.served.vault.display());
        return ExitCode::SUCCESS;
    }
    match measure(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bench_first_run: {message}");
            ExitCode::FAILURE
        }
    }
}

fn measure(args: &Args) -> Result<(), String> {
    let bin = product(args.served.bin.clone())?;
    let model = args
        .model
        .clone()
        .or_else(|| std::env::var_os("OBSIDIAN_TC_TEST_MODEL").map(PathBuf::from))
        .ok_or("no model folder: pass --model or set OBSIDIAN_TC_TEST_MODEL")?;
    let mut runs = Vec::new();
    for round in 1..=args.runs {
        let run = first_run(&bin, &args.served.vault, &model, &args.model_name)?;
        eprintln!(
            "run {round}: first hybrid answer {} ms, {} chunks embedded in {:.1} s, peak RSS {}",
            run.first_hybrid.as_millis(),
            run.chunks,
            run.all_embedded.as_secs_f64(),
            run.peak_mib
                .map_or_else(|| "unknown".to_owned(), |m| format!("{m:.0} MiB"))
        );
        runs.push(run);
    }
    let first: Vec<Duration> = runs.iter().map(|r| r.first_hybrid).collect();
    let embedded: Vec<Duration> = runs.iter().map(|r| r.all_embedded).collect();
    let (Some(first_ms), Some(embedded_ms)) = (summarize(&first), summarize(&embedded)) else {
        return Err("no run".to_owned());
    };
    let peak = runs.iter().filter_map(|r| r.peak_mib).fold(0.0, f64::max);
    let range = |samples: &[Duration], scale: f64| {
        let min = samples
            .iter()
            .min()
            .map_or(0.0, |d| d.as_secs_f64() * scale);
        let max = samples
            .iter()
            .max()
            .map_or(0.0, |d| d.as_secs_f64() * scale);
        (min, max)
    };
    let (first_min, first_max) = range(&first, 1000.0);
    let (embedded_min, embedded_max) = range(&embedded, 1.0);
    println!("| what | median | min | max |");
    println!("|---|---|---|---|");
    println!(
        "| start to first hybrid answer | {:.0} ms | {first_min:.0} ms | {first_max:.0} ms |",
        first_ms.median
    );
    println!(
        "| start to every chunk embedded ({} chunks) | {:.1} s | {embedded_min:.1} s | \
         {embedded_max:.1} s |",
        runs[0].chunks,
        embedded_ms.median / 1000.0
    );
    println!("| peak RSS (VmHWM) by then, highest run | {peak:.0} MiB | | |");
    Ok(())
}

/// One first run in a fresh home with the model cached.
fn first_run(bin: &Path, vault: &Path, model: &Path, name: &str) -> Result<Run, String> {
    let home = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
    let cache = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
    cache_model(home.path(), model, name)?;
    let mut command = Command::new(bin);
    command
        .arg(vault)
        .env("HOME", home.path())
        .env("OBSIDIAN_TC_CACHE_DIR", cache.path())
        .env("HF_HUB_OFFLINE", "1")
        .env("OBSIDIAN_TC_EMBEDDINGS_MODEL", name)
        .env_remove("HF_HOME")
        .env_remove("HF_HUB_CACHE")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("OBSIDIAN_TC_CONFIG")
        .env_remove("OBSIDIAN_TC_EMBEDDINGS_PROVIDER");
    let started = Instant::now();
    let mut session = StdioSession::spawn(command)?;
    handshake(&mut session)?;
    let mut id = 1;
    let first_hybrid = loop {
        id += 1;
        let found = call(&mut session, id, "search_vault", json!({"query": QUERY}))?;
        if found["mode"] == "hybrid" {
            break started.elapsed();
        }
        wait(started)?;
    };
    let (all_embedded, chunks) = loop {
        id += 1;
        let status = call(&mut session, id, "get_index_status", json!({}))?;
        let embeddings = &status["embeddings"];
        if embeddings["state"] == "ready" && status["scanned"] == true {
            break (
                started.elapsed(),
                embeddings["embedded"].as_u64().unwrap_or(0),
            );
        }
        if embeddings["state"] == "unavailable" {
            return Err(format!("the model did not load: {embeddings}"));
        }
        wait(started)?;
    };
    let peak_mib = peak_rss_mib(session.pid());
    session.close()?;
    Ok(Run {
        first_hybrid,
        all_embedded,
        chunks,
        peak_mib,
    })
}

/// The pinned files of `name` that `model` holds: its ONNX set when the folder has it, else
/// its safetensors set.
fn spec_in(name: &str, model: &Path) -> Result<ModelSpec, String> {
    let pinned = |format| pinned_spec(name, format).ok_or(format!("{name} is not pinned"));
    let onnx = pinned(WeightsFormat::Onnx)?;
    if onnx
        .files
        .iter()
        .all(|file| model.join(&file.path).is_file())
    {
        return Ok(onnx);
    }
    pinned(WeightsFormat::Safetensors)
}

/// Copies the pinned files of `name` from `model` into the home's hub cache, as the snapshot
/// of the pinned revision.
fn cache_model(home: &Path, model: &Path, name: &str) -> Result<(), String> {
    let spec = spec_in(name, model)?;
    let snapshot = home
        .join(".cache/huggingface/hub")
        .join(format!("models--{}", spec.repo.replace('/', "--")))
        .join("snapshots")
        .join(&spec.revision);
    for file in &spec.files {
        let to = snapshot.join(&file.path);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::copy(model.join(&file.path), &to)
            .map_err(|e| format!("{}: {e}", model.join(&file.path).display()))?;
    }
    Ok(())
}

/// The structured result of tool `name`.
fn call(session: &mut StdioSession, id: u64, name: &str, args: Value) -> Result<Value, String> {
    let (_, response) =
        session.request(id, "tools/call", json!({"name": name, "arguments": args}))?;
    response
        .pointer("/result/structuredContent")
        .cloned()
        .ok_or_else(|| format!("{name} answered no structured result: {response}"))
}

fn wait(started: Instant) -> Result<(), String> {
    if started.elapsed() > LIMIT {
        return Err(format!("not done within {LIMIT:?}"));
    }
    std::thread::sleep(POLL);
    Ok(())
}

/// The peak resident set of process `pid` (`VmHWM`), MiB.
fn peak_rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
