//! `snapshot_note`, the original obsidian-tc's name for a snapshot taken by hand: it keeps
//! the note's bytes (and changes nothing), `list_snapshots` shows it with tool
//! `snapshot_note`, `read_snapshot` reads it, `restore_note` puts the note back to it,
//! `undo_last_change` passes over it, the per-note retention drops the oldest, and a path that
//! is not a readable note is refused with nothing kept.

use obsidian_tc::errors::ErrorCode;
use serde_json::json;

use crate::support::dispatch::{Fixture, caller};

const NOTE: &str = "---\ntitle: A\n---\n# A\n\nfirst line\r\nsecond line\n";

fn fixture(extra: serde_json::Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), serde_json::Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    let fx = Fixture::new(config);
    fx.write("main", "a.md", NOTE);
    fx.write("main", "Secret/s.md", "hidden\n");
    fx.write("main", "pic.png", "not a note");
    fx
}

fn bytes(fx: &Fixture, rel: &str) -> Vec<u8> {
    std::fs::read(fx.vault_dir("main").join(rel)).expect("read")
}

#[test]
fn a_snapshot_taken_by_hand_is_listed_read_and_restored_and_changes_nothing() {
    let fx = fixture(json!({}));
    let taken = fx.ok("snapshot_note", json!({"path": "a.md"}));
    assert_eq!(taken["path"], "a.md");
    assert_eq!(
        taken["content_hash"],
        engine_core::hash::sha256_hex(NOTE.as_bytes())
    );
    assert_eq!(taken["created_at"], fx.now_s());
    assert_eq!(bytes(&fx, "a.md"), NOTE.as_bytes(), "the note is untouched");
    let id = taken["snapshot_id"].clone();

    let listed = fx.ok("list_snapshots", json!({"path": "a.md"}));
    let item = &listed["items"][0];
    assert_eq!(item["id"], id);
    assert_eq!(item["tool"], "snapshot_note");
    assert_eq!(
        (item["existed"].clone(), item["kept"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(item["sha256"], taken["content_hash"]);
    assert_eq!(item["after_sha256"], taken["content_hash"]);
    let read = fx.ok("read_snapshot", json!({"id": id}));
    assert_eq!(read["text"], NOTE);

    // Nothing to undo: a snapshot taken by hand is not a change.
    assert_eq!(fx.ok("undo_last_change", json!({}))["files"], json!([]));

    fx.ok(
        "patch_note",
        json!({"path": "a.md", "old": "first line", "new": "1st line"}),
    );
    assert_ne!(bytes(&fx, "a.md"), NOTE.as_bytes());
    let args = json!({"snapshot_id": id, "dry_run": false});
    let error = fx.err("restore_note", args.clone(), ErrorCode::ElicitRequired);
    fx.approve_error(&error);
    assert_eq!(fx.ok("restore_note", args)["file"]["action"], "write");
    assert_eq!(bytes(&fx, "a.md"), NOTE.as_bytes());
}

#[test]
fn undo_passes_over_a_snapshot_to_the_callers_last_change() {
    let fx = fixture(json!({}));
    fx.ok(
        "patch_note",
        json!({"path": "a.md", "old": "first line", "new": "1st line"}),
    );
    fx.ok("snapshot_note", json!({"path": "a.md"}));
    let undone = fx.ok("undo_last_change", json!({}));
    assert_eq!(undone["tool"], "patch_note", "{undone}");
    assert_eq!(bytes(&fx, "a.md"), NOTE.as_bytes());
}

#[test]
fn snapshots_taken_by_hand_keep_to_the_per_note_retention() {
    let fx = fixture(json!({"maintenance": {"snapshotsPerNote": 2}}));
    let ids: Vec<i64> = (0..3)
        .map(|_| {
            fx.ok("snapshot_note", json!({"path": "a.md"}))["snapshot_id"]
                .as_i64()
                .expect("id")
        })
        .collect();
    let listed = fx.ok("list_snapshots", json!({"path": "a.md"}));
    let kept: Vec<i64> = listed["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["id"].as_i64().expect("id"))
        .collect();
    assert_eq!(kept, [ids[2], ids[1]], "the oldest is dropped");
    fx.err("read_snapshot", json!({"id": ids[0]}), ErrorCode::NotFound);
}

#[test]
fn what_is_not_a_readable_note_is_refused_and_nothing_is_kept() {
    let fx = fixture(json!({"acl": {"readPaths": ["a.md", "missing.md", "pic.png", "Folder/**"]}}));
    std::fs::create_dir_all(fx.vault_dir("main").join("Folder")).expect("folder");
    for path in ["missing.md", "pic.png", "Folder"] {
        fx.err("snapshot_note", json!({"path": path}), ErrorCode::NotFound);
    }
    let reader = caller("agent", &["read:notes"], None);
    let denied = fx.err_as(
        &reader,
        "snapshot_note",
        json!({"path": "Secret/s.md"}),
        ErrorCode::AclDenied,
    );
    assert!(!denied.message.contains("hidden"));
    fx.err(
        "snapshot_note",
        json!({"path": "../outside.md"}),
        ErrorCode::PathInvalid,
    );
    assert_eq!(fx.ok("list_snapshots", json!({}))["items"], json!([]));
}
