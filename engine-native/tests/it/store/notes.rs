//! Notes metadata: upsert, get, paging by prefix and cursor, delete, vault scoping.

use obsidian_tc::store::{NoteMeta, StoreError};
use serde_json::json;

use crate::support;

fn note(path: &str, size: u64) -> NoteMeta {
    NoteMeta {
        path: path.to_owned(),
        sha256: format!("{size:064x}"),
        mtime: 1_700_000_000_000 + size as i64,
        size,
        frontmatter: json!({"size": size}),
    }
}

#[test]
fn upsert_replaces_and_get_reads_back() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let notes = store.notes();
    assert_eq!(notes.get("main", "a.md").unwrap(), None);
    notes.upsert("main", &note("a.md", 1)).unwrap();
    notes.upsert("main", &note("a.md", 2)).unwrap();
    assert_eq!(notes.get("main", "a.md").unwrap(), Some(note("a.md", 2)));
    assert_eq!(notes.list("main", None, None, 10).unwrap().items.len(), 1);
}

#[test]
fn list_pages_by_prefix_with_a_cursor() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let notes = store.notes();
    for (i, p) in [
        "Inbox/c.md",
        "Inbox/a.md",
        "Inbox/b.md",
        "Inboxes/x.md",
        "Projects/p.md",
        "z.md",
    ]
    .iter()
    .enumerate()
    {
        notes.upsert("main", &note(p, i as u64)).unwrap();
    }
    let first = notes.list("main", Some("Inbox/"), None, 2).unwrap();
    let paths: Vec<_> = first.items.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(paths, ["Inbox/a.md", "Inbox/b.md"]);
    let cursor = first.cursor.expect("a second page");
    let second = notes
        .list("main", Some("Inbox/"), Some(&cursor), 2)
        .unwrap();
    let paths: Vec<_> = second.items.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(paths, ["Inbox/c.md"]);
    assert_eq!(second.cursor, None);
    // An exactly full last page has no cursor either.
    let all = notes.list("main", None, None, 6).unwrap();
    assert_eq!(all.items.len(), 6);
    assert_eq!(all.cursor, None);
    // A prefix with LIKE wildcards matches literally.
    assert!(
        notes
            .list("main", Some("Inbox%"), None, 10)
            .unwrap()
            .items
            .is_empty()
    );
}

#[test]
fn list_refuses_a_limit_out_of_range() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    for limit in [0, 1001] {
        let err = store.notes().list("main", None, None, limit).unwrap_err();
        assert!(
            matches!(err, StoreError::InvalidLimit { max: 1000, .. }),
            "{err:?}"
        );
    }
}

#[test]
fn a_size_beyond_i64_is_refused_and_nothing_is_written() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let err = store
        .notes()
        .upsert("main", &note("a.md", u64::MAX))
        .unwrap_err();
    assert!(matches!(err, StoreError::OutOfRange { .. }));
    assert_eq!(store.notes().get("main", "a.md").unwrap(), None);
}

#[test]
fn delete_removes_one_note() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let notes = store.notes();
    notes.upsert("main", &note("a.md", 1)).unwrap();
    notes.upsert("main", &note("b.md", 2)).unwrap();
    assert!(notes.delete("main", "a.md").unwrap());
    assert!(!notes.delete("main", "a.md").unwrap());
    assert_eq!(notes.get("main", "a.md").unwrap(), None);
    assert_eq!(notes.get("main", "b.md").unwrap(), Some(note("b.md", 2)));
}

#[test]
fn a_note_of_vault_a_is_invisible_to_vault_b() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let notes = store.notes();
    notes.upsert("a", &note("secret.md", 1)).unwrap();
    assert_eq!(notes.get("b", "secret.md").unwrap(), None);
    assert!(notes.list("b", None, None, 1000).unwrap().items.is_empty());
    assert!(!notes.delete("b", "secret.md").unwrap());
    notes.upsert("b", &note("secret.md", 9)).unwrap();
    assert_eq!(
        notes.get("a", "secret.md").unwrap(),
        Some(note("secret.md", 1))
    );
}
