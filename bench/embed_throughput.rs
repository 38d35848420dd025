//! Throughput of the local embedding provider (all-MiniLM-L6-v2 on the CPU) on SciFact
//! abstracts, the size of typical note chunks.
//!
//! ```text
//! OBSIDIAN_TC_TEST_MODEL=target/test-model/all-MiniLM-L6-v2 \
//!     cargo run --release -p bench --bin embed_throughput -- \
//!     [--model <folder>] [--corpus ../shared/data/scifact/corpus.jsonl] [--count 512] [--batch 32]
//! ```
//!
//! Prints the load time, then chunks per second for one untimed warm-up batch and the timed
//! run, and the mean word pieces per chunk (inputs are cut at 256).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use obsidian_tc::embed::{EmbedKind, EmbeddingProvider, LocalProvider};
use serde_json::Value;

struct Args {
    model: PathBuf,
    corpus: PathBuf,
    count: usize,
    batch: usize,
}

fn parse_args() -> Result<Args, String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut args = Args {
        model: std::env::var_os("OBSIDIAN_TC_TEST_MODEL").map_or_else(
            || root.join("target/test-model/all-MiniLM-L6-v2"),
            PathBuf::from,
        ),
        corpus: root.join("../shared/data/scifact/corpus.jsonl"),
        count: 512,
        batch: 32,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let number = || value.parse::<usize>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--model" => args.model = PathBuf::from(&value),
            "--corpus" => args.corpus = PathBuf::from(&value),
            "--count" => args.count = number()?,
            "--batch" => args.batch = number()?,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(args)
}

/// The first `count` abstracts, title first, as the indexer would chunk a short note.
fn abstracts(args: &Args) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(&args.corpus)
        .map_err(|e| format!("{}: {e}", args.corpus.display()))?;
    text.lines()
        .take(args.count)
        .map(|line| {
            let doc: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
            Ok(format!(
                "{}\n{}",
                doc["title"].as_str().unwrap_or_default(),
                doc["text"].as_str().unwrap_or_default()
            ))
        })
        .collect()
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    let texts = abstracts(&args)?;
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let started = Instant::now();
    let model = LocalProvider::load(
        &args.model,
        "sentence-transformers/all-MiniLM-L6-v2",
        args.batch,
    )
    .map_err(|e| e.to_string())?;
    println!(
        "loaded {} in {:.2} s",
        model.fingerprint().id(),
        started.elapsed().as_secs_f64()
    );
    let warm = &refs[..args.batch.min(refs.len())];
    model
        .embed(warm, EmbedKind::Document)
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    let vectors = model
        .embed(&refs, EmbedKind::Document)
        .map_err(|e| e.to_string())?;
    let seconds = started.elapsed().as_secs_f64();
    let words: usize = refs.iter().map(|t| t.split_whitespace().count()).sum();
    println!(
        "{} chunks (mean {:.0} words, cut at {} word pieces), batch {}: {:.2} s, {:.1} chunks/s",
        vectors.len(),
        words as f64 / refs.len().max(1) as f64,
        model.max_tokens(),
        args.batch,
        seconds,
        vectors.len() as f64 / seconds
    );
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("embed_throughput: {e}");
            ExitCode::FAILURE
        }
    }
}
