//! `search_regex` through the real dispatcher: pattern matches per line, the case flag,
//! invalid and oversized patterns, and the compute budget (which fails with
//! `compute_budget_exceeded` and changes nothing).

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

fn fixture() -> Fixture {
    Fixture::new(json!({"throttle": {"enabled": false}}))
}

fn lines(found: &Value) -> Vec<(String, u64)> {
    found["hits"]
        .as_array()
        .expect("hits")
        .iter()
        .map(|h| {
            (
                h["path"].as_str().expect("path").to_owned(),
                h["line"].as_u64().expect("line"),
            )
        })
        .collect()
}

#[test]
fn matches_lines_with_anchors_and_highlights() {
    let fx = fixture();
    fx.write(
        "main",
        "tasks.md",
        "- [ ] buy milk\n- [x] call Bob\ntext - [ ] not a task\n",
    );
    fx.write(
        "main",
        "dates.md",
        "Due 2026-01-05 and 2026-02-10.\nno date\n",
    );
    fx.ok("index_vault", json!({}));
    let open = fx.ok("search_regex", json!({"pattern": r"^- \[ \]"}));
    assert_eq!(lines(&open), [("tasks.md".to_owned(), 1)]);
    let dates = fx.ok("search_regex", json!({"pattern": r"\d{4}-\d{2}-\d{2}"}));
    assert_eq!(dates["matches"], 2);
    let hit = &dates["hits"][0];
    let text = hit["text"]["text"].as_str().expect("text");
    let marked: Vec<&str> = hit["text"]["highlights"]
        .as_array()
        .expect("highlights")
        .iter()
        .map(|r| &text[r[0].as_u64().unwrap() as usize..r[1].as_u64().unwrap() as usize])
        .collect();
    assert_eq!(marked, ["2026-01-05", "2026-02-10"]);
    let bob = fx.ok("search_regex", json!({"pattern": "BOB"}));
    assert_eq!(bob["matches"], 1);
    let strict = fx.ok(
        "search_regex",
        json!({"pattern": "BOB", "case_sensitive": true}),
    );
    assert_eq!(strict["matches"], 0);
}

#[test]
fn an_invalid_pattern_is_invalid_input_saying_what_is_wrong() {
    let fx = fixture();
    fx.write("main", "a.md", "text\n");
    fx.ok("index_vault", json!({}));
    let error = fx.err(
        "search_regex",
        json!({"pattern": "(unclosed"}),
        ErrorCode::InvalidInput,
    );
    assert!(
        error.message.contains("not a valid regular expression"),
        "{}",
        error.message
    );
    assert!(error.message.contains("unclosed"), "{}", error.message);
    let lookaround = fx.err(
        "search_regex",
        json!({"pattern": "a(?=b)"}),
        ErrorCode::InvalidInput,
    );
    assert!(
        lookaround.recovery.contains("look-around"),
        "{}",
        lookaround.recovery
    );
    let empty = fx.err(
        "search_regex",
        json!({"pattern": "x*"}),
        ErrorCode::InvalidInput,
    );
    assert!(empty.message.contains("empty string"), "{}", empty.message);
}

#[test]
fn a_pattern_too_big_to_compile_is_over_budget() {
    let fx = fixture();
    fx.write("main", "a.md", "text\n");
    fx.ok("index_vault", json!({}));
    let error = fx.err(
        "search_regex",
        json!({"pattern": r"(\w{1000}){1000}"}),
        ErrorCode::ComputeBudgetExceeded,
    );
    assert!(
        error.recovery.contains("simpler pattern"),
        "{}",
        error.recovery
    );
}

#[test]
fn the_byte_budget_stops_the_scan_and_changes_nothing() {
    let fx = fixture();
    let body = "filler line of text\n".repeat(50);
    for i in 0..10 {
        fx.write("main", &format!("n{i}.md"), &body);
    }
    fx.ok("index_vault", json!({}));
    let before = fx.ok("get_index_status", json!({}));
    let error = fx.err(
        "search_regex",
        json!({"pattern": "filler", "max_scan_bytes": 2000}),
        ErrorCode::ComputeBudgetExceeded,
    );
    assert!(error.message.contains("2000 bytes"), "{}", error.message);
    assert!(error.recovery.contains("folder"), "{}", error.recovery);
    assert!(!error.retryable);
    // Nothing changed: the files, the index, and the same search within budget still works.
    assert_eq!(
        std::fs::read_to_string(fx.vault_dir("main").join("n0.md")).expect("note"),
        body
    );
    let after = fx.ok("get_index_status", json!({}));
    assert_eq!(before["chunks"], after["chunks"]);
    let within = fx.ok(
        "search_regex",
        json!({"pattern": "filler", "max_scan_bytes": 100000}),
    );
    assert_eq!(within["notes"], 10);
}

#[test]
fn hidden_notes_are_not_read_against_the_budget_nor_shown() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Public/**"]}
    }));
    fx.write("main", "Private/big.md", &"secret line\n".repeat(1000));
    fx.write("main", "Public/small.md", "secret? no, public\n");
    fx.ok("index_vault", json!({}));
    let reader = caller("agent", &["read:notes"], None);
    let found = fx
        .call(
            &reader,
            "search_regex",
            json!({"pattern": "secret", "max_scan_bytes": 100}),
        )
        .result
        .expect("hidden bytes are not read");
    assert_eq!(lines(&found), [("Public/small.md".to_owned(), 1)]);
    assert_eq!(found["coverage"]["notes"], 1);
}
