//! `update_frontmatter` through the dispatcher on a real temp vault: byte preservation,
//! dry run, confirmation of `replace`, stale reads, `create`, argument checks, idempotency.

use engine_core::hash::sha256_hex;
use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use serde_json::json;

use crate::support::dispatch::Fixture;

const NOTE: &str = "---\n# keep me\ntitle: Alpha\nzip: 01234\ntags:\n  - a\n---\nBody line\n";

fn fixture() -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write("main", "alpha.md", NOTE);
    fx
}

fn content(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("note")
}

#[test]
fn set_changes_only_its_line_and_keeps_every_other_byte() {
    let fx = fixture();
    let out = fx.ok(
        "update_frontmatter",
        json!({"path": "alpha.md", "mode": "set", "key": "title", "value": "Beta"}),
    );
    let after = "---\n# keep me\ntitle: Beta\nzip: 01234\ntags:\n  - a\n---\nBody line\n";
    assert_eq!(content(&fx, "alpha.md"), after);
    assert_eq!(out["changed"], true);
    assert_eq!(out["created"], false);
    assert_eq!(out["mode_used"], "set");
    assert_eq!(out["sha256"], sha256_hex(after.as_bytes()));
    assert_eq!(out["previous_sha256"], sha256_hex(NOTE.as_bytes()));
    assert_eq!(out["properties"]["title"], "Beta");
}

#[test]
fn remove_and_merge_edit_in_place() {
    let fx = fixture();
    fx.ok(
        "update_frontmatter",
        json!({"path": "alpha.md", "mode": "merge", "properties": {"tags": ["a", "b"], "status": "open"}}),
    );
    let merged = content(&fx, "alpha.md");
    assert!(merged.contains("zip: 01234\n"), "{merged}");
    assert!(merged.contains("# keep me\n"), "{merged}");
    let status = fx.ok(
        "read_property",
        json!({"path": "alpha.md", "key": "status"}),
    );
    assert_eq!(status["value"], "open");
    let tags = fx.ok("read_property", json!({"path": "alpha.md", "key": "tags"}));
    assert_eq!(tags["value"], json!(["a", "b"]));

    fx.ok(
        "update_frontmatter",
        json!({"path": "alpha.md", "mode": "remove", "key": "status"}),
    );
    let removed = content(&fx, "alpha.md");
    assert!(!removed.contains("status"), "{removed}");
    assert!(removed.ends_with("---\nBody line\n"), "{removed}");
}

#[test]
fn dry_run_shows_the_diff_and_changes_nothing() {
    let fx = fixture();
    let out = fx.ok(
        "update_frontmatter",
        json!({"path": "alpha.md", "mode": "set", "key": "title", "value": "Beta", "dry_run": true}),
    );
    assert_eq!(content(&fx, "alpha.md"), NOTE);
    assert_eq!(out["dry_run"], true);
    assert_eq!(out["changed"], true);
    assert_eq!(out["sha256"], sha256_hex(NOTE.as_bytes()));
    let diff = out["diff"].as_str().expect("diff");
    assert!(diff.contains("-title: Alpha\n"), "{diff}");
    assert!(diff.contains("+title: Beta\n"), "{diff}");
    // A dry-run replace changes nothing and asks nobody.
    fx.ok(
        "update_frontmatter",
        json!({"path": "alpha.md", "mode": "replace", "properties": {"a": 1}, "dry_run": true}),
    );
    assert_eq!(content(&fx, "alpha.md"), NOTE);
}

#[test]
fn replace_needs_an_approval_then_the_identical_call_succeeds() {
    let fx = fixture();
    let args = json!({"path": "alpha.md", "mode": "replace", "properties": {"title": "New"}});
    let gated = fx.call(&Caller::stdio(), "update_frontmatter", args.clone());
    let error = gated.result.expect_err("needs confirmation");
    assert_eq!(error.code, ErrorCode::ElicitRequired);
    let proposal = &error.details["proposed_change"];
    assert_eq!(proposal["mode"], "replace");
    assert!(
        proposal["diff"]
            .as_str()
            .is_some_and(|diff| diff.contains("-zip: 01234")),
        "{proposal}"
    );
    assert_eq!(content(&fx, "alpha.md"), NOTE);

    fx.approve(&gated.args_hash);
    let out = fx.ok("update_frontmatter", args);
    assert_eq!(out["mode_used"], "replace");
    assert_eq!(
        content(&fx, "alpha.md"),
        "---\ntitle: New\n---\nBody line\n"
    );
}

#[test]
fn a_stale_expected_sha256_is_concurrent_modification_and_changes_nothing() {
    let fx = fixture();
    let stale = sha256_hex(b"an older version");
    let error = fx.err(
        "update_frontmatter",
        json!({"path": "alpha.md", "mode": "set", "key": "title", "value": "X", "expected_sha256": stale}),
        ErrorCode::ConcurrentModification,
    );
    assert_eq!(error.details["actual_sha256"], sha256_hex(NOTE.as_bytes()));
    assert_eq!(content(&fx, "alpha.md"), NOTE);
    let fresh = sha256_hex(NOTE.as_bytes());
    fx.ok(
        "update_frontmatter",
        json!({"path": "alpha.md", "mode": "set", "key": "title", "value": "X", "expected_sha256": fresh}),
    );
    assert!(content(&fx, "alpha.md").contains("title: X\n"));
}

#[test]
fn a_missing_note_is_not_found_unless_create_is_given() {
    let fx = fixture();
    let set = json!({"path": "New/note.md", "mode": "set", "key": "status", "value": "draft"});
    fx.err("update_frontmatter", set.clone(), ErrorCode::NotFound);
    assert!(!fx.exists("main", "New/note.md"));

    let mut create = set;
    create["create"] = json!(true);
    let out = fx.ok("update_frontmatter", create);
    assert_eq!(out["created"], true);
    assert_eq!(content(&fx, "New/note.md"), "---\nstatus: draft\n---\n");

    // Removing from a missing note creates nothing.
    let out = fx.ok(
        "update_frontmatter",
        json!({"path": "Other.md", "mode": "remove", "key": "x", "create": true}),
    );
    assert_eq!(out["changed"], false);
    assert!(!fx.exists("main", "Other.md"));
}

#[test]
fn arguments_that_do_not_fit_the_mode_and_bad_keys_are_invalid_input() {
    let fx = fixture();
    for args in [
        json!({"path": "alpha.md", "mode": "set", "key": "title"}),
        json!({"path": "alpha.md", "mode": "remove", "key": "title", "value": 1}),
        json!({"path": "alpha.md", "mode": "merge", "key": "title", "value": 1}),
        json!({"path": "alpha.md", "mode": "replace"}),
    ] {
        fx.err("update_frontmatter", args, ErrorCode::InvalidInput);
    }
    let error = fx.err(
        "update_frontmatter",
        json!({"path": "alpha.md", "mode": "set", "key": "a: b", "value": 1}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(error.details["frontmatter_code"], "invalid_key");
    assert_eq!(content(&fx, "alpha.md"), NOTE);
}

#[test]
fn set_on_invalid_yaml_is_refused_with_the_line_and_changes_nothing() {
    let fx = fixture();
    let broken = "---\ntitle: [unclosed\n---\nBody\n";
    fx.write("main", "broken.md", broken);
    let error = fx.err(
        "update_frontmatter",
        json!({"path": "broken.md", "mode": "set", "key": "x", "value": 1}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(error.details["frontmatter_code"], "invalid_yaml");
    assert!(error.details["line"].is_u64());
    assert_eq!(content(&fx, "broken.md"), broken);
}

#[test]
fn a_repeated_idempotency_key_replays_the_first_result() {
    let fx = fixture();
    let args = json!({"path": "alpha.md", "mode": "set", "key": "n", "value": 1, "idempotency_key": "k-1"});
    let first = fx.ok("update_frontmatter", args.clone());
    fx.write("main", "alpha.md", NOTE);
    let second = fx.ok("update_frontmatter", args);
    assert_eq!(first, second);
    assert_eq!(
        content(&fx, "alpha.md"),
        NOTE,
        "the replay does not write again"
    );
}
