//! The `latency-embedded` suite: pf2e-srd indexed and embedded with a local model (kept in
//! `<cache>/latency-embedded`, so the slow embedding is paid once), the top-10 latency of
//! `search_vault` in a vector mode after warm-up, excluding the query's embedding (each query
//! is searched once untimed, which embeds it, then timed with its vector cached), and the
//! process's peak RSS with the vault indexed and embedded. It runs alone in its process
//! (`eval_search` refuses it beside another suite): a suite run before it would leave its own
//! memory resident under the peak.

use std::path::Path;
use std::time::Instant;

use serde_json::json;

use super::datasets::{latency_queries, vault_notes};
use super::latency::{reset_peak_rss, status_mib};
use super::metrics::Percentiles;
use super::product::{Setup, WorkDir};
use super::report::{Check, Section, ms, table};

/// Results per query.
const TOP: usize = 10;
/// Hybrid query p95 target, ms (query embedding excluded).
const HYBRID_P95_TARGET_MS: f64 = 20.0;
/// Peak RSS target with the vault indexed and embedded: 400 MB, in MiB.
const PEAK_RSS_TARGET_MIB: f64 = 400e6 / 1_048_576.0;

/// Runs the suite over `vault` with `queries` latency queries drawn with `seed` (the
/// `latency` suite's), in `setup.mode`.
pub fn run(vault: &Path, setup: &Setup, queries: usize, seed: u64) -> Result<Section, String> {
    let queries = latency_queries(&vault_notes(vault)?, queries, seed);
    let mode = setup.mode.as_str();
    let peak_reset = reset_peak_rss();
    // What the harness holds before the product starts (its code, the query list, and the
    // pages of the notes they were drawn from that the allocator keeps for reuse): under the
    // peak too, though the product reuses the kept pages (returning them first with
    // mimalloc's `mi_collect` left the peak as it was).
    let before = status_mib("VmRSS:");
    let work = WorkDir::new(setup.cache.as_deref(), "latency-embedded")?;
    let product = setup.product(&work, vault)?;
    eprintln!("latency: index_vault with embeddings (slow the first time) ...");
    let indexed = product.index()?;
    eprintln!("latency: {}", indexed.report);
    let mut times = Vec::with_capacity(queries.len());
    for query in &queries {
        product.search(query, mode, TOP)?;
        let start = Instant::now();
        product.search(query, mode, TOP)?;
        times.push(start.elapsed());
    }
    let peak = status_mib("VmHWM:");
    let query = Percentiles::of(&times);
    let chunks = &indexed.report["embeddings"];
    let markdown = format!(
        "## Latency, embedded ({}, {} queries, seed {seed})\n\n{}",
        vault.display(),
        queries.len(),
        table(
            &["embedded vault", "value"],
            &[
                vec!["chunks embedded".to_owned(), chunks.to_string()],
                vec![
                    format!("search_vault ({mode}) top-{TOP} p50 / p95, query embedding excluded"),
                    format!("{} / {}", ms(query.p50_ms), ms(query.p95_ms)),
                ],
                vec![
                    format!(
                        "peak RSS indexed and embedded (VmHWM{})",
                        if peak_reset {
                            ", reset before"
                        } else {
                            ", whole process"
                        }
                    ),
                    peak.map_or("n/a".to_owned(), |v| format!("{v:.0} MiB")),
                ],
                vec![
                    "RSS before the product started (the harness's own)".to_owned(),
                    before.map_or("n/a".to_owned(), |v| format!("{v:.0} MiB")),
                ],
            ],
        )
    );
    let mut checks = Vec::new();
    if mode == "hybrid" {
        checks.push(Check::at_most(
            "latency hybrid p95 ms (query embedding excluded)",
            query.p95_ms,
            HYBRID_P95_TARGET_MS,
        ));
    }
    if let Some(peak) = peak {
        checks.push(Check::at_most(
            "latency peak RSS MiB (indexed and embedded)",
            peak,
            PEAK_RSS_TARGET_MIB,
        ));
    }
    Ok(Section {
        name: "latency-embedded",
        markdown,
        json: json!({
            "vault": vault.display().to_string(),
            "queries": queries.len(),
            "seed": seed,
            "mode": mode,
            "embeddings": chunks,
            "query": query,
            "peak_rss_mib": peak,
            "peak_rss_reset_before": peak_reset,
            "rss_before_mib": before,
        }),
        checks,
    })
}
