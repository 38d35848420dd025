//! `list_tags` and `find_notes_by_tag` keep each note's parsed tags between calls: after
//! every kind of change their answers equal those of a fresh read of the same files (a copy
//! of the vault served by a new server), and a note the caller may no longer read stops
//! counting at once.

use std::fs::File;
use std::path::Path;
use std::time::{Duration, SystemTime};

use obsidian_tc::auth::Caller;
use serde_json::{Value, json};

use super::{copy_dir, fixture, usage};
use crate::support::dispatch::Fixture;

/// Longer than the window in which a note's stamp is not trusted (3 s), so the notes written
/// before it are kept by the first call after it.
const SETTLE: Duration = Duration::from_millis(3_300);

/// `tool` with `args` on a new server over a copy of `fx`'s vault `main`: what reading every
/// note now gives.
fn fresh(fx: &Fixture, tool: &str, args: &Value) -> Value {
    let copy = fixture(json!({}));
    copy_dir(&fx.vault_dir("main"), &copy.vault_dir("main"));
    copy.ok(tool, args.clone())
}

/// Asserts that `list_tags` and `find_notes_by_tag` on `fx` answer like a fresh read.
fn assert_fresh(fx: &Fixture, tag: &str) {
    for (tool, args) in [
        ("list_tags", json!({})),
        ("find_notes_by_tag", json!({"tag": tag})),
        ("list_tags", json!({"folder": "Notes"})),
    ] {
        assert_eq!(
            fx.ok(tool, args.clone()),
            fresh(fx, tool, &args),
            "{tool} {args}"
        );
    }
}

fn modified(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .expect("mtime")
}

fn set_modified(path: &Path, at: SystemTime) {
    File::options()
        .write(true)
        .open(path)
        .and_then(|file| file.set_modified(at))
        .expect("set the mtime");
}

/// Same-size edits with the modification time put back, a deletion, a new note and a write
/// through the server: each seen on the next call.
#[test]
fn kept_tags_follow_every_change_of_the_files() {
    let fx = fixture(json!({}));
    fx.write("main", "Notes/a.md", "---\ntags: [alpha]\n---\n#one\n");
    fx.write("main", "Notes/b.md", "#beta #one\n");
    fx.write("main", "c.md", "#gamma/x\n");
    fx.write("main", "bad.md", "---\ntags: [oops\n---\n#inline\n");
    std::thread::sleep(SETTLE);
    assert_fresh(&fx, "one");
    let tags = usage(&fx.ok("list_tags", json!({})));
    assert_eq!(tags["one"]["notes"], 2);

    // The same size, other tags, the old modification time: only the change time moved.
    let a = fx.vault_dir("main").join("Notes/a.md");
    let before = modified(&a);
    fx.write("main", "Notes/a.md", "---\ntags: [omega]\n---\n#two\n");
    set_modified(&a, before);
    let tags = usage(&fx.ok("list_tags", json!({})));
    assert!(tags.contains_key("omega"), "stale tags of a.md: {tags:?}");
    assert!(!tags.contains_key("alpha"));
    assert_eq!(tags["one"]["notes"], 1);
    assert_fresh(&fx, "one");

    // Deleted, and a new note under a name that was never listed.
    std::fs::remove_file(fx.vault_dir("main").join("Notes/b.md")).expect("delete");
    fx.write("main", "Notes/new.md", "#beta\n");
    assert_fresh(&fx, "beta");
    let found = fx.ok("find_notes_by_tag", json!({"tag": "beta"}));
    assert_eq!(
        found["notes"],
        json!([{"path": "Notes/new.md", "matched": ["beta"]}])
    );

    // Written by the server itself.
    fx.ok("add_tag", json!({"path": "c.md", "tag": "added"}));
    assert_eq!(usage(&fx.ok("list_tags", json!({})))["added"]["notes"], 1);
    assert_fresh(&fx, "added");

    // Fixed frontmatter, the same size as the broken one.
    fx.write("main", "bad.md", "---\ntags: [oop]\n---\n#inline\n");
    let list = fx.ok("list_tags", json!({}));
    assert_eq!(list["invalid_frontmatter"], json!([]));
    assert_fresh(&fx, "oop");
}

/// A note rewritten within the window in which its stamp cannot tell (the same size and
/// modification time as the first write) is read again, not taken as unchanged.
#[test]
fn a_note_written_within_the_racy_window_is_read_again() {
    let fx = fixture(json!({}));
    fx.write("main", "Notes/r.md", "#first\n");
    let r = fx.vault_dir("main").join("Notes/r.md");
    let first = modified(&r);
    assert_eq!(
        fx.ok("find_notes_by_tag", json!({"tag": "first"}))["total_count"],
        1
    );
    fx.write("main", "Notes/r.md", "#other\n");
    set_modified(&r, first);
    assert_eq!(
        fx.ok("find_notes_by_tag", json!({"tag": "first"}))["total_count"],
        0
    );
    assert_eq!(
        fx.ok("find_notes_by_tag", json!({"tag": "other"}))["total_count"],
        1
    );
    assert_fresh(&fx, "other");
}

/// Kept tags of a note another server read stop counting once the ACL hides the note.
#[test]
fn a_note_hidden_by_a_new_acl_stops_counting_at_once() {
    let fx = fixture(json!({}));
    fx.write("main", "Public/p.md", "#shared #open\n");
    fx.write("main", "Secret/s.md", "#shared #secret\n");
    std::thread::sleep(SETTLE);
    let tags = usage(&fx.ok("list_tags", json!({})));
    assert_eq!(tags["shared"]["notes"], 2);
    assert_eq!(tags["secret"]["notes"], 1);

    let path = fx.dir.path().join("config.json");
    let mut config: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("config")).expect("json");
    config["acl"] = json!({"readPaths": ["Public/**"]});
    std::fs::write(&path, config.to_string()).expect("config");
    let restricted = fx.reopen();
    let call = |tool: &str, args: Value| {
        restricted
            .call(&Caller::stdio(), tool, args)
            .result
            .expect("call succeeds")
    };
    let tags = usage(&call("list_tags", json!({})));
    assert_eq!(tags.keys().collect::<Vec<_>>(), ["open", "shared"]);
    assert_eq!(tags["shared"]["notes"], 1);
    let found = call("find_notes_by_tag", json!({"tag": "secret"}));
    assert_eq!(found["total_count"], 0);
    assert_eq!(call("list_tags", json!({}))["notes_scanned"], 1);
}
