//! Hostile inputs: `extract` and `chunk` stay (near) linear. Each input is a couple of
//! hundred kilobytes; a quadratic path would take minutes, so a generous time bound
//! catches it without being flaky on a busy machine.

use std::time::{Duration, Instant};

use crate::support::markdown::{check_chunks, check_metadata};
use engine_core::markdown::{ChunkOptions, chunk_extracted, extract, frontmatter_of};

const SIZE: usize = 200_000;

fn repeat(unit: &str) -> String {
    unit.repeat(SIZE / unit.len())
}

fn hostile_inputs() -> Vec<(&'static str, String)> {
    vec![
        ("100k-plus open brackets", repeat("[")),
        ("wikilink openers", repeat("[[")),
        ("wikilink closers", repeat("]]")),
        ("embed openers", repeat("![[")),
        ("unclosed markdown links", repeat("[a](")),
        ("unclosed link titles", repeat("[a](b \"")),
        ("nested parentheses", format!("[a]({}", "(".repeat(SIZE))),
        (
            "brackets then closers",
            format!("{}{}", "[".repeat(SIZE / 2), "](".repeat(SIZE / 4)),
        ),
        (
            "10k nested quotes then lazy lines",
            format!("{} x\n{}", ">".repeat(10_000), "y\n".repeat(SIZE / 2)),
        ),
        (
            "quotes deepening line by line",
            (1..600).map(|i| ">".repeat(i) + " [!note]\n").collect(),
        ),
        (
            "backtick runs of every length",
            (1..600).map(|i| "`".repeat(i) + " ").collect(),
        ),
        ("unclosed inline math", repeat("$a ")),
        ("unclosed display math", repeat("$$ ")),
        ("unclosed html comments", repeat("<!-- ")),
        ("html comments on every line", repeat("<!--\n")),
        ("comment toggles", repeat("%% ")),
        ("hashes", repeat("#")),
        ("chained tags", repeat("#a")),
        ("autolink openers", repeat("<http:")),
        (
            "deeply nested list",
            (0..400).map(|i| " ".repeat(i * 2) + "- [ ] x\n").collect(),
        ),
        ("flat task list", repeat("- [x] a ^b\n")),
        ("headings", repeat("# h\n")),
        ("fences", repeat("```\n")),
        (
            "table rows",
            format!("|a|b|\n|-|-|\n{}", repeat("|#x|[[y]]|\n")),
        ),
        ("one long line", repeat("word ")),
        (
            "combining marks",
            format!("e{}", "\u{301}".repeat(SIZE / 2)),
        ),
        ("emoji", repeat("👨\u{200d}👩\u{200d}👧 #😀 ")),
    ]
}

#[test]
fn hostile_inputs_are_handled_in_near_linear_time() {
    let options = ChunkOptions::new(16, 4).unwrap();
    for (name, text) in hostile_inputs() {
        let started = Instant::now();
        let meta = extract(&text);
        let chunks = chunk_extracted(&text, &meta, &options);
        let took = started.elapsed();
        assert!(took < Duration::from_secs(10), "{name}: {took:?}");
        check_metadata(&text, &meta).unwrap_or_else(|e| panic!("{name}: {e}"));
        check_chunks(&text, &meta, &chunks, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn empty_and_whitespace_inputs_give_empty_results() {
    for text in ["", "\n", "   \n\t\n", "\u{feff}", "\r\n\r\n"] {
        let meta = extract(text);
        assert!(
            meta.sections.is_empty() && meta.frontmatter.is_none(),
            "{text:?}"
        );
        assert!(
            chunk_extracted(text, &meta, &ChunkOptions::default()).is_empty(),
            "{text:?}"
        );
    }
}

#[test]
fn frontmatter_of_finds_the_block_extract_finds() {
    let texts = [
        "---\na: 1\n---\nbody\n",
        "\u{feff}---\r\na: 1\r\n---\r\nbody",
        "---\na: 1\n",
        "---\n---\n",
        "text\n---\na: 1\n---\n",
        "--- \na: 1\n--- \n",
        "---\na: |\n  ---\n---\nafter",
        "",
    ];
    for text in texts {
        assert_eq!(frontmatter_of(text), extract(text).frontmatter, "{text:?}");
    }
    for (name, text) in hostile_inputs() {
        assert_eq!(frontmatter_of(&text), extract(&text).frontmatter, "{name}");
    }
}
