//! A link-safe move whose rewrite fails part-way (one linking note made immutable, so its
//! atomic replace is refused) leaves every file of a copy of the Obsidian help vault
//! byte-identical (see `it`'s `tools::links::moves` for the moves themselves).

use obsidian_tc::errors::ErrorCode;
use serde_json::json;

use crate::support::links::moves::{most_linked, new_path};
use crate::support::links::*;

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
