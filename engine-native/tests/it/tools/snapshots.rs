//! Snapshots and undo through the dispatcher on real temp vaults: after each kind of
//! mutation (every mutating tool: notes, moves, links, tags, typed links, tasks, periodic
//! notes, canvas, kanban, bases, tables, attachments, bulk, workspaces, bookmarks and filed
//! captures), `undo_last_change` puts every file back byte for byte (created files go to
//! `.trash/`); undoing again takes back the change before; a file changed again since is
//! not overwritten without `force`; `restore_note` shows a diff, then restores with
//! approval; failed calls record nothing; another caller's hidden notes never show.

mod take;

use std::collections::BTreeMap;
use std::path::Path;

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

type Files = BTreeMap<String, Vec<u8>>;

fn fixture() -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write(
        "main",
        "a.md",
        "---\ntitle: A\n---\n# A\n\nfirst line\r\nsecond line\n",
    );
    fx.write("main", "Folder/b.md", "\u{feff}bee\n\nsee [[a]]\n");
    fx.write("main", "c.md", "");
    fx.write(
        "main",
        "tagged.md",
        "---\ntags: [topic]\n---\nbody #topic/sub\n",
    );
    fx.write(
        "main",
        "tasks.md",
        "# Tasks\n- [ ] buy milk #home 📅 2026-01-05\n- [x] old ✅ 2026-01-01\n",
    );
    fx.write("main", "table.md", "|Name|N|\n|-|-:|\n|b|2|\n|a|10|\n");
    fx.write("main", "pics.md", "see ![[pic.png]]\n");
    std::fs::create_dir_all(fx.vault_dir("main").join("assets")).expect("assets");
    std::fs::write(fx.vault_dir("main").join("assets/pic.png"), b"\x89PNG\r\n").expect("png");
    fx.write("main", "hub.md", "- [[missing note]]\n- [[a]]\n");
    fx.write(
        "main",
        "Memory/Jo.md",
        "---\ntype: person\nknows: \"[[Ann]]\"\n---\n# Jo\n\n## Observations\n\n- Likes tea\n",
    );
    fx.write("main", "Memory/Ann.md", "---\ntype: person\n---\n# Ann\n");
    fx.write(
        "main",
        "board.md",
        "---\nkanban-plugin: basic\n---\n\n## Todo\n\n- [ ] card one\n\n## Done\n\n\n\n%% kanban:settings\n```\n{\"kanban-plugin\":\"basic\"}\n```\n%%\n",
    );
    fx.write(
        "main",
        "map.canvas",
        "{\n\t\"nodes\":[\n\t\t{\"id\":\"n1\",\"type\":\"text\",\"text\":\"hi\",\"x\":0,\"y\":0,\"width\":100,\"height\":50}\n\t],\n\t\"edges\":[]\n}",
    );
    fx.write(
        "main",
        "books.base",
        "views:\n  - type: table\n    name: All\n",
    );
    fx.write(
        "main",
        ".obsidian/workspace.json",
        r#"{"main":{"id":"m","type":"split","children":[]},"active":"m","lastOpenFiles":[]}"#,
    );
    fx.write(
        "main",
        ".obsidian/bookmarks.json",
        r#"{"items":[{"type":"file","ctime":1,"path":"a.md"}]}"#,
    );
    fx
}

/// The SHA-256 of the fixture's `a.md` (for the tools that require it).
fn sha_of_a(fx: &Fixture) -> String {
    let bytes = std::fs::read(fx.vault_dir("main").join("a.md")).expect("a.md");
    engine_core::hash::sha256_hex(&bytes)
}

/// Every file of the vault but the trash and the lock files, by path.
fn files(fx: &Fixture) -> Files {
    let mut out = Files::new();
    collect(&fx.vault_dir("main"), "", &mut out);
    out
}

fn collect(dir: &Path, prefix: &str, out: &mut Files) {
    for entry in std::fs::read_dir(dir).expect("dir") {
        let entry = entry.expect("entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == ".trash" || crate::support::gates::is_lock_folder(&entry.path()) {
            continue;
        }
        let rel = format!("{prefix}{name}");
        if entry.file_type().expect("type").is_dir() {
            collect(&entry.path(), &format!("{rel}/"), out);
        } else {
            out.insert(rel, std::fs::read(entry.path()).expect("read"));
        }
    }
}

/// Calls `tool`, approving it first when it asks for a human's confirmation.
fn call_approved(fx: &Fixture, tool: &str, args: Value) -> Value {
    match fx
        .call(&obsidian_tc::auth::Caller::stdio(), tool, args.clone())
        .result
    {
        Ok(value) => value,
        Err(error) if error.code == ErrorCode::ElicitRequired => {
            fx.approve_error(&error);
            fx.ok(tool, args)
        }
        Err(error) => panic!("{tool} failed: {error}"),
    }
}

#[test]
fn undo_restores_byte_identical_content_after_each_kind_of_mutation() {
    let mutations: Vec<(&str, Value)> = vec![
        (
            "write_note",
            json!({"path": "new/n.md", "content": "fresh\n"}),
        ),
        (
            "write_note",
            json!({"path": "a.md", "content": "replaced\n", "mode": "overwrite"}),
        ),
        (
            "append_note",
            json!({"path": "Folder/b.md", "content": "appended"}),
        ),
        (
            "patch_note",
            json!({"path": "a.md", "old": "first line", "new": "1st line"}),
        ),
        (
            "update_frontmatter",
            json!({"path": "a.md", "mode": "set", "key": "status", "value": "done"}),
        ),
        ("delete_note", json!({"path": "Folder/b.md"})),
        ("move_note", json!({"from": "a.md", "to": "a2.md"})),
        ("move_note", json!({"from": "a.md", "to": "Folder/a.md"})),
        (
            "copy_note",
            json!({"from": "Folder/b.md", "to": "b copy.md"}),
        ),
        (
            "bulk_move_notes",
            json!({"moves": [{"from": "a.md", "to": "Moved/a.md"}, {"from": "c.md", "to": "Moved/c.md"}]}),
        ),
        ("add_tag", json!({"path": "a.md", "tag": "fresh"})),
        ("remove_tag", json!({"path": "tagged.md", "tag": "topic"})),
        (
            "rename_tag",
            json!({"from": "topic", "to": "subject", "dry_run": false}),
        ),
        (
            "update_task",
            json!({"path": "tasks.md", "line": 2, "expected_text": "buy milk #home 📅 2026-01-05", "toggle": true}),
        ),
        (
            "bulk_create_notes",
            json!({"notes": [{"path": "bulk/one.md", "content": "1\n"}, {"path": "bulk/two.md", "content": "2\n"}]}),
        ),
        (
            "bulk_set_property",
            json!({"paths": ["a.md", "tagged.md"], "key": "status", "value": "x"}),
        ),
        ("capture_note", json!({"content": "a quick thought"})),
        (
            "commit_capture",
            json!({"capture_id": "QUEUED_CAPTURE", "path": "Inbox/filed.md"}),
        ),
        (
            "commit_capture",
            json!({"capture_id": "QUEUED_CAPTURE", "path": "a.md", "append": true}),
        ),
        (
            "edit_note",
            json!({"path": "a.md", "operations": [{"op": "replace", "start": 7, "expected": "second line", "content": "2nd line"}],
                   "dry_run": false, "expected_sha256": "SHA_OF_A"}),
        ),
        (
            "move_attachment",
            json!({"from": "assets/pic.png", "to": "assets/renamed.png"}),
        ),
        ("delete_attachment", json!({"path": "assets/pic.png"})),
        ("format_table", json!({"path": "table.md"})),
        (
            "insert_table_row",
            json!({"path": "table.md", "cells": ["c", "3"]}),
        ),
        (
            "insert_table_column",
            json!({"path": "table.md", "header": "X", "values": ["1", "2"]}),
        ),
        (
            "sort_table_by_column",
            json!({"path": "table.md", "column": "Name"}),
        ),
        (
            "rewrite_link",
            json!({"from": "a.md", "to": "c.md", "dry_run": false}),
        ),
        (
            "prune_hub_links",
            json!({"path": "hub.md", "policy": {"unresolved": true}, "dry_run": false}),
        ),
        (
            "improve_frontmatter",
            json!({"path": "a.md", "required": ["status"], "dry_run": false}),
        ),
        (
            "create_periodic_note",
            json!({"period": "daily", "date": "2026-01-05"}),
        ),
        (
            "find_or_create_periodic_note",
            json!({"period": "weekly", "date": "2026-01-05"}),
        ),
        (
            "append_to_periodic_note",
            json!({"period": "daily", "date": "2026-01-05", "content": "noted"}),
        ),
        (
            "create_canvas",
            json!({"path": "new.canvas", "nodes": [{"id": "a", "type": "text", "text": "t", "x": 0, "y": 0, "width": 10, "height": 10}]}),
        ),
        (
            "update_canvas",
            json!({"path": "map.canvas", "add_nodes": [{"id": "n2", "type": "text", "text": "x", "x": 1, "y": 1, "width": 10, "height": 10}], "remove_nodes": ["n1"]}),
        ),
        (
            "add_kanban_card",
            json!({"path": "board.md", "column": "Todo", "card": "card two"}),
        ),
        (
            "move_kanban_card",
            json!({"path": "board.md", "card": "card one", "to_column": "Done"}),
        ),
        ("save_workspace", json!({"name": "Writing"})),
        (
            "create_entity",
            json!({"name": "Acme", "type": "other", "observations": ["A firm"]}),
        ),
        (
            "add_observation",
            json!({"name": "Jo", "text": "Plays chess", "session": "s-1"}),
        ),
        (
            "link_entities",
            json!({"from": "Ann", "relation": "knows", "to": "Jo"}),
        ),
        (
            "unlink_entities",
            json!({"from": "Jo", "relation": "knows", "to": "Ann"}),
        ),
        (
            "rename_entity",
            json!({"name": "Ann", "new_name": "Ann Lee", "status": "retired"}),
        ),
        ("delete_entity", json!({"name": "Ann"})),
        ("add_bookmark", json!({"type": "file", "path": "c.md"})),
        ("remove_bookmark", json!({"id": "FIRST_BOOKMARK"})),
        (
            "create_base",
            json!({"path": "new.base", "views": [{"type": "table", "name": "All"}]}),
        ),
        (
            "update_base",
            json!({"path": "books.base", "views": [{"op": "add", "name": "Second", "view": {"type": "table", "name": "Second"}}]}),
        ),
    ];
    for (tool, mut args) in mutations {
        let fx = fixture();
        if args["expected_sha256"] == "SHA_OF_A" {
            args["expected_sha256"] = json!(sha_of_a(&fx));
        }
        if args["capture_id"] == "QUEUED_CAPTURE" {
            let queued = fx.ok("enqueue_capture", json!({"content": "filed later\n"}));
            args["capture_id"] = queued["capture"]["id"].clone();
        }
        if args["id"] == "FIRST_BOOKMARK" {
            args["id"] = fx.ok("list_bookmarks", json!({}))["bookmarks"][0]["id"].clone();
        }
        let before = files(&fx);
        call_approved(&fx, tool, args.clone());
        assert_ne!(files(&fx), before, "{tool} {args} changed nothing");
        let undone = fx.ok("undo_last_change", json!({}));
        assert_eq!(undone["tool"], tool, "{undone}");
        assert_eq!(undone["dry_run"], false);
        assert_eq!(files(&fx), before, "undo after {tool} {args}");
        // Nothing is left to undo: a second undo is a no-op (undos are never undone).
        let again = fx.ok("undo_last_change", json!({}));
        assert_eq!(again["files"], json!([]), "{again}");
        assert_eq!(files(&fx), before);
    }
}

#[test]
fn each_undo_takes_back_one_more_change_and_a_dry_run_changes_nothing() {
    let fx = fixture();
    let start = files(&fx);
    fx.ok("append_note", json!({"path": "c.md", "content": "one"}));
    let middle = files(&fx);
    fx.ok("append_note", json!({"path": "c.md", "content": "two"}));
    let end = files(&fx);

    let preview = fx.ok("undo_last_change", json!({"dry_run": true}));
    assert_eq!(preview["dry_run"], true);
    assert_eq!(preview["files"][0]["path"], "c.md");
    assert_eq!(preview["files"][0]["action"], "write");
    assert_eq!(files(&fx), end);

    fx.ok("undo_last_change", json!({}));
    assert_eq!(files(&fx), middle);
    fx.ok("undo_last_change", json!({}));
    assert_eq!(files(&fx), start);
}

#[test]
fn a_file_changed_again_since_is_not_overwritten_without_force() {
    let fx = fixture();
    fx.ok("append_note", json!({"path": "c.md", "content": "agent"}));
    fx.write("main", "c.md", "the user's own edit\n");
    let error = fx.err(
        "undo_last_change",
        json!({}),
        ErrorCode::ConcurrentModification,
    );
    assert_eq!(error.details["paths"], json!(["c.md"]));
    assert_eq!(files(&fx)["c.md"], b"the user's own edit\n");

    fx.ok("undo_last_change", json!({"force": true}));
    assert_eq!(files(&fx)["c.md"], b"");
    // The user's edit was kept as a snapshot of the undo, so it can be restored.
    let page = fx.ok("list_snapshots", json!({"path": "c.md"}));
    let newest = &page["items"][0];
    assert_eq!(newest["tool"], "undo_last_change");
    let read = fx.ok("read_snapshot", json!({"id": newest["id"]}));
    assert_eq!(read["text"], "the user's own edit\n");
}

#[test]
fn restore_note_previews_a_diff_then_restores_with_approval() {
    let fx = fixture();
    fx.ok(
        "patch_note",
        json!({"path": "a.md", "old": "first line", "new": "1st line"}),
    );
    let patched = files(&fx)["a.md"].clone();
    let page = fx.ok("list_snapshots", json!({}));
    assert_eq!(page["items"].as_array().map(Vec::len), Some(1));
    let id = page["items"][0]["id"].clone();
    assert_eq!(page["items"][0]["tool"], "patch_note");
    assert_eq!(page["items"][0]["existed"], true);

    let preview = fx.ok("restore_note", json!({"snapshot_id": id}));
    assert_eq!(preview["dry_run"], true);
    let diff = preview["diff"].as_str().expect("diff");
    assert!(
        diff.contains("-1st line") && diff.contains("+first line"),
        "{diff}"
    );
    assert_eq!(files(&fx)["a.md"], patched);

    let args = json!({"snapshot_id": id, "dry_run": false});
    let error = fx.err("restore_note", args.clone(), ErrorCode::ElicitRequired);
    assert_eq!(files(&fx)["a.md"], patched);
    fx.approve_error(&error);
    let done = fx.ok("restore_note", args);
    assert_eq!(done["file"]["action"], "write");
    assert_eq!(
        files(&fx)["a.md"],
        b"---\ntitle: A\n---\n# A\n\nfirst line\r\nsecond line\n"
    );
}

#[test]
fn failed_calls_record_nothing_and_unknown_snapshots_are_not_found() {
    let fx = fixture();
    fx.err(
        "write_note",
        json!({"path": "a.md", "content": "x"}),
        ErrorCode::AlreadyExists,
    );
    fx.err(
        "patch_note",
        json!({"path": "a.md", "old": "absent text", "new": "x"}),
        ErrorCode::NotFound,
    );
    assert_eq!(fx.ok("list_snapshots", json!({}))["items"], json!([]));
    assert_eq!(fx.ok("undo_last_change", json!({}))["files"], json!([]));
    fx.err("read_snapshot", json!({"id": 42}), ErrorCode::NotFound);
    fx.err(
        "restore_note",
        json!({"snapshot_id": 42}),
        ErrorCode::NotFound,
    );
}

#[test]
fn callers_undo_their_own_changes_and_never_see_hidden_snapshots() {
    let fx = fixture();
    fx.write("main", "Private/p.md", "secret\n");
    fx.ok(
        "append_note",
        json!({"path": "Private/p.md", "content": "more"}),
    );
    let agent = caller("agent", &["read:notes", "write:notes"], None);
    let appended = fx.call(
        &agent,
        "append_note",
        json!({"path": "c.md", "content": "agent"}),
    );
    appended.result.expect("agent append");
    fx.ok(
        "append_note",
        json!({"path": "Folder/b.md", "content": "stdio later"}),
    );

    // The agent's undo takes back its own change, not stdio's earlier or later ones.
    fx.call(&agent, "undo_last_change", json!({}))
        .result
        .expect("undo");
    let now = files(&fx);
    assert_eq!(now["c.md"], b"");
    assert_eq!(now["Private/p.md"], b"secret\nmore\n");
    assert!(now["Folder/b.md"].ends_with(b"stdio later\n"));

    // Restarted with the agent kept out of Private/: its snapshots are neither listed
    // nor readable.
    let config = fx.dir.path().join("config.json");
    let mut value: Value =
        serde_json::from_slice(&std::fs::read(&config).expect("config")).expect("json");
    value["acl"] = json!({"readPaths": ["*.md", "Folder/**"]});
    std::fs::write(&config, value.to_string()).expect("config");
    let server = fx.reopen();
    let seen = server
        .call(&agent, "list_snapshots", json!({}))
        .result
        .expect("list");
    let paths: Vec<&str> = seen["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|item| item["path"].as_str())
        .collect();
    assert!(
        !paths.is_empty() && !paths.contains(&"Private/p.md"),
        "{paths:?}"
    );
    let hidden = fx
        .server
        .runtime()
        .store()
        .snapshots()
        .list("main", Some("Private/p.md"), 10, None)
        .expect("rows");
    let id = hidden[0].id;
    let error = server
        .call(&agent, "read_snapshot", json!({"id": id}))
        .result
        .expect_err("hidden");
    assert_eq!(error.code, ErrorCode::NotFound);
}
