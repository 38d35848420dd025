//! Native vs WebAssembly: time to index BEIR SciFact and to answer its 300 test queries.
//!
//! ```text
//! npm run build:wasm    # the Node build in engine-wasm/pkg-node
//! cargo run --release -p obsidian-tc-core --example bench_scifact -- \
//!     [--data ../shared/data/scifact] [--rounds 5] [--max-ratio 3]
//! ```
//!
//! Each round indexes the corpus (title + text) with the engine's default analyzer and
//! BM25 parameters, then answers every test query for the top 100; native and WASM rounds
//! alternate, so both see the same machine load. The WASM side runs in Node through the
//! `LexicalIndex` class of `engine-wasm/pkg-node` (`tests/bench/scifact_wasm.mjs`).
//! Printed: the median time of each side and their ratio. The run fails when a WASM/native
//! ratio exceeds `--max-ratio`, or when the two sides' top-10 rankings and score bits differ.

use std::process::{Command, ExitCode};
use std::time::Instant;

use engine_core::hash::sha256_hex;
use engine_core::rank::{Bm25Params, Document, LexicalIndex, ScoredDoc};
use engine_core::text::AnalyzerSettings;
use serde_json::Value;

#[path = "scifact/mod.rs"]
#[expect(
    dead_code,
    reason = "the benchmark times searches; it does not judge them with qrels"
)]
mod scifact;

/// Timings of one round, in milliseconds, and the digest of its top-10 rankings.
struct Round {
    index_ms: f64,
    query_ms: f64,
    digest: String,
}

/// SHA-256 over "query\tdoc\tscore-bits\n" of each query's top 10 (the WASM side's format).
fn digest(query_ids: &[&str], results: &[Vec<ScoredDoc>]) -> String {
    let mut text = String::new();
    for (q, hits) in query_ids.iter().zip(results) {
        for h in hits.iter().take(10) {
            text.push_str(&format!(
                "{q}\t{}\t{:016x}\n",
                h.id,
                f64::from(h.score).to_bits()
            ));
        }
    }
    sha256_hex(text.as_bytes())
}

fn native_round(data: &scifact::Data) -> Round {
    let start = Instant::now();
    let mut index = LexicalIndex::new(AnalyzerSettings::default(), Bm25Params::default())
        .expect("default parameters are valid");
    for (id, title, text) in &data.corpus {
        let doc = Document {
            title: title.clone(),
            body: text.clone(),
            ..Document::default()
        };
        index.upsert(id, &doc).expect("SciFact ids are valid");
    }
    let index_ms = start.elapsed().as_secs_f64() * 1e3;
    let start = Instant::now();
    let results: Vec<Vec<ScoredDoc>> = data
        .queries
        .iter()
        .map(|(_, text)| index.search(text, 100))
        .collect();
    let query_ms = start.elapsed().as_secs_f64() * 1e3;
    let ids: Vec<&str> = data.queries.iter().map(|(q, _)| q.as_str()).collect();
    Round {
        index_ms,
        query_ms,
        digest: digest(&ids, &results),
    }
}

fn wasm_round(data_dir: &str) -> Result<Round, String> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/bench/scifact_wasm.mjs"
    );
    let out = Command::new("node")
        .args([script, "--data", data_dir])
        .output()
        .map_err(|e| format!("cannot run node: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "WASM round failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let v: Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("WASM round output: {e}"))?;
    Ok(Round {
        index_ms: v["index_ms"].as_f64().unwrap_or(f64::NAN),
        query_ms: v["query_ms"].as_f64().unwrap_or(f64::NAN),
        digest: v["digest"].as_str().unwrap_or_default().to_string(),
    })
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("bench_scifact: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let (mut data_dir, mut rounds, mut max_ratio) =
        ("../shared/data/scifact".to_string(), 5usize, 3.0f64);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--data" => data_dir = value,
            "--rounds" => rounds = value.parse().map_err(|_| "--rounds takes a number")?,
            "--max-ratio" => max_ratio = value.parse().map_err(|_| "--max-ratio takes a number")?,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    let data = scifact::load(&data_dir, "test")?;
    println!(
        "SciFact: {} docs, {} test queries, {rounds} alternating rounds per side",
        data.corpus.len(),
        data.queries.len()
    );
    let (mut native, mut wasm) = (Vec::new(), Vec::new());
    for _ in 0..rounds.max(1) {
        native.push(native_round(&data));
        wasm.push(wasm_round(&data_dir)?);
    }
    let identical = native
        .iter()
        .chain(&wasm)
        .all(|r| r.digest == native[0].digest);
    let mut ok = identical;
    println!(
        "{:<24} {:>12} {:>12} {:>8}",
        "median of rounds", "native ms", "wasm ms", "ratio"
    );
    for (label, pick) in [
        (
            "index 5,183 docs",
            (|r: &Round| r.index_ms) as fn(&Round) -> f64,
        ),
        ("answer 300 queries", |r: &Round| r.query_ms),
    ] {
        let (n, w) = (
            median(native.iter().map(pick).collect()),
            median(wasm.iter().map(pick).collect()),
        );
        let ratio = w / n;
        ok &= ratio <= max_ratio;
        println!("{label:<24} {n:>12.1} {w:>12.1} {ratio:>7.2}x");
    }
    println!(
        "top-10 rankings and score bits: {} (digest {})",
        if identical {
            "identical native and WASM"
        } else {
            "DIFFER between native and WASM"
        },
        &native[0].digest[..16]
    );
    if !ok {
        eprintln!("bench_scifact: WASM is over {max_ratio}x native, or results differ");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
