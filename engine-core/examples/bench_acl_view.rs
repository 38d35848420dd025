//! The cost of ACL-exact ranking on a real vault: BM25F searches over the whole index (what
//! every caller got before) against searches through a [`Visible`] view (the statistics of
//! the notes a caller may read), with no restriction and with a folder ACL, and the time to
//! build a view (what a cache miss costs: the server keeps one per ACL view until the index
//! changes).
//!
//! ```text
//! cargo run --release -p obsidian-tc-core --example bench_acl_view -- \
//!     ../shared/vaults/pf2e-srd [readable folder prefix, default "rules/"] [rounds, default 5]
//! ```
//!
//! Notes are chunked and indexed as the server indexes them (frontmatter properties left
//! out: this measures ranking, not YAML). Queries: the title of every 25th note. Printed:
//! median milliseconds per query of each way over the rounds, and the view build times.

use std::path::Path;
use std::time::Instant;

use engine_core::markdown::{ChunkOptions, chunk_extracted, extract, note_fields, note_text};
use engine_core::rank::{Bm25Params, Document, LexicalIndex, Visible, chunk_key};
use engine_core::text::AnalyzerSettings;
use serde_json::Map;

/// Every Markdown file under `dir`, as (vault-relative path, text), sorted by path.
fn notes(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            notes(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "md")
            && let Ok(text) = std::fs::read_to_string(&path)
        {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            out.push((rel.to_string_lossy().replace('\\', "/"), text));
        }
    }
}

/// Median of `samples`, milliseconds.
fn median_ms(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let vault = Path::new(
        args.first()
            .map_or("../shared/vaults/pf2e-srd", String::as_str),
    );
    let prefix = args.get(1).cloned().unwrap_or_else(|| "rules/".to_owned());
    let rounds: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(5);
    let mut files = Vec::new();
    notes(vault, vault, &mut files);
    files.sort();
    let mut index = LexicalIndex::new(AnalyzerSettings::default(), Bm25Params::default())
        .expect("default parameters");
    let mut queries = Vec::new();
    for (at, (path, raw)) in files.iter().enumerate() {
        let read = note_text(raw);
        let meta = extract(&read.text);
        let fields = note_fields(path, &meta, &Map::new());
        if at % 25 == 0 {
            queries.push(fields.title.clone());
        }
        for chunk in chunk_extracted(&read.text, &meta, &ChunkOptions::default()) {
            let doc = Document {
                title: fields.title.clone(),
                aliases: fields.aliases.clone(),
                headings: chunk.headings,
                tags: fields.tags.clone(),
                body: chunk.text,
            };
            let ordinal = u32::try_from(chunk.index).unwrap_or(u32::MAX);
            // A chunk the index refuses (a field over the term limit) is left out, as the
            // server leaves it out.
            let _ = index.upsert(&chunk_key(path, ordinal), &doc);
        }
    }
    let build = |admits: &dyn Fn(&str) -> bool| {
        let started = Instant::now();
        let view = index.visible_notes(&mut |path| admits(path));
        (view, started.elapsed().as_secs_f64() * 1e3)
    };
    let (everything, all_ms) = build(&|_| true);
    let (restricted, acl_ms) = build(&|path: &str| path.starts_with(prefix.as_str()));
    println!(
        "{} notes, {} chunks, {} queries; readable under the ACL: {} chunks ({prefix}*)",
        files.len(),
        index.len(),
        queries.len(),
        restricted.len()
    );
    println!("view build (a cache miss): all {all_ms:.2} ms, ACL {acl_ms:.2} ms");
    let time = |search: &dyn Fn(&str)| {
        let mut samples = Vec::new();
        for _ in 0..rounds {
            for query in &queries {
                let started = Instant::now();
                search(query);
                samples.push(started.elapsed().as_secs_f64() * 1e3);
            }
        }
        median_ms(samples)
    };
    let index = &index;
    let through = |view: &Visible, query: &str| {
        std::hint::black_box(
            index
                .search_visible(view, query, 100)
                .expect("current view"),
        );
    };
    let whole = time(&|query: &str| {
        std::hint::black_box(index.search(query, 100));
    });
    let all = time(&|query: &str| through(&everything, query));
    let acl = time(&|query: &str| through(&restricted, query));
    println!(
        "median per query (top 100): whole index {whole:.3} ms, view of all {all:.3} ms, ACL view {acl:.3} ms"
    );
}
