//! The embedded half of the `latency` suite: the same vault with every chunk embedded by the
//! local model (kept in `<cache>/latency-embedded`, so the slow embedding is paid once), the
//! top-10 latency of `search_vault` in a vector mode after warm-up, excluding the query's
//! embedding (each query is searched once untimed, which embeds it, then timed with its
//! vector cached), and the process's peak RSS with the vault indexed and embedded.

use std::path::Path;
use std::time::Instant;

use serde_json::{Value, json};

use super::metrics::Percentiles;
use super::product::{Setup, WorkDir};
use super::report::{Check, ms, table};

/// Results per query.
const TOP: usize = 10;
/// Hybrid query p95 target, ms (query embedding excluded).
const HYBRID_P95_TARGET_MS: f64 = 20.0;
/// Peak RSS target with the vault indexed and embedded, MiB.
const PEAK_RSS_TARGET_MIB: f64 = 400.0;

/// What the embedded run measured.
pub struct Embedded {
    /// The markdown table.
    pub markdown: String,
    /// The figures.
    pub json: Value,
    /// The targets.
    pub checks: Vec<Check>,
}

/// Runs the embedded half over `vault` with `queries` in `setup.mode`; `peak_mib` reads
/// the peak RSS since `reset` (false when it could not be reset).
pub fn run(
    vault: &Path,
    setup: &Setup,
    queries: &[String],
    reset: &dyn Fn() -> bool,
    peak_mib: &dyn Fn() -> Option<f64>,
) -> Result<Embedded, String> {
    let mode = setup.mode.as_str();
    let peak_reset = reset();
    let work = WorkDir::new(setup.cache.as_deref(), "latency-embedded")?;
    let product = setup.product(&work, vault)?;
    eprintln!("latency: index_vault with embeddings (slow the first time) ...");
    let indexed = product.index()?;
    eprintln!("latency: {}", indexed.report);
    let mut times = Vec::with_capacity(queries.len());
    for query in queries {
        product.search(query, mode, TOP)?;
        let start = Instant::now();
        product.search(query, mode, TOP)?;
        times.push(start.elapsed());
    }
    let peak = peak_mib();
    let query = Percentiles::of(&times);
    let chunks = &indexed.report["embeddings"];
    let markdown = format!(
        "\n{}",
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
    Ok(Embedded {
        markdown,
        json: json!({
            "mode": mode,
            "embeddings": chunks,
            "query": query,
            "peak_rss_mib": peak,
            "peak_rss_reset_before": peak_reset,
        }),
        checks,
    })
}
