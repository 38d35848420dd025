//! `find_existing_page`: the 20 topics of `tests/fixtures/wiki-topics/topics.json` (written
//! before the tool) each get their expected verdict with the test model's vectors; without
//! embeddings `semantic.checked` is false and identity still decides; hidden pages are
//! never candidates.

use serde_json::{Value, json};

use super::{fixture_dir, wiki, with_model};
use crate::support::dispatch::caller;

fn topics() -> Vec<Value> {
    let text = std::fs::read_to_string(fixture_dir().join("topics.json")).expect("topics");
    let file: Value = serde_json::from_str(&text).expect("json");
    file["topics"].as_array().expect("topics").clone()
}

#[test]
fn the_twenty_topics_get_their_expected_verdicts() {
    let fx = wiki(with_model());
    let mut mismatches = Vec::new();
    let all = topics();
    for expected in &all {
        let topic = expected["topic"].as_str().expect("topic");
        let found = fx.ok("find_existing_page", json!({"topic": topic}));
        assert_eq!(
            found["semantic"]["checked"],
            json!(!topic.starts_with('Q')),
            "{topic}: {found}"
        );
        let verdict = found["verdict"].as_str().expect("verdict");
        let page_ok = expected
            .get("path")
            .is_none_or(|path| found["next"]["paths"][0] == *path);
        println!(
            "{topic:45} expected {:9} got {verdict:9} {}",
            expected["verdict"], found["candidates"]
        );
        if verdict != expected["verdict"] || !page_ok {
            mismatches.push(format!("{topic}: expected {expected}, got {found}"));
        }
    }
    println!(
        "{} of {} topics match",
        all.len() - mismatches.len(),
        all.len()
    );
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}

#[test]
fn evidence_names_its_kind_and_strength() {
    let fx = wiki(json!({}));
    let found = fx.ok(
        "find_existing_page",
        json!({"topic": "Schwarzschild object"}),
    );
    assert_eq!(found["verdict"], "exists");
    assert_eq!(found["candidates"][0]["path"], "Wiki/Black Hole.md");
    assert_eq!(found["candidates"][0]["strength"], "strong");
    assert_eq!(found["candidates"][0]["evidence"][0]["kind"], "alias");
    assert_eq!(found["next"]["action"], "link_to_existing");
    let soft = fx.ok(
        "find_existing_page",
        json!({"topic": "the ocean breathing"}),
    );
    assert_eq!(soft["verdict"], "ambiguous");
    assert_eq!(soft["candidates"][0]["path"], "Wiki/Tide.md");
    assert_eq!(soft["candidates"][0]["strength"], "soft");
    assert_eq!(soft["candidates"][0]["evidence"][0]["kind"], "link_text");
    assert_eq!(
        soft["candidates"][0]["evidence"][0]["source"],
        "Journal/2026-01-01.md"
    );
    let two = fx.ok("find_existing_page", json!({"topic": "Mercury"}));
    assert_eq!(two["verdict"], "ambiguous");
    assert_eq!(two["total"], 2);
    assert_eq!(two["next"]["action"], "review_candidates");
}

#[test]
fn without_embeddings_semantic_is_unchecked_and_never_an_error() {
    let fx = wiki(json!({}));
    let found = fx.ok(
        "find_existing_page",
        json!({"topic": "Knitting patterns for wool socks"}),
    );
    assert_eq!(found["verdict"], "new");
    assert_eq!(found["semantic"]["checked"], false);
    assert!(
        found["semantic"]["reason"]
            .as_str()
            .expect("reason")
            .contains("embedding")
    );
    assert_eq!(found["judge"]["used"], false);
    assert_eq!(found["next"]["tool"], "draft_wiki_page");
}

#[test]
fn a_page_the_caller_may_not_read_is_never_a_candidate() {
    let fx = wiki(json!({"acl": {"readPaths": ["Journal/**", "Wiki/Tide.md"]}}));
    let reader = caller("agent", &["read:notes"], None);
    let found = fx
        .call(
            &reader,
            "find_existing_page",
            json!({"topic": "Wiki/Black Hole.md"}),
        )
        .result
        .expect("find");
    assert_eq!(found["verdict"], "new", "{found}");
    let text = found.to_string();
    assert!(!text.contains("Black Hole"), "{text}");
    let tide = fx
        .call(&reader, "find_existing_page", json!({"topic": "tide"}))
        .result
        .expect("find");
    assert_eq!(tide["verdict"], "exists");
}
