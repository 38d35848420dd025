//! The `scifact` suite: BEIR SciFact written out as a vault (one note per document), indexed
//! with `index_vault`, every query of the split run through `search_vault` for the top 100;
//! nDCG@10 and Recall@100 against the same corpus in FTS5.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

use super::datasets::{SciFact, load_scifact, materialise_scifact, scifact_id};
use super::fts5::Fts5;
use super::metrics::{Gains, Percentiles, mean, ndcg_at, recall_at};
use super::product::Product;
use super::report::{Check, Section, f4, ms, ratio, table};

/// Results retrieved per query.
const DEPTH: usize = 100;
/// The lexical target for nDCG@10 on the test split.
const NDCG_TARGET: f64 = 0.68;

/// The quality and speed of one system over the queries.
struct Scores {
    ndcg10: Vec<f64>,
    recall100: Vec<f64>,
    times: Vec<Duration>,
    failures: usize,
}

impl Scores {
    fn new() -> Scores {
        Scores {
            ndcg10: Vec::new(),
            recall100: Vec::new(),
            times: Vec::new(),
            failures: 0,
        }
    }

    /// Records one query's ranking (or its failure) and how long it took.
    fn record(&mut self, ranking: Result<Vec<String>, String>, gains: &Gains, took: Duration) {
        let ranking = ranking.unwrap_or_else(|error| {
            if self.failures == 0 {
                eprintln!("scifact: a query failed: {error}");
            }
            self.failures += 1;
            Vec::new()
        });
        self.ndcg10.push(ndcg_at(&ranking, gains, 10));
        self.recall100.push(recall_at(&ranking, gains, DEPTH));
        self.times.push(took);
    }

    fn summary(&self, index_ms: f64) -> serde_json::Value {
        json!({
            "ndcg_at_10": mean(&self.ndcg10),
            "recall_at_100": mean(&self.recall100),
            "index_ms": index_ms,
            "query": Percentiles::of(&self.times),
            "failed_queries": self.failures,
        })
    }
}

/// Runs the suite on `<data>/` (BEIR layout), split `split`, searching in `mode`.
pub fn run(data: &Path, split: &str, mode: &str) -> Result<Section, String> {
    let dir = data.to_str().ok_or("the SciFact folder is not UTF-8")?;
    let scifact: SciFact = load_scifact(dir, split)?;
    let work = tempfile::TempDir::new().map_err(|e| format!("temp dir: {e}"))?;
    let vault = work.path().join("vault");
    eprintln!(
        "scifact: writing {} notes to {}",
        scifact.corpus.len(),
        vault.display()
    );
    materialise_scifact(&scifact, &vault)?;
    let product = Product::create(work.path(), &vault)?;
    eprintln!("scifact: index_vault ...");
    let indexed = product.index()?;
    eprintln!(
        "scifact: indexed in {:.0} ms: {}",
        indexed.wall_ms, indexed.report
    );
    let (fts, fts_index_ms) = Fts5::build(
        scifact
            .corpus
            .iter()
            .map(|(id, title, text)| (id.as_str(), title.as_str(), text.as_str())),
    )?;
    eprintln!("scifact: FTS5 indexed in {fts_index_ms:.0} ms");

    let (mut ours, mut theirs) = (Scores::new(), Scores::new());
    for (i, (query_id, text)) in scifact.queries.iter().enumerate() {
        let gains: Gains = scifact.qrels[query_id]
            .iter()
            .map(|(doc, grade)| (doc.clone(), f64::from(*grade)))
            .collect();
        let start = Instant::now();
        let found = product.search(text, mode, DEPTH);
        let took = start.elapsed();
        let ranking = found.map(|paths| paths.iter().map(|p| scifact_id(p)).collect());
        ours.record(ranking, &gains, took);
        let start = Instant::now();
        let found = fts.search(text, DEPTH);
        theirs.record(found, &gains, start.elapsed());
        if (i + 1) % 50 == 0 {
            eprintln!("scifact: {}/{} queries", i + 1, scifact.queries.len());
        }
    }

    let ndcg = mean(&ours.ndcg10);
    let rows = [
        (
            format!("obsidian-tc search_vault ({mode})"),
            &ours,
            indexed.wall_ms,
        ),
        (
            "SQLite FTS5 bm25 (porter unicode61)".to_owned(),
            &theirs,
            fts_index_ms,
        ),
    ];
    let table_rows: Vec<Vec<String>> = rows
        .iter()
        .map(|(name, scores, index_ms)| {
            let query = Percentiles::of(&scores.times);
            vec![
                name.clone(),
                f4(mean(&scores.ndcg10)),
                f4(mean(&scores.recall100)),
                ms(*index_ms),
                ms(query.p50_ms),
                ms(query.p95_ms),
                scores.failures.to_string(),
            ]
        })
        .collect();
    let (ours_q, theirs_q) = (Percentiles::of(&ours.times), Percentiles::of(&theirs.times));
    let markdown = format!(
        "## SciFact ({split}: {} queries, {} docs)\n\n{}\nQuery times are the top {DEPTH}: \
         search_vault through the dispatcher (snippets included) vs one FTS5 statement; \
         p50 ratio {}. Published: BM25 flat 0.679, FTS5 porter 0.6824 (shared/reference/\
         retrieval.md). Index time: index_vault wall time (tool: {} ms) vs FTS5 inserts \
         in memory.\n",
        scifact.queries.len(),
        scifact.corpus.len(),
        table(
            &[
                "system",
                "nDCG@10",
                "Recall@100",
                "index",
                "query p50",
                "query p95",
                "failed"
            ],
            &table_rows
        ),
        ratio(ours_q.p50_ms, theirs_q.p50_ms),
        indexed.report["duration_ms"],
    );
    let checks = if mode == "lexical" && split == "test" {
        vec![Check::at_least(
            "scifact nDCG@10 (lexical, test)",
            ndcg,
            NDCG_TARGET,
        )]
    } else {
        Vec::new()
    };
    Ok(Section {
        name: "scifact",
        json: json!({
            "split": split,
            "docs": scifact.corpus.len(),
            "queries": scifact.queries.len(),
            "index_report": indexed.report,
            "product": ours.summary(indexed.wall_ms),
            "fts5": theirs.summary(fts_index_ms),
        }),
        markdown,
        checks,
    })
}
