//! Path escapes through the real tools: every way of naming something outside the vault, or
//! inside a control folder, is refused with its typed code by `read_note`, `write_note`,
//! `append_note`, `move_note` (source and destination), `copy_note`, `delete_note`,
//! `list_notes` and `read_notes`, and the whole temp tree (vaults and the folder outside
//! them) is byte-for-byte unchanged afterwards. NFC and NFD spellings name the same note.

use std::os::unix::fs::symlink;

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::Fixture;
use crate::support::gates::{call_approved, err_approved, snapshot};

/// A vault with an ACL (so the hard-link guard is on) that denies `Privé/`, a folder
/// `outside` next to it with a secret, and links from the vault to the secret.
fn fixture() -> Fixture {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {
            "readPaths": ["**", "!Privé/**"],
            "writePaths": ["**", "!Privé/**"],
            "deletePaths": ["**", "!Privé/**"]
        }
    }));
    let outside = fx.dir.path().join("outside");
    std::fs::create_dir_all(&outside).expect("outside folder");
    std::fs::write(outside.join("secret.md"), "secret\n").expect("secret");
    fx.write("main", "a.md", "note a\n");
    fx.write("main", "Café.md", "café\n");
    fx.write("main", "Privé/hidden.md", "private\n");
    fx.write("main", ".obsidian/app.json", "{}");
    fx.write("main", ".git/config", "[core]\n");
    fx.write("main", ".trash/old.md", "old\n");
    let vault = fx.vault_dir("main");
    symlink(outside.join("secret.md"), vault.join("link.md")).expect("file symlink");
    symlink(&outside, vault.join("linkdir")).expect("folder symlink");
    std::fs::hard_link(outside.join("secret.md"), vault.join("hard.md")).expect("hard link");
    fx
}

/// Each refused path and the code every tool must answer for it.
fn escapes(fx: &Fixture) -> Vec<(String, ErrorCode)> {
    let absolute = fx.dir.path().join("outside/secret.md");
    let mut cases: Vec<(String, ErrorCode)> = [
        ("../outside/secret.md", ErrorCode::PathInvalid),
        ("a/../../outside/secret.md", ErrorCode::PathInvalid),
        ("./../x.md", ErrorCode::PathInvalid),
        ("/etc/passwd", ErrorCode::PathInvalid),
        ("C:\\Windows\\x.md", ErrorCode::PathInvalid),
        ("C:/x.md", ErrorCode::PathInvalid),
        ("..\\outside\\secret.md", ErrorCode::PathInvalid),
        ("a\\b.md", ErrorCode::PathInvalid),
        ("nul\u{0}.md", ErrorCode::PathInvalid),
        ("line\nbreak.md", ErrorCode::PathInvalid),
        ("esc\u{1b}.md", ErrorCode::PathInvalid),
        (".Obsidian/../a.md", ErrorCode::PathInvalid),
        (".OBSIDIAN/app.json", ErrorCode::AclDenied),
        (".obsidian/app.json", ErrorCode::AclDenied),
        (".git/config", ErrorCode::AclDenied),
        (".trash/old.md", ErrorCode::AclDenied),
        ("link.md", ErrorCode::AclDenied),
        ("linkdir/secret.md", ErrorCode::AclDenied),
        ("linkdir/new.md", ErrorCode::AclDenied),
        ("hard.md", ErrorCode::AclDenied),
        ("Privé/hidden.md", ErrorCode::AclDenied),
        ("Prive\u{301}/hidden.md", ErrorCode::AclDenied),
    ]
    .into_iter()
    .map(|(path, code)| (path.to_owned(), code))
    .collect();
    cases.push((
        absolute.to_string_lossy().into_owned(),
        ErrorCode::PathInvalid,
    ));
    cases
}

/// Every tool call that takes `path` somewhere, as (tool, args).
fn calls_with(path: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("read_note", json!({"path": path})),
        (
            "write_note",
            json!({"path": path, "content": "pwned\n", "mode": "upsert"}),
        ),
        ("append_note", json!({"path": path, "content": "pwned"})),
        (
            "patch_note",
            json!({"path": path, "old": "secret", "new": "pwned"}),
        ),
        ("move_note", json!({"from": "a.md", "to": path})),
        ("move_note", json!({"from": path, "to": "moved.md"})),
        ("copy_note", json!({"from": "a.md", "to": path})),
        ("copy_note", json!({"from": path, "to": "copied.md"})),
        ("delete_note", json!({"path": path})),
    ]
}

#[test]
fn every_escape_is_refused_by_every_path_tool_and_changes_nothing() {
    let fx = fixture();
    let before = snapshot(fx.dir.path());
    for (path, code) in escapes(&fx) {
        for (tool, args) in calls_with(&path) {
            let error = err_approved(&fx, tool, args.clone(), code);
            assert!(!error.retryable, "{tool} {args}");
            assert!(!error.recovery.is_empty(), "{tool} {args}");
            assert_eq!(
                snapshot(fx.dir.path()),
                before,
                "{tool} {args} changed the tree"
            );
        }
    }
}

#[test]
fn read_notes_refuses_each_escape_in_its_own_item() {
    let fx = fixture();
    let cases = escapes(&fx);
    let mut paths: Vec<&str> = cases.iter().map(|(path, _)| path.as_str()).collect();
    paths.push("a.md");
    let page = fx.ok("read_notes", json!({"paths": paths}));
    let items = page["items"].as_array().expect("items");
    assert_eq!(items.len(), cases.len() + 1);
    for ((path, code), item) in cases.iter().zip(items) {
        assert_eq!(item["ok"], false, "{path}: {item}");
        assert_eq!(item["error"]["code"], code.as_str(), "{path}: {item}");
        assert!(
            !item.to_string().contains("secret\\n") && !item.to_string().contains("private"),
            "{path} leaked content: {item}"
        );
    }
    let last = items.last().expect("a.md item");
    assert_eq!(last["ok"], true);
    assert_eq!(last["content"], "note a\n");
    assert_eq!(page["failed_count"], cases.len());
}

#[test]
fn list_notes_refuses_escaping_folders_and_never_lists_through_links() {
    let fx = fixture();
    for (folder, code) in [
        ("..", ErrorCode::PathInvalid),
        ("../outside", ErrorCode::PathInvalid),
        ("/etc", ErrorCode::PathInvalid),
        ("C:\\", ErrorCode::PathInvalid),
        ("a\u{0}", ErrorCode::PathInvalid),
        (".OBSIDIAN", ErrorCode::AclDenied),
        (".git", ErrorCode::AclDenied),
        (".trash", ErrorCode::AclDenied),
        ("linkdir", ErrorCode::AclDenied),
    ] {
        fx.err("list_notes", json!({"folder": folder}), code);
    }
    let page = fx.ok("list_notes", json!({"include_attachments": true}));
    let listed: Vec<&str> = page["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|note| note["path"].as_str())
        .collect();
    assert_eq!(listed, vec!["Café.md", "a.md"], "{page}");
}

#[test]
fn an_nfd_spelling_names_the_same_note_as_its_nfc_one() {
    let fx = fixture();
    let nfd = "Cafe\u{301}.md";
    let read = fx.ok("read_note", json!({"path": nfd}));
    assert_eq!(read["content"], "café\n");
    assert_eq!(read["path"], "Café.md");

    let appended = call_approved(&fx, "append_note", json!({"path": nfd, "content": "more"}));
    assert!(appended.result.is_ok(), "{:?}", appended.result);
    let written = call_approved(
        &fx,
        "write_note",
        json!({"path": nfd, "content": "new café\n", "mode": "overwrite"}),
    );
    let written = written.result.expect("overwrite through the NFD spelling");
    assert_eq!(written["path"], "Café.md");
    fx.err(
        "write_note",
        json!({"path": nfd, "content": "x"}),
        ErrorCode::AlreadyExists,
    );
    let names: Vec<String> = std::fs::read_dir(fx.vault_dir("main"))
        .expect("vault")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.starts_with("Caf"))
        .collect();
    assert_eq!(names, vec!["Café.md".to_owned()], "one note, spelt NFC");
    assert_eq!(
        std::fs::read_to_string(fx.vault_dir("main").join("Café.md")).expect("note"),
        "new café\n"
    );
}
