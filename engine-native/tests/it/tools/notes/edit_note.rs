//! `edit_note` through the dispatcher: dry run by default with a unified diff, line
//! operations checked against the expected text, all-or-nothing, `expected_sha256` required
//! to apply, byte-identical notes after refused calls, ACL.

use engine_core::hash::sha256_hex;
use obsidian_tc::errors::ErrorCode;
use serde_json::json;

use crate::support::dispatch::{Fixture, caller};

const NOTE: &str = "one\ntwo\nthree\nfour\n";

fn fixture() -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write("main", "n.md", NOTE);
    fx
}

fn bytes(fx: &Fixture) -> Vec<u8> {
    std::fs::read(fx.vault_dir("main").join("n.md")).expect("note")
}

#[test]
fn a_dry_run_is_the_default_and_shows_the_diff() {
    let fx = fixture();
    let preview = fx.ok(
        "edit_note",
        json!({"path": "n.md", "operations": [
            {"op": "replace", "start": 2, "expected": "two", "content": "TWO"}
        ]}),
    );
    assert_eq!(preview["dry_run"], true);
    let diff = preview["preview"].as_str().expect("diff");
    assert!(diff.contains("-two\n") && diff.contains("+TWO\n"), "{diff}");
    assert_eq!(bytes(&fx), NOTE.as_bytes());
}

#[test]
fn several_operations_apply_together_by_original_line_numbers() {
    let fx = fixture();
    let done = fx.ok(
        "edit_note",
        json!({"path": "n.md", "dry_run": false, "expected_sha256": sha256_hex(NOTE.as_bytes()),
        "operations": [
            {"op": "insert_after", "start": 0, "content": "top"},
            {"op": "delete", "start": 2, "end": 3, "expected": "two\nthree"},
            {"op": "insert_before", "start": 4, "expected": "four", "content": "a\nb"},
            {"op": "insert_after", "start": 4, "content": "end"}
        ]}),
    );
    assert_eq!(done["changed"], true);
    assert_eq!(bytes(&fx), b"top\none\na\nb\nfour\nend\n");
}

#[test]
fn one_bad_operation_refuses_the_whole_call() {
    let fx = fixture();
    let sha = sha256_hex(NOTE.as_bytes());
    let stale = fx.err(
        "edit_note",
        json!({"path": "n.md", "dry_run": false, "expected_sha256": sha, "operations": [
            {"op": "replace", "start": 1, "expected": "one", "content": "ONE"},
            {"op": "delete", "start": 3, "expected": "not three"}
        ]}),
        ErrorCode::InvalidInput,
    );
    assert!(stale.message.contains("operation 2"), "{}", stale.message);
    fx.err(
        "edit_note",
        json!({"path": "n.md", "dry_run": false, "expected_sha256": sha, "operations": [
            {"op": "replace", "start": 1, "end": 2, "expected": "one\ntwo", "content": "x"},
            {"op": "insert_before", "start": 2, "content": "y"}
        ]}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "edit_note",
        json!({"path": "n.md", "dry_run": false, "expected_sha256": sha, "operations": [
            {"op": "delete", "start": 4, "end": 9, "expected": "four"}
        ]}),
        ErrorCode::InvalidRange,
    );
    assert_eq!(bytes(&fx), NOTE.as_bytes());
}

#[test]
fn applying_needs_a_current_expected_sha256() {
    let fx = fixture();
    let ops = json!([{"op": "delete", "start": 1, "expected": "one"}]);
    fx.err(
        "edit_note",
        json!({"path": "n.md", "dry_run": false, "operations": ops}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "edit_note",
        json!({"path": "n.md", "dry_run": false, "operations": ops,
            "expected_sha256": sha256_hex(b"other")}),
        ErrorCode::ConcurrentModification,
    );
    assert_eq!(bytes(&fx), NOTE.as_bytes());
}

#[test]
fn crlf_notes_keep_their_line_endings() {
    let fx = fixture();
    fx.write("main", "c.md", "a\r\nb\r\n");
    fx.ok(
        "edit_note",
        json!({"path": "c.md", "dry_run": false, "expected_sha256": sha256_hex(b"a\r\nb\r\n"),
            "operations": [{"op": "replace", "start": 2, "expected": "b", "content": "B"}]}),
    );
    let after = std::fs::read(fx.vault_dir("main").join("c.md")).expect("note");
    assert_eq!(after, b"a\r\nB\r\n");
}

#[test]
fn a_note_outside_the_callers_folders_is_refused() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Open/**"], "writePaths": ["Open/**"]}
    }));
    fx.write("main", "Secret/n.md", NOTE);
    let writer = caller("w", &["write:notes"], None);
    fx.err_as(
        &writer,
        "edit_note",
        json!({"path": "Secret/n.md", "operations": [{"op": "delete", "start": 1, "expected": "one"}]}),
        ErrorCode::AclDenied,
    );
}
