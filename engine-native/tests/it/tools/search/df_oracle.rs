//! The df oracle: a caller who may read only `Public/` cannot count the hidden notes that
//! share a term with a public note. The public note's lexical, semantic and hybrid scores
//! are bit-identical with no hidden note and with 60 hidden notes using its term (BM25F's
//! statistics are those of the readable notes; the fusion's z-scores are over readable
//! notes), and `coverage` counts only readable chunks.

use serde_json::{Value, json};

use crate::index::semantic::with_model;
use crate::support::dispatch::Fixture;

/// A server under `readPaths: ["Public/**"]` with three public notes and `hidden` notes in
/// `Secret/` that all mention the merger, indexed and embedded.
fn vault(hidden: usize) -> Fixture {
    let fx = with_model(json!({"acl": {"readPaths": ["Public/**"]}}));
    fx.write(
        "main",
        "Public/merger.md",
        "The merger of two clubs was signed.\n",
    );
    fx.write(
        "main",
        "Public/bread.md",
        "Flour, yeast and a hot oven make bread.\n",
    );
    fx.write(
        "main",
        "Public/memo.md",
        "A memo to the bank about the merger.\n",
    );
    for i in 0..hidden {
        fx.write(
            "main",
            &format!("Secret/{i}.md"),
            &format!("Merger plans, merger terms: the merger, draft {i}.\n"),
        );
    }
    fx.ok("index_vault", json!({}));
    fx
}

/// Each result's path with the bits of its score, lexical score and semantic score.
type ScoreBits = Vec<(String, Vec<Option<u64>>)>;

/// The bits of each score of every result of `search_vault` in `mode`, with the coverage.
fn scores(fx: &Fixture, mode: &str) -> (ScoreBits, Value) {
    let found = fx.ok("search_vault", json!({"query": "merger", "mode": mode}));
    let bits = |value: &Value| value.as_f64().map(f64::to_bits);
    let results = found["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|hit| {
            (
                hit["path"].as_str().expect("path").to_owned(),
                vec![
                    bits(&hit["score"]),
                    bits(&hit["scores"]["lexical"]),
                    bits(&hit["scores"]["semantic"]),
                ],
            )
        })
        .collect();
    (results, found["coverage"].clone())
}

#[test]
fn hidden_notes_sharing_a_term_change_no_public_score() {
    let (none, many) = (vault(0), vault(60));
    for mode in ["lexical", "semantic", "hybrid"] {
        let (alone, alone_coverage) = scores(&none, mode);
        let (crowded, crowded_coverage) = scores(&many, mode);
        assert!(
            alone.iter().any(|(path, _)| path == "Public/merger.md"),
            "{mode}: {alone:?}"
        );
        assert_eq!(alone, crowded, "{mode}: scores moved with 60 hidden notes");
        assert_eq!(alone_coverage, crowded_coverage, "{mode}");
        assert_eq!(crowded_coverage["chunks"], 3, "{mode}: {crowded_coverage}");
    }
    // The stdio caller of a server without the ACL sees the 60 notes, and the public note's
    // lexical score drops: what the ACL-exact statistics hide.
    let open = with_model(json!({}));
    for entry in std::fs::read_dir(many.vault_dir("main").join("Secret")).expect("Secret") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&path).expect("note");
        open.write("main", &format!("Secret/{name}"), &text);
    }
    open.write(
        "main",
        "Public/merger.md",
        "The merger of two clubs was signed.\n",
    );
    open.ok("index_vault", json!({}));
    let lexical = |fx: &Fixture| {
        let found = fx.ok(
            "search_vault",
            json!({"query": "merger", "mode": "lexical", "limit": 100}),
        );
        found["results"]
            .as_array()
            .expect("results")
            .iter()
            .find(|hit| hit["path"] == "Public/merger.md")
            .and_then(|hit| hit["score"].as_f64())
            .expect("the public note is found")
    };
    assert!(lexical(&open) < lexical(&none));
}
