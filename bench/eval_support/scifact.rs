//! The `scifact` suite: BEIR SciFact written out as a vault (one note per document), indexed
//! with `index_vault`, every query of the split run through `search_vault` for the top 100;
//! nDCG@10 and Recall@100 against the same corpus in FTS5.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;

use super::datasets::{SciFact, load_scifact, materialise_scifact, scifact_id};
use super::fts5::Fts5;
use super::fusion::{self, QueryRuns};
use super::metrics::{Gains, Percentiles, mean, ndcg_at, recall_at};
use super::product::{Product, Setup, WorkDir};
use super::report::{Check, Section, f4, ms, ratio, table};

/// Results retrieved per query.
const DEPTH: usize = 100;
/// The lexical target for nDCG@10 on the test split.
const NDCG_TARGET: f64 = 0.68;
/// The hybrid target for nDCG@10 on the test split.
const HYBRID_TARGET: f64 = 0.72;

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

/// Runs the suite on `<data>/` (BEIR layout), split `split`, searching in `setup.mode`; with
/// `tune`, also the fusion grid over the lexical and semantic rankings.
pub fn run(data: &Path, split: &str, setup: &Setup, tune: bool) -> Result<Section, String> {
    let mode = setup.mode.as_str();
    let dir = data.to_str().ok_or("the SciFact folder is not UTF-8")?;
    let scifact: SciFact = load_scifact(dir, split)?;
    let work = WorkDir::new(setup.cache.as_deref(), "scifact")?;
    let vault = work.path().join("vault");
    eprintln!(
        "scifact: writing {} notes to {}",
        scifact.corpus.len(),
        vault.display()
    );
    materialise_scifact(&scifact, &vault)?;
    let product = setup.product(&work, &vault)?;
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
    let knn = match setup.model {
        Some(_) => Some(SqliteVecKnn::open(&product)?),
        None => None,
    };

    let (mut ours, mut theirs, mut vec_knn) = (Scores::new(), Scores::new(), Scores::new());
    let mut tuning = Vec::new();
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
        if let Some(knn) = &knn {
            let (found, took) = knn.search(text, DEPTH);
            vec_knn.record(found, &gains, took);
        }
        if tune {
            let as_ids = |ranked: Vec<(String, f64)>| {
                ranked
                    .into_iter()
                    .map(|(path, score)| (scifact_id(&path), score))
                    .collect()
            };
            tuning.push(QueryRuns {
                lexical: as_ids(product.search_scored(text, "lexical", DEPTH)?),
                semantic: as_ids(product.search_scored(text, "semantic", DEPTH)?),
                gains: gains.clone(),
            });
        }
        if (i + 1) % 50 == 0 {
            eprintln!("scifact: {}/{} queries", i + 1, scifact.queries.len());
        }
    }
    let fusion = (!tuning.is_empty()).then(|| fusion::tune(&tuning));

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
        (
            "sqlite-vec KNN (same vectors, best chunk per doc)".to_owned(),
            &vec_knn,
            f64::NAN,
        ),
    ];
    let table_rows: Vec<Vec<String>> = rows
        .iter()
        .filter(|(_, scores, _)| !scores.times.is_empty())
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
    let markdown = match &fusion {
        Some((table, _)) => format!("{markdown}\n{table}"),
        None => markdown,
    };
    let checks = match (mode, split) {
        ("lexical", "test") => vec![Check::at_least(
            "scifact nDCG@10 (lexical, test)",
            ndcg,
            NDCG_TARGET,
        )],
        ("hybrid", "test") => vec![Check::at_least(
            "scifact nDCG@10 (hybrid, test)",
            ndcg,
            HYBRID_TARGET,
        )],
        _ => Vec::new(),
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
            "sqlite_vec_knn": (!vec_knn.times.is_empty()).then(|| vec_knn.summary(f64::NAN)),
            "fusion_grid": fusion.map(|(_, json)| json),
        }),
        markdown,
        checks,
    })
}

/// sqlite-vec's own KNN over the product's stored vectors: the same query vector, the
/// nearest chunks by L2 distance, each document at its best chunk.
struct SqliteVecKnn<'p> {
    product: &'p Product,
    semantic: std::sync::Arc<obsidian_tc::index::semantic::SemanticIndex>,
    /// chunk id -> document id.
    docs: std::collections::HashMap<i64, String>,
}

impl<'p> SqliteVecKnn<'p> {
    fn open(product: &'p Product) -> Result<Self, String> {
        let server = product.dispatcher();
        let semantic = server
            .runtime()
            .indexes()
            .semantic(
                server.runtime().store(),
                &server.runtime().config().config.embeddings,
            )
            .map_err(|e| e.to_string())?
            .ok_or("no embedding provider is configured")?;
        let docs = server
            .runtime()
            .store()
            .note_index()
            .chunk_notes()
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|(chunk, (_, path))| (chunk, scifact_id(&path)))
            .collect();
        Ok(SqliteVecKnn {
            product,
            semantic,
            docs,
        })
    }

    /// The first `depth` documents for `query` and the time of the KNN statement (the query's
    /// embedding, shared with the product's, is not timed).
    fn search(&self, query: &str, depth: usize) -> (Result<Vec<String>, String>, Duration) {
        let vector = match self.semantic.query_vector(query) {
            Ok(vector) => vector,
            Err(error) => return (Err(error.to_string()), Duration::ZERO),
        };
        let store =
            obsidian_tc::vectors::VectorStore::new(self.product.dispatcher().runtime().store());
        let start = Instant::now();
        let found = store.knn_sqlite_vec(self.semantic.fingerprint(), &vector, depth * 4);
        let took = start.elapsed();
        let found = found.map_err(|e| e.to_string()).map(|chunks| {
            let mut seen = std::collections::HashSet::new();
            chunks
                .into_iter()
                .filter_map(|(chunk, _)| self.docs.get(&chunk).cloned())
                .filter(|doc| seen.insert(doc.clone()))
                .take(depth)
                .collect()
        });
        (found, took)
    }
}
