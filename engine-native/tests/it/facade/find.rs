//! `find_capability` over the caller-visible catalog: a fixed set of natural-language
//! intents (tests/fixtures/intents.json, worded as a user would, not copied from the
//! descriptions) must find their tool first.
//!
//! Accuracy: `cargo test -p obsidian-tc --test it facade::find -- --nocapture`.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

/// The least share of intents whose tool must come first (measured 0.918 with keywords and
/// filler-word removal over the tools before issue 6, 0.898 over the 108 after it, where
/// `rename_tag` / `get_note_tags` now compete for "rename a note" / "metadata of a note";
/// 0.837 before keywords; the goal was 0.85).
const TOP1_FLOOR: f64 = 0.89;

/// The least share of intents whose tool must be among the first three (measured 0.980;
/// 0.898 before; the goal was 0.95).
const TOP3_FLOOR: f64 = 0.97;

/// The least share of held-out intents whose tool must come first (measured 0.750; 0.389
/// before keywords).
const HELD_OUT_TOP1_FLOOR: f64 = 0.74;

/// The least share of held-out intents whose tool must be among the first three (measured
/// 0.861 over the tools before issue 6, 0.833 over the 108 after it; 0.528 before keywords).
const HELD_OUT_TOP3_FLOOR: f64 = 0.83;

#[derive(Deserialize)]
struct Intent {
    intent: String,
    tool: String,
}

fn names(found: &Value) -> Vec<String> {
    found["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|item| item["name"].as_str().expect("name").to_owned())
        .collect()
}

/// The share of `intents` (JSON, as in tests/fixtures/intents.json) whose tool comes first,
/// and the share whose tool is among the first three; prints each miss and the figures.
fn accuracy(label: &str, intents: &str) -> (f64, f64) {
    let intents: Vec<Intent> = serde_json::from_str(intents).expect(label);
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    let (mut top1, mut top3) = (0, 0);
    for intent in &intents {
        let found = names(&fx.ok(
            "find_capability",
            json!({"query": intent.intent, "limit": 3}),
        ));
        if found.first() == Some(&intent.tool) {
            top1 += 1;
        } else {
            println!(
                "{label} miss: {:?} wants {} got {found:?}",
                intent.intent, intent.tool
            );
        }
        if found.contains(&intent.tool) {
            top3 += 1;
        }
    }
    let total = intents.len() as f64;
    let (top1, top3) = (f64::from(top1) / total, f64::from(top3) / total);
    println!("find_capability over {total} {label} intents: top-1 {top1:.3}, top-3 {top3:.3}");
    (top1, top3)
}

#[test]
fn intents_find_their_tool() {
    let (top1, top3) = accuracy("tuning", include_str!("../../fixtures/intents.json"));
    assert!(top1 >= TOP1_FLOOR, "top-1 {top1:.3}");
    assert!(top3 >= TOP3_FLOOR, "top-3 {top3:.3}");
}

/// The held-out intents (tests/fixtures/intents-heldout.json) were written before the
/// ranking changed, and no weight was chosen on them: they measure how well it generalises.
#[test]
fn held_out_intents_find_their_tool() {
    let (top1, top3) = accuracy(
        "held-out",
        include_str!("../../fixtures/intents-heldout.json"),
    );
    assert!(top1 >= HELD_OUT_TOP1_FLOOR, "top-1 {top1:.3}");
    assert!(top3 >= HELD_OUT_TOP3_FLOOR, "top-3 {top3:.3}");
}

#[test]
fn results_carry_name_title_description_domain_score_best_first() {
    let fx = Fixture::new(json!({}));
    let found = fx.ok("find_capability", json!({"query": "rename a note"}));
    let results = found["results"].as_array().expect("results");
    assert!(!results.is_empty() && results.len() <= 10);
    let first = &results[0];
    for key in ["name", "title", "description", "domain"] {
        assert!(first[key].is_string(), "{key}: {first}");
    }
    let scores: Vec<f64> = results
        .iter()
        .map(|r| r["score"].as_f64().expect("score"))
        .collect();
    assert!(
        scores.windows(2).all(|pair| pair[0] >= pair[1]),
        "{scores:?}"
    );
    assert!(!first["description"].as_str().unwrap().contains(". "));
    let none = fx.ok("find_capability", json!({"query": "zzzqqq"}));
    assert_eq!(none["results"], json!([]));
}

/// Only what the caller is shown is searched: hidden, disabled and scope-denied tools and
/// the facade's own never come back.
#[test]
fn only_the_callers_visible_catalog_is_searched() {
    let fx =
        Fixture::new(json!({"toolVisibility": {"hide": ["copy_note"], "disable": ["move_note"]}}));
    let all = names(&fx.ok(
        "find_capability",
        json!({"query": "note copy move rename capability tool", "limit": 50}),
    ));
    assert!(
        !all.iter().any(|name| name == "copy_note"
            || name == "move_note"
            || name.ends_with("_capability")),
        "{all:?}"
    );
    let reader = caller("alice", &["read:notes"], None);
    let found = fx.call(
        &reader,
        "find_capability",
        json!({"query": "delete a note", "limit": 50}),
    );
    let found = names(&found.result.expect("find"));
    assert!(!found.contains(&"delete_note".to_owned()), "{found:?}");
    assert!(found.contains(&"read_note".to_owned()), "{found:?}");
}
