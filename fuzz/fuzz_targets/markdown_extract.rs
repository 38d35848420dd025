//! Fuzzes `extract` and `chunk` with arbitrary bytes (read as lossy UTF-8): neither may
//! panic, and every result must hold the invariants the engine-core tests check
//! (positions in bounds, on char boundaries and consistent with the text, items in document
//! order, chunks disjoint, trimmed, within budget and covering the body).
#![no_main]

use engine_core::markdown::{ChunkOptions, chunk_extracted, extract};
use libfuzzer_sys::fuzz_target;

#[path = "../../engine-core/tests/it/support/markdown.rs"]
mod markdown_support;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let meta = extract(&text);
    if let Err(why) = markdown_support::check_metadata(&text, &meta) {
        panic!("extract: {why}");
    }
    // The first two bytes pick a budget, so small budgets (and their hard splits) get fuzzed.
    let max_tokens = 1 + usize::from(data.first().copied().unwrap_or(0) % 64);
    let chars_per_token = 1 + usize::from(data.get(1).copied().unwrap_or(0) % 8);
    for options in [
        ChunkOptions::default(),
        ChunkOptions::new(max_tokens, chars_per_token).unwrap(),
    ] {
        let chunks = chunk_extracted(&text, &meta, &options);
        if let Err(why) = markdown_support::check_chunks(&text, &meta, &chunks, &options) {
            panic!("chunk {options:?}: {why}");
        }
    }
});
