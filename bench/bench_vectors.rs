//! Exact vector search benchmark: `VectorMatrix::top_k` against sqlite-vec's `vec0` KNN on the
//! same 100,000 × 384 seeded random unit vectors, in the same run, queries interleaved.
//!
//! Run: `cargo run --release -p bench --bin bench_vectors [-- --check]`
//! (`--rows N`, `--queries N` change the size). Prints the insert and load times, the matrix's
//! memory, the median and p95 of both searches (and of the scan kept on one thread) and their
//! ratio, and whether all return the same top-10 ids. `--check` exits 1 when the scan's median is above 15 ms or the ids differ.

// Shared with the tests; the bench does not use every helper.
#[allow(dead_code)]
#[path = "../engine-native/tests/it/support/vectors/random.rs"]
mod random;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use obsidian_tc::store::{IdempotencyPolicy, Store};
use obsidian_tc::vectors::{NoteFilter, VectorRow, VectorStore};
use random::Rng;

const SET: &str = "bench/random/384";
const DIMS: usize = 384;
const K: usize = 10;
const TARGET: Duration = Duration::from_millis(15);
const CHUNKS_PER_NOTE: usize = 3;

struct Options {
    rows: usize,
    queries: usize,
    check: bool,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        rows: 100_000,
        queries: 50,
        check: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |name: &str| -> Result<usize, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .filter(|n| *n > 0)
                .ok_or(format!("{name} needs a positive number"))
        };
        match arg.as_str() {
            "--check" => options.check = true,
            "--rows" => options.rows = number("--rows")?,
            "--queries" => options.queries = number("--queries")?,
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(options)
}

/// The value at quantile `q` of sorted `times`.
fn quantile(times: &[Duration], q: f64) -> Duration {
    let index = ((times.len() - 1) as f64 * q).round() as usize;
    times[index]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn run(options: &Options) -> Result<bool, Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let store = Store::open(&dir.path().join("cache.db"), IdempotencyPolicy::default())?;
    let vectors = VectorStore::new(&store);
    vectors.ensure_set(SET, DIMS)?;

    let mut rng = Rng::new(0x5EED);
    let started = Instant::now();
    let batch = 10_000;
    for first in (0..options.rows).step_by(batch) {
        let owned: Vec<(usize, Vec<f32>)> = (first..(first + batch).min(options.rows))
            .map(|i| (i, rng.unit_vector(DIMS)))
            .collect();
        let rows: Vec<VectorRow<'_>> = owned
            .iter()
            .map(|(i, vector)| VectorRow {
                chunk_id: *i as i64,
                vault_id: "bench",
                note_key: (i / CHUNKS_PER_NOTE) as u32,
                vector,
            })
            .collect();
        vectors.put_batch(SET, &rows)?;
    }
    println!(
        "generate + insert {} x {DIMS} into sqlite-vec: {:.0} ms",
        options.rows,
        ms(started.elapsed())
    );

    let started = Instant::now();
    let matrix = vectors.load(SET)?.ok_or("the set vanished")?;
    println!(
        "load into VectorMatrix: {:.0} ms; matrix memory {:.1} MB ({} bytes, vectors alone {} bytes)",
        ms(started.elapsed()),
        matrix.memory_bytes() as f64 / 1e6,
        matrix.memory_bytes(),
        std::mem::size_of_val(matrix.rows())
    );

    // Every note allowed, through the bitmap a real query would build.
    let notes = options.rows.div_ceil(CHUNKS_PER_NOTE) as u32;
    let filter = NoteFilter::from_keys(0..notes);
    let queries: Vec<Vec<f32>> = (0..options.queries)
        .map(|_| rng.unit_vector(DIMS))
        .collect();
    // Warm-up, not timed.
    matrix.top_k(&queries[0], K, &filter)?;
    vectors.knn_sqlite_vec(SET, &queries[0], K)?;

    let (mut scan, mut knn, mut mismatches) = (Vec::new(), Vec::new(), 0);
    let mut sequential = Vec::new();
    for query in &queries {
        let started = Instant::now();
        let ours = matrix.top_k(query, K, &filter)?;
        scan.push(started.elapsed());
        let started = Instant::now();
        let alone = matrix.top_k_on(query, K, &filter, 1)?;
        sequential.push(started.elapsed());
        if alone != ours {
            mismatches += 1;
            eprintln!("the split scan differs from the sequential one: {ours:?} vs {alone:?}");
        }
        let started = Instant::now();
        let theirs = vectors.knn_sqlite_vec(SET, query, K)?;
        knn.push(started.elapsed());
        let ours: Vec<i64> = ours.iter().map(|r| r.0).collect();
        let theirs: Vec<i64> = theirs.iter().map(|r| r.0).collect();
        if ours != theirs {
            mismatches += 1;
            eprintln!("top-{K} ids differ: scan {ours:?}, sqlite-vec {theirs:?}");
        }
    }
    scan.sort();
    knn.sort();
    sequential.sort();
    let (scan_median, knn_median) = (quantile(&scan, 0.5), quantile(&knn, 0.5));
    println!(
        "VectorMatrix::top_k(k={K}): median {:.2} ms, p95 {:.2} ms",
        ms(scan_median),
        ms(quantile(&scan, 0.95))
    );
    println!(
        "  the same scan on one thread: median {:.2} ms, p95 {:.2} ms",
        ms(quantile(&sequential, 0.5)),
        ms(quantile(&sequential, 0.95))
    );
    println!(
        "sqlite-vec vec0 KNN (k={K}): median {:.2} ms, p95 {:.2} ms",
        ms(knn_median),
        ms(quantile(&knn, 0.95))
    );
    println!(
        "ratio sqlite-vec / scan (median): {:.1}x",
        knn_median.as_secs_f64() / scan_median.as_secs_f64()
    );
    println!(
        "same top-{K} ids: {}/{} queries",
        options.queries - mismatches,
        options.queries
    );
    let met = scan_median <= TARGET && mismatches == 0;
    println!(
        "target (scan median <= {} ms, identical ids): {}",
        TARGET.as_millis(),
        if met { "met" } else { "MISSED" }
    );
    Ok(met)
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("bench_vectors: {message}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(met) if met || !options.check => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("bench_vectors: {e}");
            ExitCode::from(2)
        }
    }
}
