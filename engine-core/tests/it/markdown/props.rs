//! Property tests: on any input, `extract` and `chunk` hold the invariants of
//! `support::markdown` (positions in bounds and on char boundaries, consistent line/col,
//! document order, chunks disjoint, trimmed, within budget and covering the body), and
//! nothing is ever extracted from inside a code fence.

use crate::support::markdown::{check_chunks, check_metadata};
use engine_core::markdown::{ChunkOptions, chunk_extracted, extract};
use proptest::prelude::*;

/// Fragments that mean something to the parser, so random notes exercise real syntax.
const FRAGMENTS: &[&str] = &[
    "[[",
    "]]",
    "[",
    "]",
    "(",
    ")",
    "!",
    "#",
    "# ",
    "## ",
    "^",
    " ^id-1",
    "`",
    "``",
    "```",
    "~~~",
    "$",
    "$$",
    "%%",
    "<!--",
    "-->",
    ">",
    "> ",
    "- ",
    "* ",
    "1. ",
    "2) ",
    "[ ] ",
    "[x] ",
    "[/] ",
    "|",
    "|-|",
    "---",
    "===",
    "\n",
    "\n\n",
    "\r\n",
    " ",
    "    ",
    "\t",
    "a",
    "word",
    "é",
    "日本語",
    "🎉",
    "👨\u{200d}👩",
    "\u{301}",
    "\u{a0}",
    "\u{3000}",
    "\u{feff}",
    "<div>",
    "</div>",
    "<pre>",
    "http://x/#y",
    "<https://x.y>",
    "[!note]",
    "[!tip]-",
    "+",
    "-",
    "\\",
    "_",
    "*",
    "/",
    "<",
    ":",
    "%20",
    "%",
    "[[a#b|c]]",
    "![[i.png|9]]",
    "[t](u.md#h)",
    "![a](b.png)",
    "#tag",
    "#123",
    "a#b",
];

fn note() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..80).prop_map(|parts| parts.concat())
}

fn check(text: &str) -> Result<(), TestCaseError> {
    let meta = extract(text);
    check_metadata(text, &meta).map_err(TestCaseError::fail)?;
    for options in [
        ChunkOptions::default(),
        ChunkOptions::new(1, 1).unwrap(),
        ChunkOptions::new(3, 4).unwrap(),
    ] {
        check_chunks(
            text,
            &meta,
            &chunk_extracted(text, &meta, &options),
            &options,
        )
        .map_err(TestCaseError::fail)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn markdown_like_notes_hold_the_invariants(text in note()) {
        check(&text)?;
    }

    #[test]
    fn arbitrary_text_holds_the_invariants(text in any::<String>()) {
        check(&text)?;
    }

    #[test]
    fn nothing_is_extracted_from_a_code_fence(body in note()) {
        let body = body.replace('~', "-");
        let text = format!("~~~~~~~~~~\n{body}\n~~~~~~~~~~\n");
        let meta = extract(&text);
        prop_assert!(meta.links.is_empty() && meta.embeds.is_empty() && meta.external_links.is_empty());
        prop_assert!(meta.tags.is_empty() && meta.blocks.is_empty() && meta.headings.is_empty());
        prop_assert!(meta.list_items.is_empty() && meta.callouts.is_empty());
    }
}
