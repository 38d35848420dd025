//! Retrieval quality of the lexical index on BEIR SciFact.
//!
//! ```text
//! cargo run --release -p obsidian-tc-core --example eval_scifact -- \
//!     [--data ../shared/data/scifact] [--split test|train] [--tune] [--min-ndcg X]
//!     [--layout fielded|flat] [--k1 X] [--b X] [--title-weight X]
//!     [--stemmer english|none] [--stopwords english|none]
//! ```
//!
//! Reads `corpus.jsonl` (`_id`, `title`, `text`), `queries.jsonl` (`_id`, `text`) and
//! `qrels/<split>.tsv` (`query-id corpus-id score`, with a header line). Each document is
//! indexed with its title in the title field and its text in the body field (`fielded`,
//! the default), or both concatenated in the body (`flat`). Every query of the split's
//! qrels is run for the top 100, and the means over those queries are printed:
//!
//! - nDCG@10 (trec_eval `ndcg_cut.10`): `DCG = Σ_{i=1..10} rel_i / log2(i + 1)` over the
//!   ranking, with `rel` the qrels grade (0 if absent); `IDCG` is the same sum over the
//!   query's qrels grades sorted descending; `nDCG = DCG / IDCG`.
//! - Recall@100: relevant documents (grade > 0) in the top 100 / relevant documents.
//!
//! Also printed: the time to analyze and index the corpus, and the median and 95th
//! percentile time of one query (analysis + search of the top 100).
//!
//! `--tune` grid-searches k1, b, the title weight, the layout, the stemmer and the stop
//! words on the **train** split only, prints the best settings, then evaluates them on the
//! requested split. Without `--tune` the engine defaults are evaluated (they were chosen
//! that way); the other flags override single settings. `--min-ndcg X` exits with status 1 when nDCG@10 is below `X`.

use std::collections::HashMap;

#[path = "scifact/mod.rs"]
mod scifact;
use scifact::{Data, load};
use std::process::ExitCode;
use std::time::Instant;

use engine_core::rank::{Bm25Params, Document, Field, FieldWeights, InvertedIndex, LexicalIndex};
use engine_core::text::{Analyzer, AnalyzerSettings, Stemmer, StopWords};

/// Number of results retrieved per query.
const DEPTH: usize = 100;

/// How a SciFact document maps onto index fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Title in the title field, text in the body field.
    Fielded,
    /// Title and text concatenated in the body field.
    Flat,
}

/// One configuration of the evaluation.
#[derive(Debug, Clone, Copy)]
struct Config {
    layout: Layout,
    stemmer: Stemmer,
    stopwords: StopWords,
    k1: f32,
    b: f32,
    title_weight: f32,
}

impl Config {
    /// The engine's defaults (`AnalyzerSettings::default()`, `Bm25Params::default()`),
    /// which were chosen with `--tune` on the train split, and the fielded layout.
    fn engine_defaults() -> Self {
        let (settings, params) = (AnalyzerSettings::default(), Bm25Params::default());
        Config {
            layout: Layout::Fielded,
            stemmer: settings.stemmer,
            stopwords: settings.stopwords,
            k1: params.k1,
            b: params.b,
            title_weight: params.weights.title / params.weights.body,
        }
    }

    fn analyzer_settings(&self) -> AnalyzerSettings {
        AnalyzerSettings {
            stemmer: self.stemmer,
            stopwords: self.stopwords,
            ..AnalyzerSettings::default()
        }
    }

    fn params(&self) -> Bm25Params {
        let weights = FieldWeights {
            title: self.title_weight,
            body: 1.0,
            ..FieldWeights::UNIFORM
        };
        Bm25Params {
            k1: self.k1,
            b: self.b,
            weights,
        }
    }

    fn describe(&self) -> String {
        format!(
            "layout={:?} stemmer={:?} stopwords={:?} k1={} b={} title_weight={}",
            self.layout, self.stemmer, self.stopwords, self.k1, self.b, self.title_weight
        )
    }
}

/// nDCG@10 and Recall@100 of one ranking.
fn judge(ranking: &[String], grades: &HashMap<String, u32>) -> (f64, f64) {
    let discount = |i: usize| 1.0 / ((i + 2) as f64).log2();
    let dcg: f64 = ranking
        .iter()
        .take(10)
        .enumerate()
        .map(|(i, d)| f64::from(*grades.get(d).unwrap_or(&0)) * discount(i))
        .sum();
    let mut ideal: Vec<u32> = grades.values().copied().collect();
    ideal.sort_unstable_by(|a, b| b.cmp(a));
    let idcg: f64 = ideal
        .iter()
        .take(10)
        .enumerate()
        .map(|(i, g)| f64::from(*g) * discount(i))
        .sum();
    let relevant = grades.values().filter(|g| **g > 0).count();
    let found = ranking
        .iter()
        .take(100)
        .filter(|d| grades.get(*d).is_some_and(|g| *g > 0))
        .count();
    let ndcg = if idcg > 0.0 { dcg / idcg } else { 0.0 };
    let recall = if relevant > 0 {
        found as f64 / relevant as f64
    } else {
        0.0
    };
    (ndcg, recall)
}

/// Mean nDCG@10 and Recall@100 over the queries, given a search function.
fn evaluate(data: &Data, mut search: impl FnMut(usize) -> Vec<String>) -> (f64, f64) {
    let (mut ndcg, mut recall) = (0.0, 0.0);
    for (i, (q, _)) in data.queries.iter().enumerate() {
        let (n, r) = judge(&search(i), &data.qrels[q]);
        ndcg += n;
        recall += r;
    }
    let n = data.queries.len() as f64;
    (ndcg / n, recall / n)
}

fn document(layout: Layout, title: &str, text: &str) -> Document {
    match layout {
        Layout::Fielded => Document {
            title: title.to_string(),
            body: text.to_string(),
            ..Document::default()
        },
        Layout::Flat => Document {
            body: format!("{title}\n{text}"),
            ..Document::default()
        },
    }
}

/// Runs one configuration through the text-level index, with timings.
fn run(data: &Data, config: &Config) -> Result<(f64, f64), String> {
    let mut index = LexicalIndex::new(config.analyzer_settings(), config.params())
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    for (id, title, text) in &data.corpus {
        index
            .upsert(id, &document(config.layout, title, text))
            .map_err(|e| e.to_string())?;
    }
    let index_ms = start.elapsed().as_secs_f64() * 1e3;
    let mut times = Vec::with_capacity(data.queries.len());
    let (ndcg, recall) = evaluate(data, |i| {
        let start = Instant::now();
        let hits = index.search(&data.queries[i].1, DEPTH);
        times.push(start.elapsed().as_secs_f64() * 1e3);
        hits.into_iter().map(|h| h.id).collect()
    });
    times.sort_by(f64::total_cmp);
    let pick = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    println!("config: {}", config.describe());
    println!(
        "nDCG@10 {ndcg:.4}  Recall@100 {recall:.4}  ({} queries, {} docs)",
        data.queries.len(),
        data.corpus.len()
    );
    println!(
        "index: {} docs in {index_ms:.0} ms ({} terms); query: median {:.3} ms, p95 {:.3} ms",
        index.len(),
        index.index().term_count(),
        pick(0.5),
        pick(0.95)
    );
    Ok((ndcg, recall))
}

/// Grid search on the train split: every analyzer and layout is indexed once, then the
/// scoring parameters vary over the same index.
fn tune(data: &Data) -> Result<Config, String> {
    let k1s = [0.6f32, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.5, 2.0];
    let bs = [0.3f32, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 1.0];
    let title_weights = [0.5f32, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0];
    let mut best: Option<(f64, f64, Config)> = None;
    for stemmer in [Stemmer::English, Stemmer::None] {
        for stopwords in [StopWords::English, StopWords::None] {
            let analyzer = Analyzer::new(AnalyzerSettings {
                stemmer,
                stopwords,
                ..AnalyzerSettings::default()
            });
            let queries: Vec<Vec<String>> = data
                .queries
                .iter()
                .map(|(_, t)| analyzer.terms(t))
                .collect();
            let analyzed: Vec<(Vec<String>, Vec<String>)> = data
                .corpus
                .iter()
                .map(|(_, title, text)| (analyzer.terms(title), analyzer.terms(text)))
                .collect();
            for layout in [Layout::Fielded, Layout::Flat] {
                let mut index =
                    InvertedIndex::new(Bm25Params::default()).map_err(|e| e.to_string())?;
                for ((id, _, _), (title, text)) in data.corpus.iter().zip(&analyzed) {
                    let fields: Vec<(Field, &[String])> = match layout {
                        Layout::Fielded => vec![(Field::Title, title), (Field::Body, text)],
                        Layout::Flat => vec![(Field::Body, title), (Field::Body, text)],
                    };
                    index.upsert(id, &fields).map_err(|e| e.to_string())?;
                }
                let weights: &[f32] = if layout == Layout::Flat {
                    &[1.0]
                } else {
                    &title_weights
                };
                let mut local: Option<(f64, f64, Config)> = None;
                for &k1 in &k1s {
                    for &b in &bs {
                        for &title_weight in weights {
                            let config = Config {
                                layout,
                                stemmer,
                                stopwords,
                                k1,
                                b,
                                title_weight,
                            };
                            index
                                .set_params(config.params())
                                .map_err(|e| e.to_string())?;
                            let (ndcg, recall) = evaluate(data, |i| {
                                index
                                    .search_terms(&queries[i], DEPTH)
                                    .into_iter()
                                    .map(|h| h.id)
                                    .collect()
                            });
                            if local.as_ref().is_none_or(|(n, _, _)| ndcg > *n) {
                                local = Some((ndcg, recall, config));
                            }
                        }
                    }
                }
                if let Some((ndcg, recall, config)) = local {
                    println!(
                        "train best for {:?}/{:?}/{:?}: nDCG@10 {ndcg:.4} Recall@100 {recall:.4}  {}",
                        layout,
                        stemmer,
                        stopwords,
                        config.describe()
                    );
                    if best.as_ref().is_none_or(|(n, _, _)| ndcg > *n) {
                        best = Some((ndcg, recall, config));
                    }
                }
            }
        }
    }
    let (ndcg, recall, config) = best.ok_or("empty grid")?;
    println!(
        "best on train: nDCG@10 {ndcg:.4} Recall@100 {recall:.4}  {}",
        config.describe()
    );
    Ok(config)
}

struct Args {
    data: String,
    split: String,
    tune: bool,
    min_ndcg: Option<f64>,
    config: Config,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        data: "../shared/data/scifact".to_string(),
        split: "test".to_string(),
        tune: false,
        min_ndcg: None,
        config: Config::engine_defaults(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--tune" {
            args.tune = true;
            continue;
        }
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<f64>()
                .map_err(|_| format!("{flag}: not a number: {value}"))
        };
        match flag.as_str() {
            "--data" => args.data = value.clone(),
            "--split" => args.split = value.clone(),
            "--min-ndcg" => args.min_ndcg = Some(number()?),
            "--k1" => args.config.k1 = number()? as f32,
            "--b" => args.config.b = number()? as f32,
            "--title-weight" => args.config.title_weight = number()? as f32,
            "--layout" => {
                args.config.layout = match value.as_str() {
                    "fielded" => Layout::Fielded,
                    "flat" => Layout::Flat,
                    _ => return Err(format!("--layout: fielded or flat, not {value}")),
                }
            }
            "--stemmer" => {
                args.config.stemmer = match value.as_str() {
                    "english" => Stemmer::English,
                    "none" => Stemmer::None,
                    _ => return Err(format!("--stemmer: english or none, not {value}")),
                }
            }
            "--stopwords" => {
                args.config.stopwords = match value.as_str() {
                    "english" => StopWords::English,
                    "none" => StopWords::None,
                    _ => return Err(format!("--stopwords: english or none, not {value}")),
                }
            }
            _ => return Err(format!("unknown argument {flag}")),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    match real_main() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("eval_scifact: {e}");
            ExitCode::from(2)
        }
    }
}

fn real_main() -> Result<ExitCode, String> {
    let mut args = parse_args()?;
    if args.tune {
        let train = load(&args.data, "train")?;
        println!(
            "tuning on train: {} queries, {} docs",
            train.queries.len(),
            train.corpus.len()
        );
        args.config = tune(&train)?;
    }
    let data = load(&args.data, &args.split)?;
    println!("SciFact {} split", args.split);
    let (ndcg, _) = run(&data, &args.config)?;
    if let Some(min) = args.min_ndcg
        && ndcg < min
    {
        eprintln!("eval_scifact: nDCG@10 {ndcg:.4} is below the required {min}");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
