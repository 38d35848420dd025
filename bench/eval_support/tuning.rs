//! The `tuning` suite: our own graded queries (bench/tuning/vault-queries.json, written before
//! any ranking was tuned on it) over several real vaults, each only read (its cache goes to a
//! temp folder, or `--cache`). The same figures as the golden set (nDCG@5, MRR@10, Hit@1,
//! Hit@5), overall, by category and by vault. Ranking choices are made on this set and on
//! SciFact train; the golden set is reported, never tuned on. Each query's top 5 go to
//! `<out>/tuning-queries.json` to read the misses.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};

use super::datasets::{GoldenQuery, load_tuning};
use super::golden::{DEPTH, Scores};
use super::metrics::dedup;
use super::product::{Setup, WorkDir};
use super::report::{Section, f4, table};

/// Runs the suite: the queries of `set` (translations take their grades from `originals`)
/// over their vaults under `vaults` (only those named in `only`, when any), searching in
/// `setup.mode`; the per-query rankings are written to `out`.
pub fn run(
    set: &Path,
    originals: &Path,
    vaults: &Path,
    setup: &Setup,
    only: &[String],
    out: &Path,
) -> Result<Section, String> {
    let mut queries = load_tuning(set, originals)?;
    if !only.is_empty() {
        queries.retain(|query| only.contains(&query.vault));
    }
    let mut by_vault: BTreeMap<&str, Vec<&GoldenQuery>> = BTreeMap::new();
    for query in &queries {
        by_vault
            .entry(query.vault.as_str())
            .or_default()
            .push(query);
    }
    let mut by_key: BTreeMap<String, Scores> = BTreeMap::new();
    let mut per_query = Vec::new();
    for (vault, queries) in &by_vault {
        let work = WorkDir::new(
            setup.cache.as_deref(),
            &format!("tuning-{}", vault.replace('/', "-")),
        )?;
        let product = setup.product(&work, &vaults.join(vault))?;
        let indexed = product.index()?;
        eprintln!("tuning: indexed {vault} in {:.0} ms", indexed.wall_ms);
        for query in queries {
            let ranking = dedup(product.search(&query.query, &setup.mode, DEPTH)?);
            for key in [
                "all".to_owned(),
                query.category.clone(),
                format!("vault {vault}"),
            ] {
                by_key.entry(key).or_default().record(&ranking, query);
            }
            per_query.push(json!({
                "id": query.id, "vault": vault, "category": query.category, "query": query.query,
                "relevant": query.relevant_paths, "partial": query.partial_paths,
                "first_relevant": ranking.iter().position(|p| query.relevant_paths.contains(p)).map(|at| at + 1),
                "top5": ranking.iter().take(5).collect::<Vec<_>>(),
            }));
        }
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let dump = out.join("tuning-queries.json");
    std::fs::write(
        &dump,
        serde_json::to_string_pretty(&per_query).unwrap_or_default(),
    )
    .map_err(|e| format!("{}: {e}", dump.display()))?;
    let order =
        std::iter::once("all").chain(by_key.keys().map(String::as_str).filter(|k| *k != "all"));
    let mut rows = Vec::new();
    let mut figures = serde_json::Map::new();
    for key in order {
        let scores = &by_key[key];
        let mut row = vec![key.to_owned(), scores.json()["queries"].to_string()];
        row.extend(scores.means().map(f4));
        rows.push(row);
        figures.insert(key.to_owned(), scores.json());
    }
    let markdown = format!(
        "## Tuning set ({} queries, {} vaults, mode {})\n\n{}",
        queries.len(),
        by_vault.len(),
        setup.mode,
        table(
            &["slice", "queries", "nDCG@5", "MRR@10", "Hit@1", "Hit@5"],
            &rows
        ),
    );
    Ok(Section {
        name: "tuning",
        json: json!({"queries": queries.len(), "by_slice": Value::Object(figures)}),
        markdown,
        checks: Vec::new(),
    })
}
