//! `rewrite_link` and `prune_hub_links` whose write fails part-way (an immutable note) leave
//! every file byte-identical; `prune_hub_links` changed since its preview changes nothing
//! either (see `it`'s `tools::links::rewrite` for the rest).

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::links::rewrite::{HUB, LINKING, POLICY, fixture, hub_fixture};
use crate::support::links::*;

#[test]
fn a_rewrite_failing_part_way_leaves_every_file_byte_identical() {
    let fx = fixture(LINKING);
    let root = fx.vault_dir("main");
    let before = snapshot(&root);
    // d.md is written last (notes are committed in path order): the others are rewritten
    // when it fails.
    let guard = Immutable::set(root.join("d.md"));
    let error = confirmed(
        &fx,
        "rewrite_link",
        json!({"from": "Target.md", "to": "New/Dest.md", "dry_run": false}),
    )
    .expect_err("must fail");
    drop(guard);
    assert_ne!(error.code, ErrorCode::Indeterminate, "{error}");
    assert_eq!(error.details["rolled_back"], true, "{error}");
    assert_eq!(snapshot(&root), before, "a file changed");
}

#[test]
fn prune_hub_links_changed_since_the_preview_or_failing_changes_nothing() {
    let fx = hub_fixture();
    let root = fx.vault_dir("main");
    let policy: Value = serde_json::from_str(POLICY).expect("policy");
    let preview = fx.ok(
        "prune_hub_links",
        json!({"path": "Hub.md", "policy": policy}),
    );
    let sha = preview["change"]["sha256"]
        .as_str()
        .expect("sha")
        .to_owned();
    fx.write("main", "Hub.md", &format!("{HUB}edited meanwhile\n"));
    let before = snapshot(&root);
    let args =
        json!({"path": "Hub.md", "policy": policy, "dry_run": false, "expected_sha256": sha});
    let error = confirmed(&fx, "prune_hub_links", args).expect_err("stale");
    assert_eq!(error.code, ErrorCode::ConcurrentModification, "{error}");
    assert_eq!(snapshot(&root), before);
    // An immutable hub: the write fails and the note keeps its bytes.
    let guard = Immutable::set(root.join("Hub.md"));
    let error = confirmed(
        &fx,
        "prune_hub_links",
        json!({"path": "Hub.md", "policy": policy, "dry_run": false}),
    )
    .expect_err("immutable");
    drop(guard);
    assert_eq!(error.details["rolled_back"], true, "{error}");
    assert_eq!(snapshot(&root), before);
    // A policy that removes nothing is refused; one that matches nothing changes nothing.
    fx.err(
        "prune_hub_links",
        json!({"path": "Hub.md", "policy": {}}),
        ErrorCode::InvalidInput,
    );
    let none = fx.ok(
        "prune_hub_links",
        json!({"path": "Hub.md", "policy": {"folders": ["Nowhere"]}, "dry_run": false}),
    );
    assert_eq!(none["pruned"], json!([]));
    assert_eq!(none["applied"], false);
    assert_eq!(snapshot(&root), before);
}
