//! The `latency` suite on a large vault (pf2e-srd, 11k notes; only read, the cache in a temp
//! folder): the full index time from an empty cache, the re-open time (a new server on the
//! same cache until its first `search_vault` answers), the top-10 query latency after a
//! warm-up, interleaved with FTS5 on the same queries, and the process's peak RSS after
//! indexing; lexically. The same vault embedded is [`super::latency_embedded`].

use std::path::Path;
use std::sync::PoisonError;
use std::time::Instant;

use serde_json::json;

use super::datasets::{latency_queries, vault_notes};
use super::fts5::Fts5;
use super::metrics::Percentiles;
use super::product::{Product, Setup, VAULT_ID};
use super::report::{Check, Section, ms, ratio, table};

/// Results per query.
const TOP: usize = 10;
/// The depth `search_vault` reads the chunk ranking to for a page of 10 (`max(4 × 11, 64)`),
/// used for the engine-only timing.
const VIEW_DEPTH: usize = 64;
/// Index time target, ms.
const INDEX_TARGET_MS: f64 = 3000.0;
/// Re-open target, ms.
const REOPEN_TARGET_MS: f64 = 300.0;
/// Query latency targets (lexical), ms.
const P50_TARGET_MS: f64 = 1.0;
const P95_TARGET_MS: f64 = 5.0;

/// What the suite needs besides the vault.
pub struct Options<'a> {
    /// How the product is set up (its mode is the embedded half's).
    pub setup: &'a Setup,
    /// How many queries.
    pub queries: usize,
    /// Their seed.
    pub seed: u64,
    /// How many timed re-opens.
    pub reopens: usize,
}

/// A `/proc/self/status` figure in MiB (`VmHWM`, `VmRSS`), when the kernel has it.
pub fn status_mib(key: &str) -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Resets the peak RSS (`VmHWM`) to the current RSS, so the peak measured afterwards is the
/// indexing's and not an earlier suite's; false where the kernel does not allow it.
pub fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Runs the suite over `vault`.
pub fn run(vault: &Path, options: &Options<'_>) -> Result<Section, String> {
    let mode = "lexical";
    let peak_reset = reset_peak_rss();
    let work = tempfile::TempDir::new().map_err(|e| format!("temp dir: {e}"))?;
    let product = Product::create(work.path(), vault, None, options.setup.search.as_deref())?;
    eprintln!("latency: index_vault of {} ...", vault.display());
    let indexed = product.index()?;
    let peak_mib = status_mib("VmHWM:");
    let rss_mib = status_mib("VmRSS:");
    eprintln!(
        "latency: indexed in {:.0} ms, peak RSS {peak_mib:?} MiB: {}",
        indexed.wall_ms, indexed.report
    );

    let notes = vault_notes(vault)?;
    let (fts, fts_index_ms) = Fts5::build(
        notes
            .iter()
            .map(|n| (n.path.as_str(), n.title.as_str(), n.text.as_str())),
    )?;
    eprintln!(
        "latency: FTS5 indexed {} notes in {fts_index_ms:.0} ms",
        notes.len()
    );
    let queries = latency_queries(&notes, options.queries, options.seed);
    drop(notes);

    let index = product
        .dispatcher()
        .runtime()
        .indexes()
        .vault(product.dispatcher().runtime().store(), VAULT_ID)
        .map_err(|e| format!("the index: {e}"))?;
    let view_search = |query: &str| {
        let start = Instant::now();
        let view = index.view.read().unwrap_or_else(PoisonError::into_inner);
        let everything = view.visible("all", &|_| true);
        std::hint::black_box(view.search(&everything, query, VIEW_DEPTH));
        start.elapsed()
    };
    eprintln!("latency: warm-up, {} queries", queries.len());
    let mut empty = 0;
    for query in &queries {
        if product.search(query, mode, TOP)?.is_empty() {
            empty += 1;
        }
        fts.search(query, TOP)?;
        view_search(query);
    }
    let (mut ours, mut theirs, mut engine) = (Vec::new(), Vec::new(), Vec::new());
    for (i, query) in queries.iter().enumerate() {
        let mut time_ours = || -> Result<(), String> {
            let start = Instant::now();
            product.search(query, mode, TOP)?;
            ours.push(start.elapsed());
            Ok(())
        };
        let mut time_theirs = || -> Result<(), String> {
            let start = Instant::now();
            fts.search(query, TOP)?;
            theirs.push(start.elapsed());
            Ok(())
        };
        if i % 2 == 0 {
            time_ours()?;
            time_theirs()?;
        } else {
            time_theirs()?;
            time_ours()?;
        }
        engine.push(view_search(query));
    }
    drop(index);

    let config_path = product.config_path().to_path_buf();
    drop(product);
    let mut reopens = Vec::new();
    for query in queries.iter().cycle().take(options.reopens) {
        let start = Instant::now();
        let server = Product::open(&config_path)?;
        server.search(query, mode, TOP)?;
        reopens.push(start.elapsed());
    }
    eprintln!("latency: re-opened {} times", reopens.len());
    let (ours, theirs, engine, reopen) = (
        Percentiles::of(&ours),
        Percentiles::of(&theirs),
        Percentiles::of(&engine),
        Percentiles::of(&reopens),
    );
    let reopen_max = reopens
        .iter()
        .map(|d| d.as_secs_f64() * 1e3)
        .fold(0.0, f64::max);
    let rows = vec![
        vec![
            format!("obsidian-tc search_vault ({mode}, dispatcher)"),
            ms(ours.p50_ms),
            ms(ours.p95_ms),
            ratio(ours.p50_ms, theirs.p50_ms),
            ratio(ours.p95_ms, theirs.p95_ms),
        ],
        vec![
            format!("  of which the lexical view alone (top {VIEW_DEPTH} chunks)"),
            ms(engine.p50_ms),
            ms(engine.p95_ms),
            ratio(engine.p50_ms, theirs.p50_ms),
            ratio(engine.p95_ms, theirs.p95_ms),
        ],
        vec![
            "SQLite FTS5 bm25 (porter unicode61)".to_owned(),
            ms(theirs.p50_ms),
            ms(theirs.p95_ms),
            "×1.00".to_owned(),
            "×1.00".to_owned(),
        ],
    ];
    let mib = |v: Option<f64>| v.map_or("n/a".to_owned(), |v| format!("{v:.0} MiB"));
    let markdown = format!(
        "## Latency ({}, {} notes indexed)\n\n{}\n{}\nTop-{TOP} queries: {} ({} with no \
         result), seed {}, titles and heading words, one warm-up pass, then interleaved.\n",
        vault.display(),
        indexed.report["added"],
        table(
            &["figure", "obsidian-tc", "FTS5 / note"],
            &[
                vec![
                    "full index from an empty cache".to_owned(),
                    ms(indexed.wall_ms),
                    ms(fts_index_ms),
                ],
                vec![
                    format!(
                        "re-open until the first search answers (median of {}, max)",
                        reopen.samples
                    ),
                    format!("{} (max {})", ms(reopen.p50_ms), ms(reopen_max)),
                    "-".to_owned()
                ],
                vec![
                    format!(
                        "peak RSS after indexing (VmHWM{})",
                        if peak_reset {
                            ", reset before"
                        } else {
                            ", whole process"
                        }
                    ),
                    mib(peak_mib),
                    format!("RSS now {}", mib(rss_mib)),
                ],
            ],
        ),
        table(
            &["query latency", "p50", "p95", "p50 / FTS5", "p95 / FTS5"],
            &rows
        ),
        queries.len(),
        empty,
        options.seed,
    );
    let mut checks = vec![
        Check::at_most("latency index ms", indexed.wall_ms, INDEX_TARGET_MS),
        Check::at_most(
            "latency re-open ms (median)",
            reopen.p50_ms,
            REOPEN_TARGET_MS,
        ),
    ];
    checks.push(Check::at_most(
        "latency query p50 ms",
        ours.p50_ms,
        P50_TARGET_MS,
    ));
    checks.push(Check::at_most(
        "latency query p95 ms",
        ours.p95_ms,
        P95_TARGET_MS,
    ));
    Ok(Section {
        name: "latency",
        json: json!({
            "vault": vault.display().to_string(),
            "index_report": indexed.report,
            "index_ms": indexed.wall_ms,
            "fts5_index_ms": fts_index_ms,
            "peak_rss_mib": peak_mib,
            "peak_rss_reset_before_indexing": peak_reset,
            "rss_mib": rss_mib,
            "reopen": reopen,
            "reopen_max_ms": reopen_max,
            "queries": queries.len(),
            "queries_without_results": empty,
            "seed": options.seed,
            "query_product": ours,
            "query_lexical_view": engine,
            "query_fts5": theirs,
        }),
        markdown,
        checks,
    })
}
