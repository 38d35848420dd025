//! The cost of the content-safety scans on a real vault, and what they find there: the
//! prompt-injection flags `read_note` and `search_vault` compute
//! (`obsidian_tc::content::injection`) and the credential scan run before chunks go to a
//! remote embedding provider (`obsidian_tc::content::secrets`). The vault is only read.
//!
//! ```text
//! cargo run --release -p bench --bin bench_content -- [/work/shared/vaults/pf2e-srd] [--expect-clean]
//! ```
//!
//! With `--expect-clean` (CI, on a vault without attacks or credentials) it fails when any
//! note is flagged or any credential found.
//!
//! Prints the time per note (p50, p99, max) and the throughput over every note; the time on
//! the largest note and on a 1 MiB note (the largest repeated); the time per section (the
//! text between headings, about a search hit's chunk) and so per 10-hit search page; and how
//! many notes each flag and each credential class fires on (on a vault without attacks, each
//! is a false positive to read).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use obsidian_tc::content::injection::ContentFlags;
use obsidian_tc::content::secrets::find_secrets;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let expect_clean = args.iter().any(|arg| arg == "--expect-clean");
    let vault = args
        .iter()
        .find(|arg| !arg.starts_with("--"))
        .cloned()
        .unwrap_or_else(|| "/work/shared/vaults/pf2e-srd".to_owned());
    let mut paths = Vec::new();
    markdown_files(Path::new(&vault), &mut paths)?;
    let notes: Vec<(PathBuf, String)> = paths
        .into_iter()
        .filter_map(|path| std::fs::read_to_string(&path).ok().map(|text| (path, text)))
        .collect();
    let bytes: usize = notes.iter().map(|(_, text)| text.len()).sum();
    println!(
        "{}: {} notes, {:.1} MB",
        vault,
        notes.len(),
        bytes as f64 / 1e6
    );

    // The patterns compile on first use, once per process.
    let started = Instant::now();
    drop(ContentFlags::of("warm up"));
    drop(find_secrets("warm up"));
    println!(
        "compiling the patterns (once per process): {:.1} ms",
        ms(started)
    );

    let mut flag_times = Vec::with_capacity(notes.len());
    let mut secret_times = Vec::with_capacity(notes.len());
    let mut flagged: BTreeMap<String, usize> = BTreeMap::new();
    let mut classes: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (path, text) in &notes {
        let started = Instant::now();
        let flags = ContentFlags::of(text);
        flag_times.push(ms(started));
        for flag in &flags.content_flags {
            let name = format!("{flag:?}");
            *flagged.entry(name).or_default() += 1;
            println!("  flagged {flag:?}: {}", path.display());
        }
        let started = Instant::now();
        let secrets = find_secrets(text);
        secret_times.push(ms(started));
        for secret in &secrets {
            *classes.entry(secret.class.name()).or_default() += 1;
        }
    }
    report("injection flags per note", &mut flag_times, bytes);
    report("credential scan per note", &mut secret_times, bytes);
    println!("notes flagged, by flag: {flagged:?}");
    println!("credentials found, by class: {classes:?}");
    if expect_clean && !(flagged.is_empty() && classes.is_empty()) {
        return Err(
            "--expect-clean: the vault should have no flagged note and no credential".into(),
        );
    }

    let (largest_path, largest) = notes
        .iter()
        .max_by_key(|(_, text)| text.len())
        .ok_or("the vault has no notes")?;
    let mut big = largest.clone();
    while big.len() < 1 << 20 {
        big.push_str(largest);
    }
    for (what, text) in [
        (
            format!("largest note ({})", largest_path.display()),
            largest.as_str(),
        ),
        ("a 1 MiB note".to_owned(), big.as_str()),
    ] {
        let flags = median_ms(|| drop(ContentFlags::of(text)));
        let secrets = median_ms(|| drop(find_secrets(text)));
        println!(
            "{what}, {:.0} KB: injection flags {flags:.2} ms, credential scan {secrets:.2} ms (median of 21)",
            text.len() as f64 / 1e3
        );
    }

    let sections: Vec<&str> = notes.iter().flat_map(|(_, text)| sections(text)).collect();
    let mut section_times: Vec<f64> = sections
        .iter()
        .map(|text| {
            let started = Instant::now();
            drop(ContentFlags::of(text));
            ms(started)
        })
        .collect();
    let section_bytes: usize = sections.iter().map(|s| s.len()).sum();
    let mean = section_times.iter().sum::<f64>() / section_times.len().max(1) as f64;
    report(
        "injection flags per section",
        &mut section_times,
        section_bytes,
    );
    println!(
        "a 10-hit search page flags 10 chunks: {:.3} ms at the mean section, {:.3} ms at p99",
        10.0 * mean,
        10.0 * quantile(&section_times, 0.99)
    );
    Ok(())
}

/// The `.md` files under `dir`, skipping dot folders (`.obsidian`, `.trash`).
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            markdown_files(&path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "md") {
            out.push(path);
        }
    }
    Ok(())
}

/// `text` cut before each heading line.
fn sections(text: &str) -> Vec<&str> {
    let mut cuts = vec![0];
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if at > 0 && line.starts_with('#') {
            cuts.push(at);
        }
        at += line.len();
    }
    cuts.push(text.len());
    cuts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

fn median_ms(mut run: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..21)
        .map(|_| {
            let started = Instant::now();
            run();
            ms(started)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() as f64 * q).ceil() as usize)
        .saturating_sub(1)
        .min(sorted.len() - 1)]
}

/// Prints p50, p99, max and the throughput of `times` over `bytes`.
fn report(what: &str, times: &mut [f64], bytes: usize) {
    times.sort_by(f64::total_cmp);
    let total: f64 = times.iter().sum();
    println!(
        "{what}: p50 {:.3} ms, p99 {:.3} ms, max {:.2} ms; {:.0} ms in all, {:.0} MB/s",
        quantile(times, 0.5),
        quantile(times, 0.99),
        times[times.len() - 1],
        total,
        bytes as f64 / 1e3 / total.max(1e-9)
    );
}
