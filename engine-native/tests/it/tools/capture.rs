//! `capture_note` through the dispatcher: a timestamped note from the dispatch clock in the
//! inbox folder (default `Inbox`, or the vault's `inboxFolder`), never overwriting, ACL.
//! The capture queue (`enqueue_capture`, `list_capture_queue`, `commit_capture`): round trip
//! with the exact bytes filed, natural keys, confirmation outside the capture folders, ACL,
//! vault scoping, restarts and refused input.

use obsidian_tc::errors::ErrorCode;
use serde_json::json;

use crate::support::dispatch::{Fixture, caller};

#[test]
fn captures_get_timestamped_names_and_never_overwrite() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write("main", "Inbox/2026-01-01 000000.md", "earlier\n");
    let first = fx.ok("capture_note", json!({"content": "idea one\n"}));
    assert_eq!(first["path"], "Inbox/2026-01-01 000000 2.md");
    let second = fx.ok("capture_note", json!({"content": "idea two\n"}));
    assert_eq!(second["path"], "Inbox/2026-01-01 000000 3.md");
    fx.clock.advance(61_000);
    let titled = fx.ok(
        "capture_note",
        json!({"content": "x", "title": "Call: Bob/Alice"}),
    );
    assert_eq!(titled["path"], "Inbox/2026-01-01 000101 Call- Bob-Alice.md");
    let earlier = std::fs::read_to_string(fx.vault_dir("main").join("Inbox/2026-01-01 000000.md"));
    assert_eq!(earlier.expect("kept"), "earlier\n");
}

#[test]
fn the_inbox_folder_comes_from_the_vault_config() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "vaults": [{"id": "main", "path": "main", "inboxFolder": "00 Inbox/"}]
    }));
    let made = fx.ok("capture_note", json!({"content": "x"}));
    assert_eq!(made["path"], "00 Inbox/2026-01-01 000000.md");
    assert!(fx.exists("main", "00 Inbox/2026-01-01 000000.md"));
}

#[test]
fn a_caller_who_may_not_write_the_inbox_is_refused_and_nothing_is_written() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["**"], "writePaths": ["Notes/**"]}
    }));
    let writer = caller("w", &["write:notes"], None);
    fx.err_as(
        &writer,
        "capture_note",
        json!({"content": "x"}),
        ErrorCode::AclDenied,
    );
    assert!(!fx.exists("main", "Inbox"));
}

// The capture queue: enqueue_capture, list_capture_queue, commit_capture.

/// A fixture without throttling, with `extra` merged into the config root.
fn queue_fixture(extra: serde_json::Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), serde_json::Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    Fixture::new(config)
}

/// Every file of vault `main`, by path.
fn vault_files(fx: &Fixture) -> std::collections::BTreeMap<String, Vec<u8>> {
    crate::support::dispatch::snapshot(&fx.vault_dir("main"))
}

/// The note text at `rel` in vault `main`.
fn note(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("note")
}

fn enqueue(fx: &Fixture, args: serde_json::Value) -> String {
    let queued = fx.ok("enqueue_capture", args);
    queued["capture"]["id"].as_str().expect("id").to_owned()
}

#[test]
fn a_capture_is_queued_listed_and_filed_with_its_exact_bytes() {
    let fx = queue_fixture(json!({}));
    let queued = fx.ok(
        "enqueue_capture",
        json!({"content": "buy milk\n", "title": "Milk", "suggested_path": "Inbox/milk.md",
               "tags": ["#errand", "errand", "home"]}),
    );
    assert_eq!(queued["created"], true);
    let id = queued["capture"]["id"].as_str().expect("id").to_owned();
    assert_eq!(id.len(), 32);
    assert_eq!(queued["capture"]["caller"], "stdio");
    assert_eq!(queued["capture"]["tags"], json!(["errand", "home"]));
    assert_eq!(queued["capture"]["size"], 9);
    assert!(
        vault_files(&fx).is_empty(),
        "queuing writes nothing to the vault"
    );

    let page = fx.ok("list_capture_queue", json!({}));
    let items = page["items"].as_array().expect("items");
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["id"], id.as_str());
    assert_eq!(items[0]["title"], "Milk");
    assert_eq!(items[0]["suggested_path"], "Inbox/milk.md");
    assert_eq!(items[0]["preview"], "buy milk\n");
    assert!(items[0].get("content").is_none());
    let full = fx.ok("list_capture_queue", json!({"include_content": true}));
    assert_eq!(full["items"][0]["content"], "buy milk\n");

    let filed = fx.ok("commit_capture", json!({"capture_id": id}));
    assert_eq!(filed["path"], "Inbox/milk.md");
    assert_eq!(filed["already_committed"], false);
    let expected = "---\ntags:\n  - errand\n  - home\n---\nbuy milk\n";
    assert_eq!(note(&fx, "Inbox/milk.md"), expected);
    assert_eq!(
        filed["sha256"],
        engine_core::hash::sha256_hex(expected.as_bytes())
    );

    assert_eq!(fx.ok("list_capture_queue", json!({}))["items"], json!([]));
    let all = fx.ok("list_capture_queue", json!({"include_committed": true}));
    assert_eq!(all["items"][0]["committed_path"], "Inbox/milk.md");
    assert_eq!(all["items"][0]["committed_at"], fx.now_s());
}

#[test]
fn queuing_pending_text_again_returns_the_first_capture() {
    let fx = queue_fixture(json!({}));
    let first = fx.ok(
        "enqueue_capture",
        json!({"content": "same", "title": "one"}),
    );
    let again = fx.ok(
        "enqueue_capture",
        json!({"content": "same", "title": "two"}),
    );
    assert_eq!(again["created"], false);
    assert_eq!(again["capture"], first["capture"]);
    let page = fx.ok("list_capture_queue", json!({}));
    assert_eq!(page["items"].as_array().map(Vec::len), Some(1));
}

#[test]
fn the_queue_pages_newest_first_and_refuses_a_foreign_cursor() {
    let fx = queue_fixture(json!({}));
    let ids: Vec<String> = (0..3)
        .map(|n| enqueue(&fx, json!({"content": format!("capture {n}")})))
        .collect();
    let first = fx.ok("list_capture_queue", json!({"limit": 2}));
    assert_eq!(first["items"][0]["id"], ids[2].as_str());
    assert_eq!(first["items"][1]["id"], ids[1].as_str());
    let second = fx.ok(
        "list_capture_queue",
        json!({"limit": 2, "cursor": first["cursor"]}),
    );
    assert_eq!(second["items"][0]["id"], ids[0].as_str());
    assert!(second.get("cursor").is_none());
    fx.err(
        "list_capture_queue",
        json!({"cursor": "not-a-cursor"}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn committing_a_committed_capture_returns_the_first_result_and_changes_nothing() {
    let fx = queue_fixture(json!({}));
    let id = enqueue(&fx, json!({"content": "once\n"}));
    let first = fx.ok(
        "commit_capture",
        json!({"capture_id": id, "path": "Inbox/once.md"}),
    );
    fx.write("main", "Inbox/once.md", "edited by the user\n");
    fx.clock.advance(5_000);
    let before = vault_files(&fx);
    let again = fx.ok(
        "commit_capture",
        json!({"capture_id": id, "path": "Inbox/elsewhere.md"}),
    );
    assert_eq!(again["already_committed"], true);
    for key in ["capture_id", "path", "sha256", "committed_at"] {
        assert_eq!(again[key], first[key], "{key}");
    }
    assert_eq!(vault_files(&fx), before);
}

#[test]
fn a_retry_after_the_note_was_written_but_not_marked_only_marks_it() {
    let fx = queue_fixture(json!({}));
    let id = enqueue(&fx, json!({"content": "halfway\n", "tags": ["t"]}));
    // What the first attempt wrote before it failed to mark the capture.
    let written = "---\ntags:\n  - t\n---\nhalfway\n";
    fx.write("main", "Inbox/h.md", written);
    let filed = fx.ok(
        "commit_capture",
        json!({"capture_id": id, "path": "Inbox/h.md"}),
    );
    assert_eq!(filed["already_committed"], false);
    assert_eq!(note(&fx, "Inbox/h.md"), written);
    assert_eq!(fx.ok("list_capture_queue", json!({}))["items"], json!([]));
}

#[test]
fn an_existing_note_is_refused_unless_appending() {
    let fx = queue_fixture(json!({}));
    fx.write("main", "Inbox/log.md", "---\ntags: [log]\n---\nold line\n");
    let id = enqueue(&fx, json!({"content": "new line", "tags": ["later"]}));
    let before = vault_files(&fx);
    let refused = fx.err(
        "commit_capture",
        json!({"capture_id": id, "path": "Inbox/log.md"}),
        ErrorCode::AlreadyExists,
    );
    assert!(refused.recovery.contains("append"), "{refused:?}");
    assert_eq!(vault_files(&fx), before);
    assert_eq!(
        fx.ok("list_capture_queue", json!({}))["items"][0]["id"],
        id.as_str()
    );

    let args = json!({"capture_id": id, "path": "Inbox/log.md", "append": true});
    fx.ok("commit_capture", args);
    assert_eq!(
        note(&fx, "Inbox/log.md"),
        "---\ntags:\n  - log\n  - later\n---\nold line\nnew line\n"
    );
}

#[test]
fn filing_outside_the_capture_folders_needs_confirmation() {
    let fx = queue_fixture(json!({
        "vaults": [{"id": "main", "path": "main", "inboxFolder": "00 Inbox", "memoryFolder": "Brain"},
                   {"id": "other", "path": "other"}]
    }));
    let inside = enqueue(&fx, json!({"content": "a"}));
    fx.ok(
        "commit_capture",
        json!({"capture_id": inside, "path": "00 Inbox/a.md"}),
    );
    let memory = enqueue(&fx, json!({"content": "b"}));
    fx.ok(
        "commit_capture",
        json!({"capture_id": memory, "path": "Brain/b.md"}),
    );

    let outside = enqueue(&fx, json!({"content": "c"}));
    let args = json!({"capture_id": outside, "path": "Projects/c.md"});
    let error = fx.err("commit_capture", args.clone(), ErrorCode::ElicitRequired);
    assert!(!fx.exists("main", "Projects/c.md"));
    let pending = fx.pending_elicits(Some("main"));
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].request.proposed_change["path"], "Projects/c.md");
    assert_eq!(
        pending[0].request.proposed_change["capture_folders"],
        json!(["00 Inbox", "Brain"])
    );
    // The default inbox is not a capture folder when the vault names another one.
    let default_inbox = enqueue(&fx, json!({"content": "d"}));
    fx.err(
        "commit_capture",
        json!({"capture_id": default_inbox, "path": "Inbox/d.md"}),
        ErrorCode::ElicitRequired,
    );
    fx.approve_error(&error);
    fx.ok("commit_capture", args);
    assert_eq!(note(&fx, "Projects/c.md"), "c");
}

#[test]
fn a_target_the_caller_may_not_write_is_refused_and_nothing_changes() {
    let fx = queue_fixture(json!({
        "acl": {"readPaths": ["**"], "writePaths": ["Inbox/**"]}
    }));
    let agent = caller("agent", &["read:capture", "write:capture"], None);
    let queued = fx.call(&agent, "enqueue_capture", json!({"content": "x"}));
    let id = queued.result.expect("queued")["capture"]["id"].clone();
    fx.err_as(
        &agent,
        "commit_capture",
        json!({"capture_id": id, "path": "Private/x.md"}),
        ErrorCode::AclDenied,
    );
    // A suggested path it may not write is refused when queued, and cannot be the target.
    fx.err_as(
        &agent,
        "enqueue_capture",
        json!({"content": "y", "suggested_path": "Private/y.md"}),
        ErrorCode::AclDenied,
    );
    assert!(vault_files(&fx).is_empty());
    let page = fx.call(&agent, "list_capture_queue", json!({}));
    let page = page.result.expect("list");
    assert_eq!(page["items"].as_array().map(Vec::len), Some(1));
    assert_eq!(page["items"][0]["id"], id);
    // Without the scopes the queue is out of reach.
    let reader = caller("reader", &["read:notes"], None);
    fx.err_as(
        &reader,
        "list_capture_queue",
        json!({}),
        ErrorCode::Forbidden,
    );
}

#[test]
fn a_suggested_path_the_caller_may_not_read_is_not_shown() {
    let fx = queue_fixture(json!({
        "acl": {"rules": [{"glob": "Secret/**", "scopes": ["read:secret"]}]}
    }));
    enqueue(
        &fx,
        json!({"content": "s", "suggested_path": "Secret/s.md"}),
    );
    let agent = caller(
        "agent",
        &["read:capture", "write:capture", "read:notes"],
        None,
    );
    let page = fx
        .call(&agent, "list_capture_queue", json!({}))
        .result
        .expect("list");
    assert_eq!(page["items"].as_array().map(Vec::len), Some(1));
    assert!(page["items"][0].get("suggested_path").is_none(), "{page}");
    let mine = fx.ok("list_capture_queue", json!({}));
    assert_eq!(mine["items"][0]["suggested_path"], "Secret/s.md");
}

#[test]
fn a_capture_of_one_vault_is_invisible_from_another() {
    let fx = queue_fixture(json!({}));
    let id = enqueue(&fx, json!({"content": "main only"}));
    let other = fx.ok(
        "list_capture_queue",
        json!({"vault": "other", "include_committed": true}),
    );
    assert_eq!(other["items"], json!([]));
    fx.err(
        "commit_capture",
        json!({"vault": "other", "capture_id": id, "path": "Inbox/x.md"}),
        ErrorCode::NotFound,
    );
    assert!(!fx.exists("other", "Inbox/x.md"));
    // The same text queued in the other vault is a capture of its own.
    let theirs = fx.ok(
        "enqueue_capture",
        json!({"vault": "other", "content": "main only"}),
    );
    assert_eq!(theirs["created"], true);
    assert_ne!(theirs["capture"]["id"], id.as_str());
}

#[test]
fn the_queue_survives_a_restart() {
    let fx = queue_fixture(json!({}));
    let id = enqueue(
        &fx,
        json!({"content": "kept\n", "suggested_path": "Inbox/kept.md"}),
    );
    let restarted = fx.reopen();
    let stdio = obsidian_tc::auth::Caller::stdio();
    let page = restarted
        .call(&stdio, "list_capture_queue", json!({}))
        .result
        .expect("list after restart");
    assert_eq!(page["items"][0]["id"], id.as_str());
    restarted
        .call(&stdio, "commit_capture", json!({"capture_id": id}))
        .result
        .expect("commit after restart");
    assert_eq!(note(&fx, "Inbox/kept.md"), "kept\n");
}

#[test]
fn oversize_or_malformed_captures_are_refused_and_nothing_is_queued() {
    let fx = queue_fixture(json!({}));
    let big = "x".repeat(obsidian_tc::store::MAX_CAPTURE_BYTES + 1);
    let error = fx.err(
        "enqueue_capture",
        json!({"content": big}),
        ErrorCode::InvalidInput,
    );
    assert!(error.message.contains("1048576"), "{}", error.message);
    fx.err(
        "enqueue_capture",
        json!({"content": "x", "tags": ["two words"]}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "enqueue_capture",
        json!({"content": "---\n[broken\n---\nx", "tags": ["t"]}),
        ErrorCode::InvalidInput,
    );
    let id = enqueue(&fx, json!({"content": "no path"}));
    fx.err(
        "commit_capture",
        json!({"capture_id": id}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "commit_capture",
        json!({"capture_id": "0".repeat(32), "path": "Inbox/x.md"}),
        ErrorCode::NotFound,
    );
    let page = fx.ok("list_capture_queue", json!({}));
    assert_eq!(page["items"].as_array().map(Vec::len), Some(1));
    assert!(vault_files(&fx).is_empty());
}
