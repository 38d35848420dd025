//! `write_note`, `append_note`, `patch_note`, `move_note` and `copy_note` through the
//! dispatcher on real temp vaults: modes, conditional confirmation and approval, dry runs,
//! stale hashes, typed edit errors, the data-loss guard, BOM and CRLF preservation,
//! idempotent replays.

use engine_core::hash::sha256_hex;
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

fn fixture() -> Fixture {
    Fixture::new(json!({"throttle": {"enabled": false}}))
}

fn bytes(fx: &Fixture, rel: &str) -> Vec<u8> {
    std::fs::read(fx.vault_dir("main").join(rel)).expect("file")
}

fn numbered(count: usize) -> String {
    (1..=count).map(|i| format!("line {i}\n")).collect()
}

#[test]
fn write_note_creates_and_refuses_an_existing_note_in_create_mode() {
    let fx = fixture();
    let made = fx.ok(
        "write_note",
        json!({"path": "New/a.md", "content": "hello\n"}),
    );
    assert_eq!(made["mode_used"], "create");
    assert_eq!(made["sha256"], sha256_hex(b"hello\n"));
    assert_eq!(bytes(&fx, "New/a.md"), b"hello\n");
    let error = fx.err(
        "write_note",
        json!({"path": "New/a.md", "content": "other"}),
        ErrorCode::AlreadyExists,
    );
    assert_eq!(error.details["path"], "New/a.md");
    assert_eq!(bytes(&fx, "New/a.md"), b"hello\n");
    fx.err(
        "write_note",
        json!({"path": "New/none.md", "content": "x", "mode": "overwrite"}),
        ErrorCode::NotFound,
    );
    assert!(!fx.exists("main", "New/none.md"));
}

#[test]
fn overwriting_a_non_empty_note_needs_approval_then_the_identical_call_succeeds() {
    let fx = fixture();
    fx.write("main", "a.md", "old text\n");
    let args = json!({"path": "a.md", "content": "new text\n", "mode": "overwrite"});
    let error = fx.err("write_note", args.clone(), ErrorCode::ElicitRequired);
    let preview = error.details["proposed_change"]["preview"]
        .as_str()
        .expect("preview");
    assert!(preview.contains("-old text\n") && preview.contains("+new text\n"));
    assert_eq!(bytes(&fx, "a.md"), b"old text\n");
    fx.approve_error(&error);
    let done = fx.ok("write_note", args);
    assert_eq!(done["mode_used"], "overwrite");
    assert_eq!(bytes(&fx, "a.md"), b"new text\n");
}

#[test]
fn overwriting_an_empty_note_and_upserting_a_new_one_need_no_approval() {
    let fx = fixture();
    fx.write("main", "empty.md", "");
    let done = fx.ok(
        "write_note",
        json!({"path": "empty.md", "content": "now\n", "mode": "upsert"}),
    );
    assert_eq!(done["mode_used"], "overwrite");
    let made = fx.ok(
        "write_note",
        json!({"path": "fresh.md", "content": "new\n", "mode": "upsert"}),
    );
    assert_eq!(made["mode_used"], "create");
    assert_eq!(bytes(&fx, "fresh.md"), b"new\n");
}

#[test]
fn write_note_dry_run_changes_nothing_and_returns_a_preview() {
    let fx = fixture();
    fx.write("main", "a.md", "one\n");
    let preview = fx.ok(
        "write_note",
        json!({"path": "a.md", "content": "two\n", "mode": "overwrite", "dry_run": true}),
    );
    assert_eq!(preview["dry_run"], true);
    assert_eq!(preview["changed"], true);
    assert_eq!(preview["preview"], "@@ -1,1 +1,1 @@\n-one\n+two\n");
    assert_eq!(bytes(&fx, "a.md"), b"one\n");
    let new = fx.ok(
        "write_note",
        json!({"path": "b.md", "content": "x\n", "dry_run": true}),
    );
    assert_eq!(new["preview"], "@@ -0,0 +1,1 @@\n+x\n");
    assert!(!fx.exists("main", "b.md"));
}

#[test]
fn a_stale_expected_sha256_is_concurrent_modification_and_changes_nothing() {
    let fx = fixture();
    fx.write("main", "a.md", "current\n");
    let stale = sha256_hex(b"what the agent read before");
    for (tool, args) in [
        (
            "write_note",
            json!({"path": "a.md", "content": "x", "mode": "overwrite", "expected_sha256": stale}),
        ),
        (
            "append_note",
            json!({"path": "a.md", "content": "x", "expected_sha256": stale}),
        ),
        (
            "patch_note",
            json!({"path": "a.md", "old": "current", "new": "x", "expected_sha256": stale}),
        ),
        (
            "move_note",
            json!({"from": "a.md", "to": "b.md", "expected_sha256": stale}),
        ),
    ] {
        let error = fx.err(tool, args, ErrorCode::ConcurrentModification);
        assert_eq!(
            error.details["actual_sha256"],
            sha256_hex(b"current\n"),
            "{tool}"
        );
        assert!(error.retryable);
        assert_eq!(bytes(&fx, "a.md"), b"current\n", "{tool}");
    }
    let fresh = sha256_hex(b"current\n");
    fx.ok(
        "append_note",
        json!({"path": "a.md", "content": "more", "expected_sha256": fresh}),
    );
    assert_eq!(bytes(&fx, "a.md"), b"current\nmore\n");
}

#[test]
fn append_note_adds_at_each_position() {
    let fx = fixture();
    let note = "---\ntitle: t\n---\n# A\nalpha ^a1\n\n# B\nbeta\n";
    fx.write("main", "n.md", note);
    fx.ok("append_note", json!({"path": "n.md", "content": "end"}));
    fx.ok(
        "append_note",
        json!({"path": "n.md", "content": "top", "position": "prepend"}),
    );
    fx.ok(
        "append_note",
        json!({"path": "n.md", "content": "after block", "after_block": "a1"}),
    );
    fx.ok(
        "append_note",
        json!({"path": "n.md", "content": "in A", "heading": "A"}),
    );
    assert_eq!(
        String::from_utf8(bytes(&fx, "n.md")).expect("utf-8"),
        "---\ntitle: t\n---\ntop\n# A\nalpha ^a1\nafter block\nin A\n\n# B\nbeta\nend\n"
    );
    fx.err(
        "append_note",
        json!({"path": "n.md", "content": "x", "heading": "Missing"}),
        ErrorCode::NotFound,
    );
    fx.err(
        "append_note",
        json!({"path": "n.md", "content": "x", "heading": "A", "position": "end"}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "append_note",
        json!({"path": "absent.md", "content": "x"}),
        ErrorCode::NotFound,
    );
}

#[test]
fn append_note_dry_run_previews_without_writing() {
    let fx = fixture();
    fx.write("main", "n.md", "a\n");
    let preview = fx.ok(
        "append_note",
        json!({"path": "n.md", "content": "b", "dry_run": true}),
    );
    assert_eq!(preview["preview"], "@@ -1,1 +1,2 @@\n a\n+b\n");
    assert_eq!(preview["sha256"], sha256_hex(b"a\nb\n"));
    assert_eq!(bytes(&fx, "n.md"), b"a\n");
}

#[test]
fn an_idempotency_key_replays_append_note_so_the_text_is_added_once() {
    let fx = fixture();
    fx.write("main", "log.md", "start\n");
    let args = json!({"path": "log.md", "content": "entry", "idempotency_key": "k-1"});
    let first = fx.call(
        &obsidian_tc::auth::Caller::stdio(),
        "append_note",
        args.clone(),
    );
    let second = fx.call(&obsidian_tc::auth::Caller::stdio(), "append_note", args);
    assert!(!first.replayed);
    assert!(second.replayed);
    assert_eq!(first.result.expect("first"), second.result.expect("second"));
    assert_eq!(bytes(&fx, "log.md"), b"start\nentry\n");
}

#[test]
fn patch_note_replaces_a_unique_string_a_section_and_a_block() {
    let fx = fixture();
    fx.write("main", "p.md", "# A\nold words\n# B\nthe block ^b1\n");
    let done = fx.ok(
        "patch_note",
        json!({"path": "p.md", "old": "old", "new": "new"}),
    );
    assert_eq!(done["changed"], true);
    assert_eq!(done["lines_removed"], 1);
    fx.ok(
        "patch_note",
        json!({"path": "p.md", "block": "b1", "content": "a new block"}),
    );
    fx.ok(
        "patch_note",
        json!({"path": "p.md", "heading": "A", "content": "rewritten"}),
    );
    assert_eq!(
        String::from_utf8(bytes(&fx, "p.md")).expect("utf-8"),
        "# A\nrewritten\n# B\na new block ^b1\n"
    );
}

#[test]
fn patch_note_sets_one_frontmatter_property_and_keeps_every_other_byte() {
    let fx = fixture();
    let note = "\u{feff}---\r\nstatus: draft   # keep this comment\r\nzip: 01234\r\ntags: [a, b]\r\n---\r\n# Body\r\nstatus: draft in the body\r\n";
    fx.write("main", "fm.md", note);
    let preview = fx.ok(
        "patch_note",
        json!({"path": "fm.md", "property": "zip", "value": "98765", "dry_run": true}),
    );
    assert_eq!(preview["dry_run"], true);
    assert!(preview["preview"].as_str().expect("diff").contains("+zip:"));
    assert_eq!(
        bytes(&fx, "fm.md"),
        note.as_bytes(),
        "a dry run writes nothing"
    );
    let done = fx.ok(
        "patch_note",
        json!({"path": "fm.md", "property": "zip", "value": "98765"}),
    );
    assert_eq!(
        (done["lines_removed"].clone(), done["lines_added"].clone()),
        (json!(1), json!(1))
    );
    let after = String::from_utf8(bytes(&fx, "fm.md")).expect("utf-8");
    assert_eq!(
        after,
        note.replace("zip: 01234", &format!("zip: {}", after_zip(&after))),
        "only the zip line changed"
    );
    assert_eq!(
        fx.ok("read_property", json!({"path": "fm.md", "key": "zip"}))["value"],
        "98765"
    );
    fx.ok(
        "patch_note",
        json!({"path": "fm.md", "property": "reviewed", "value": true}),
    );
    assert_eq!(
        fx.ok("read_property", json!({"path": "fm.md", "key": "reviewed"}))["value"],
        true
    );
    fx.write("main", "plain.md", "just text\n");
    fx.ok(
        "patch_note",
        json!({"path": "plain.md", "property": "status", "value": ["x", "y"]}),
    );
    let plain = fx.ok(
        "read_property",
        json!({"path": "plain.md", "key": "status"}),
    );
    assert_eq!(plain["value"], json!(["x", "y"]));
    assert!(
        String::from_utf8(bytes(&fx, "plain.md"))
            .expect("utf-8")
            .ends_with("just text\n")
    );
}

/// The value text the `zip` line of `note` holds.
fn after_zip(note: &str) -> &str {
    let line = note
        .lines()
        .find(|l| l.starts_with("zip: "))
        .expect("zip line");
    line.trim_start_matches("zip: ").trim_end_matches('\r')
}

#[test]
fn patch_note_errors_are_typed_and_change_nothing() {
    let fx = fixture();
    let note = "twin\ntwin\nsolo\n";
    fx.write("main", "p.md", note);
    let error = fx.err(
        "patch_note",
        json!({"path": "p.md", "old": "twin", "new": "x"}),
        ErrorCode::Ambiguous,
    );
    assert_eq!(error.details["count"], 2);
    assert_eq!(error.details["candidates"][1]["line"], 2);
    fx.err(
        "patch_note",
        json!({"path": "p.md", "old": "absent", "new": "x"}),
        ErrorCode::NotFound,
    );
    fx.err(
        "patch_note",
        json!({"path": "p.md", "old": "solo", "heading": "A", "content": "x"}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "patch_note",
        json!({"path": "p.md", "old": "solo"}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "patch_note",
        json!({"path": "p.md", "property": "a", "old": "solo", "new": "x"}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "patch_note",
        json!({"path": "p.md", "old": "solo", "new": "x", "value": 1}),
        ErrorCode::InvalidInput,
    );
    let bad_key = fx.err(
        "patch_note",
        json!({"path": "p.md", "property": "bad\nkey", "value": 1}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(bad_key.details["frontmatter_code"], "invalid_key");
    assert_eq!(bytes(&fx, "p.md"), note.as_bytes());
}

#[test]
fn a_patch_discarding_over_20_lines_and_half_the_note_needs_approval() {
    let fx = fixture();
    let note = format!("# Big\n{}# Keep\nkept\n", numbered(30));
    fx.write("main", "big.md", &note);
    let args = json!({"path": "big.md", "heading": "Big", "content": "short"});
    let error = fx.err("patch_note", args.clone(), ErrorCode::ElicitRequired);
    let proposed = &error.details["proposed_change"];
    assert_eq!(proposed["lines_removed"], 30);
    assert!(
        proposed["preview"]
            .as_str()
            .expect("preview")
            .contains("-line 30\n")
    );
    assert_eq!(bytes(&fx, "big.md"), note.as_bytes());
    // A dry run shows the same change without asking.
    let dry = fx.ok(
        "patch_note",
        json!({"path": "big.md", "heading": "Big", "content": "short", "dry_run": true}),
    );
    assert_eq!(dry["lines_removed"], 30);
    fx.approve_error(&error);
    fx.ok("patch_note", args);
    assert_eq!(
        String::from_utf8(bytes(&fx, "big.md")).expect("utf-8"),
        "# Big\nshort\n# Keep\nkept\n"
    );
}

#[test]
fn a_small_patch_of_a_big_note_needs_no_approval() {
    let fx = fixture();
    let note = format!("# Big\n{}", numbered(60));
    fx.write("main", "big.md", &note);
    // 25 lines go: more than 20, but not more than half of 61.
    let old: String = (1..=25).map(|i| format!("line {i}\n")).collect();
    let done = fx.ok(
        "patch_note",
        json!({"path": "big.md", "old": old, "new": ""}),
    );
    assert_eq!(done["lines_removed"], 25);
}

#[test]
fn a_crlf_note_with_a_bom_keeps_both_after_append_patch_and_overwrite() {
    let fx = fixture();
    fx.write("main", "win.md", "\u{feff}# T\r\nfirst\r\n");
    fx.ok(
        "append_note",
        json!({"path": "win.md", "content": "second"}),
    );
    assert_eq!(
        bytes(&fx, "win.md"),
        "\u{feff}# T\r\nfirst\r\nsecond\r\n".as_bytes()
    );
    fx.ok(
        "patch_note",
        json!({"path": "win.md", "old": "first\nsecond", "new": "one\ntwo"}),
    );
    assert_eq!(
        bytes(&fx, "win.md"),
        "\u{feff}# T\r\none\r\ntwo\r\n".as_bytes()
    );
    let args = json!({"path": "win.md", "content": "# New\nbody\n", "mode": "overwrite"});
    let error = fx.err("write_note", args.clone(), ErrorCode::ElicitRequired);
    fx.approve_error(&error);
    fx.ok("write_note", args);
    assert_eq!(bytes(&fx, "win.md"), "\u{feff}# New\r\nbody\r\n".as_bytes());
}

#[test]
fn moving_within_a_folder_needs_no_approval_but_across_folders_does() {
    let fx = fixture();
    fx.write("main", "Inbox/a.md", "a");
    let renamed = fx.ok(
        "move_note",
        json!({"from": "Inbox/a.md", "to": "Inbox/b.md"}),
    );
    assert_eq!(renamed["to"], "Inbox/b.md");
    assert_eq!(renamed["crossed_folder"], false);
    assert!(!fx.exists("main", "Inbox/a.md"));
    let args = json!({"from": "Inbox/b.md", "to": "Archive/b.md"});
    let error = fx.err("move_note", args.clone(), ErrorCode::ElicitRequired);
    assert_eq!(error.details["proposed_change"]["crossed_folder"], true);
    assert!(fx.exists("main", "Inbox/b.md"));
    fx.approve_error(&error);
    let moved = fx.ok("move_note", args);
    assert_eq!(moved["crossed_folder"], true);
    assert_eq!(bytes(&fx, "Archive/b.md"), b"a");
    fx.err(
        "move_note",
        json!({"from": "Inbox/none.md", "to": "Inbox/x.md"}),
        ErrorCode::NotFound,
    );
}

#[test]
fn moving_onto_an_existing_note_needs_overwrite_and_approval_and_trashes_it() {
    let fx = fixture();
    fx.write("main", "a.md", "mover");
    fx.write("main", "b.md", "target");
    fx.err(
        "move_note",
        json!({"from": "a.md", "to": "b.md"}),
        ErrorCode::AlreadyExists,
    );
    let args = json!({"from": "a.md", "to": "b.md", "overwrite": true});
    let error = fx.err("move_note", args.clone(), ErrorCode::ElicitRequired);
    assert_eq!(error.details["proposed_change"]["replaces"], "b.md");
    assert_eq!(bytes(&fx, "b.md"), b"target");
    fx.approve_error(&error);
    let moved = fx.ok("move_note", args);
    assert_eq!(moved["trashed_to"], ".trash/b.md");
    assert_eq!(bytes(&fx, "b.md"), b"mover");
    assert_eq!(bytes(&fx, ".trash/b.md"), b"target");
    assert!(!fx.exists("main", "a.md"));
}

#[test]
fn copy_note_copies_and_asks_only_to_overwrite() {
    let fx = fixture();
    fx.write("main", "Inbox/a.md", "content");
    let copied = fx.ok(
        "copy_note",
        json!({"from": "Inbox/a.md", "to": "Elsewhere/a.md"}),
    );
    assert_eq!(copied["sha256"], sha256_hex(b"content"));
    assert_eq!(bytes(&fx, "Elsewhere/a.md"), b"content");
    assert_eq!(bytes(&fx, "Inbox/a.md"), b"content");
    fx.write("main", "Inbox/b.md", "old");
    fx.err(
        "copy_note",
        json!({"from": "Inbox/a.md", "to": "Inbox/b.md"}),
        ErrorCode::AlreadyExists,
    );
    let args = json!({"from": "Inbox/a.md", "to": "Inbox/b.md", "overwrite": true});
    let error = fx.err("copy_note", args.clone(), ErrorCode::ElicitRequired);
    assert_eq!(bytes(&fx, "Inbox/b.md"), b"old");
    fx.approve_error(&error);
    let done: Value = fx.ok("copy_note", args);
    assert_eq!(done["trashed_to"], ".trash/Inbox/b.md");
    assert_eq!(bytes(&fx, "Inbox/b.md"), b"content");
}
