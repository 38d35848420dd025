//! The `golden` suite: the obsidian-help golden set (58 queries with relevant and partial
//! note paths) over the obsidian-help-en vault, which is only read (the cache goes to a temp
//! folder). nDCG@5 over the deduplicated note paths (gain 1.0 relevant, 0.5 partial; the
//! ideal DCG from all relevant then partial paths), MRR@10 and Hit@1, Hit@5 on the relevant
//! paths; overall and by category, against FTS5 over the same notes.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};

use super::datasets::{GoldenQuery, load_golden, vault_notes};
use super::fts5::Fts5;
use super::metrics::{Gains, dedup, hit_at, mean, ndcg_at, reciprocal_rank};
use super::product::{Setup, WorkDir};
use super::report::{Section, f4, table};

/// Results retrieved per query (MRR is cut there).
pub(super) const DEPTH: usize = 10;

/// Per-query figures of one system.
#[derive(Default)]
pub(super) struct Scores {
    ndcg5: Vec<f64>,
    mrr: Vec<f64>,
    hit1: Vec<f64>,
    hit5: Vec<f64>,
}

impl Scores {
    /// Adds one query's figures for `ranking` (deduplicated note paths, best first).
    pub(super) fn record(&mut self, ranking: &[String], query: &GoldenQuery) {
        let mut gains: Gains = query
            .partial_paths
            .iter()
            .map(|p| (p.clone(), 0.5))
            .collect();
        gains.extend(query.relevant_paths.iter().map(|p| (p.clone(), 1.0)));
        self.ndcg5.push(ndcg_at(ranking, &gains, 5));
        self.mrr
            .push(reciprocal_rank(ranking, &query.relevant_paths));
        self.hit1.push(hit_at(ranking, &query.relevant_paths, 1));
        self.hit5.push(hit_at(ranking, &query.relevant_paths, 5));
    }

    /// nDCG@5, MRR@10, Hit@1 and Hit@5 over the recorded queries.
    pub(super) fn means(&self) -> [f64; 4] {
        [&self.ndcg5, &self.mrr, &self.hit1, &self.hit5].map(|v| mean(v))
    }

    /// The means as JSON.
    pub(super) fn json(&self) -> Value {
        let [ndcg5, mrr, hit1, hit5] = self.means();
        json!({"queries": self.ndcg5.len(), "ndcg_at_5": ndcg5, "mrr_at_10": mrr,
               "hit_at_1": hit1, "hit_at_5": hit5})
    }
}

/// Runs the suite: `golden` (the JSON set) over `vault`, searching in `mode`.
pub fn run(golden: &Path, vault: &Path, setup: &Setup) -> Result<Section, String> {
    let mode = setup.mode.as_str();
    let queries = load_golden(golden)?;
    let notes = vault_notes(vault)?;
    let work = WorkDir::new(setup.cache.as_deref(), "golden")?;
    let product = setup.product(&work, vault)?;
    let indexed = product.index()?;
    eprintln!(
        "golden: indexed {} in {:.0} ms: {}",
        vault.display(),
        indexed.wall_ms,
        indexed.report
    );
    let (fts, _) = Fts5::build(
        notes
            .iter()
            .map(|n| (n.path.as_str(), n.title.as_str(), n.text.as_str())),
    )?;

    // (category or "all") -> (ours, FTS5)
    let mut by_category: BTreeMap<String, (Scores, Scores)> = BTreeMap::new();
    let mut failures = Vec::new();
    for query in &queries {
        let ours = product
            .search(&query.query, mode, DEPTH)
            .unwrap_or_else(|error| {
                failures.push(format!("{}: {error}", query.id));
                Vec::new()
            });
        let theirs = fts.search(&query.query, DEPTH)?;
        let (ours, theirs) = (dedup(ours), dedup(theirs));
        for key in ["all", query.category.as_str()] {
            let (a, b) = by_category.entry(key.to_owned()).or_default();
            a.record(&ours, query);
            b.record(&theirs, query);
        }
    }
    for failure in &failures {
        eprintln!("golden: a query failed: {failure}");
    }

    let mut rows = Vec::new();
    let mut figures = serde_json::Map::new();
    let order = std::iter::once("all").chain(
        by_category
            .keys()
            .map(String::as_str)
            .filter(|k| *k != "all"),
    );
    for key in order {
        let (ours, theirs) = &by_category[key];
        for (system, scores) in [
            (format!("obsidian-tc ({mode})"), ours),
            ("FTS5".to_owned(), theirs),
        ] {
            let mut row = vec![key.to_owned(), ours.ndcg5.len().to_string(), system];
            row.extend(scores.means().map(f4));
            rows.push(row);
        }
        figures.insert(
            key.to_owned(),
            json!({"product": ours.json(), "fts5": theirs.json()}),
        );
    }
    let markdown = format!(
        "## Golden set (obsidian-help-en, {} queries, {} notes)\n\n{}\nPublished nDCG@5: \
         obsidian-hybrid-search hybrid 0.733, qmd 0.659.\n",
        queries.len(),
        notes.len(),
        table(
            &[
                "category", "queries", "system", "nDCG@5", "MRR@10", "Hit@1", "Hit@5"
            ],
            &rows
        ),
    );
    Ok(Section {
        name: "golden",
        json: json!({
            "queries": queries.len(),
            "notes": notes.len(),
            "index_report": indexed.report,
            "failed_queries": failures,
            "by_category": figures,
        }),
        markdown,
        checks: Vec::new(),
    })
}
