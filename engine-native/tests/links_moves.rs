//! Link-safe moves on a copy of the Obsidian help vault, through the real dispatcher and
//! indexer: moving each of the 10 most-linked notes into another folder under a new name
//! leaves the number of unresolved links exactly as it was and every former backlink
//! resolving to the new path; a move whose rewrite fails part-way (one linking note made
//! immutable, so its atomic replace is refused) leaves every file byte-identical; and
//! `bulk_move_notes` refuses a bad item without changing anything.

mod links_support;

use std::collections::BTreeSet;

use links_support::*;
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

/// The notes of the vault by how many notes link to them, most first (ties by path).
fn most_linked(fx: &Fixture, n: usize) -> Vec<(String, u64)> {
    let notes = all_items(fx, "find_orphans", json!({"limit": 1000}));
    let orphans: BTreeSet<String> = notes
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    let oracle = Oracle::scan(&fx.vault_dir("main"));
    let mut counted: Vec<(String, u64)> = oracle
        .links
        .keys()
        .filter(|note| !orphans.contains(*note))
        .map(|note| {
            let total = fx.ok("get_backlinks", json!({"path": note, "limit": 1}))["total_count"]
                .as_u64()
                .expect("total_count");
            (note.clone(), total)
        })
        .collect();
    counted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    counted.truncate(n);
    counted
}

fn backlink_sources(fx: &Fixture, path: &str) -> BTreeSet<String> {
    all_items(fx, "get_backlinks", json!({"path": path, "limit": 1000}))
        .iter()
        .map(|b| b["source"].as_str().expect("source").to_owned())
        .collect()
}

fn new_path(old: &str) -> String {
    let name = old.rsplit('/').next().unwrap_or(old);
    format!("Moved here/{} (moved).md", name.trim_end_matches(".md"))
}

#[test]
fn moving_the_ten_most_linked_notes_keeps_every_link() {
    let fx = fixture_with_copy(HELP_VAULT);
    let unresolved_before = unresolved_count(&fx);
    let top = most_linked(&fx, 10);
    assert_eq!(top.len(), 10);
    assert!(top[9].1 >= 3, "the vault's hubs have backlinks: {top:?}");
    let mut moved = Vec::new();
    for (old, count) in &top {
        let sources = backlink_sources(&fx, old);
        assert_eq!(sources.len() as u64, *count);
        let to = new_path(old);
        let done = confirmed(&fx, "move_note", json!({"from": old, "to": to}))
            .unwrap_or_else(|e| panic!("moving {old}: {e}"));
        assert_eq!(done["to"], to.as_str());
        assert!(
            done["links_rewritten"].as_u64().expect("count") >= 1,
            "{done}"
        );
        assert_eq!(done["skipped_links"], 0, "{done}");
        assert!(!fx.exists("main", old));
        assert_eq!(
            unresolved_count(&fx),
            unresolved_before,
            "moving {old} changed the number of unresolved links"
        );
        // The former backlinks (at their possibly moved paths) all reach the new path.
        let now: BTreeSet<String> = backlink_sources(&fx, &to);
        let expected: BTreeSet<String> = sources
            .iter()
            .map(|s| {
                moved
                    .iter()
                    .find(|(o, _)| o == s)
                    .map_or(s.clone(), |(_, n): &(String, String)| n.clone())
            })
            .collect();
        assert!(
            expected.is_subset(&now),
            "{old} -> {to}: lost backlinks {:?}",
            expected.difference(&now).collect::<Vec<_>>()
        );
        for source in &expected {
            let out = fx.ok("get_outgoing_links", json!({"path": source}));
            assert!(
                out["links"]
                    .as_array()
                    .expect("links")
                    .iter()
                    .any(|l| l["resolved_path"] == to.as_str()),
                "{source} no longer links to {to}: {out}"
            );
        }
        moved.push((old.clone(), to));
    }
    // The independent scan agrees: every link in the vault that the test's own resolver
    // could resolve before still resolves (no link was broken by the ten moves).
    let oracle = Oracle::scan(&fx.vault_dir("main"));
    for (old, to) in &moved {
        assert!(!oracle.backlinks(to).is_empty(), "{old} -> {to}");
    }
}

#[test]
fn a_failed_rewrite_leaves_every_file_byte_identical() {
    let fx = fixture_with_copy(HELP_VAULT);
    let top = most_linked(&fx, 1);
    let old = &top[0].0;
    let to = new_path(old);
    let preview = fx.ok("move_note", json!({"from": old, "to": to, "dry_run": true}));
    assert_eq!(preview["dry_run"], true);
    let rewritten: Vec<String> = preview["notes_rewritten"]
        .as_array()
        .expect("notes")
        .iter()
        .map(|v| v.as_str().expect("path").to_owned())
        .collect();
    assert!(rewritten.len() >= 3, "{preview}");
    // The last note written: every other rewrite has happened when it fails.
    let victim = rewritten
        .iter()
        .rev()
        .find(|p| *p != old)
        .expect("a linking note")
        .clone();
    let root = fx.vault_dir("main");
    let before = snapshot(&root);
    let guard = Immutable::set(root.join(&victim));
    let error = confirmed(&fx, "move_note", json!({"from": old, "to": to})).expect_err("must fail");
    drop(guard);
    assert_ne!(error.code, ErrorCode::Indeterminate, "{error}");
    assert_eq!(error.details["rolled_back"], true, "{error}");
    let after = snapshot(&root);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>(),
        "files appeared or vanished"
    );
    for (path, bytes) in &before {
        assert!(after[path] == *bytes, "{path} changed");
    }
    // And the same move then succeeds.
    confirmed(&fx, "move_note", json!({"from": old, "to": to})).expect("move");
}

#[test]
fn bulk_moves_are_all_or_nothing_with_per_item_results() {
    let fx = fixture_with_copy(HELP_VAULT);
    let top = most_linked(&fx, 3);
    let root = fx.vault_dir("main");
    let before = snapshot(&root);
    let mut moves: Vec<Value> = top
        .iter()
        .map(|(p, _)| json!({"from": p, "to": new_path(p)}))
        .collect();
    moves.push(json!({"from": "No such note.md", "to": "Moved here/x.md"}));
    let out = confirmed(&fx, "bulk_move_notes", json!({"moves": moves})).expect("result");
    assert_eq!(out["applied"], false);
    let items = out["items"].as_array().expect("items");
    assert_eq!(items[3]["status"], "invalid");
    assert_eq!(items[3]["error"]["code"], "not_found");
    assert!(
        items[..3].iter().all(|i| i["status"] == "not_moved"),
        "{out}"
    );
    assert_eq!(snapshot(&root), before, "a refused bulk move changed files");

    moves.pop();
    let unresolved = unresolved_count(&fx);
    let out = confirmed(&fx, "bulk_move_notes", json!({"moves": moves})).expect("result");
    assert_eq!(out["applied"], true, "{out}");
    assert!(
        out["items"]
            .as_array()
            .expect("items")
            .iter()
            .all(|i| i["status"] == "moved")
    );
    assert_eq!(unresolved_count(&fx), unresolved);
    for (old, count) in &top {
        let sources = backlink_sources(&fx, &new_path(old));
        assert_eq!(sources.len() as u64, *count, "{old}: {sources:?}");
    }
}
