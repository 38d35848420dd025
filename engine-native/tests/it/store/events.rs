//! The event log: append, recent (newest first, per vault), limits.

use obsidian_tc::store::{Event, Outcome, StoreError};
use serde_json::json;

use crate::support;

fn event(vault: &str, ts: i64, outcome: Outcome) -> Event {
    Event {
        vault_id: vault.to_owned(),
        ts,
        tool: "write_note".to_owned(),
        caller: "stdio".to_owned(),
        outcome,
        duration_ms: 12,
        args_hash: "0123456789abcdef0123456789abcdef".to_owned(),
        details: json!({"result_size": 10}),
    }
}

#[test]
fn appended_events_come_back_newest_first_and_intact() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let log = store.events();
    let ok = event("main", 100, Outcome::Ok);
    let failed = event(
        "main",
        101,
        Outcome::Error {
            code: "acl_denied".into(),
        },
    );
    let first = log.append(&ok).unwrap();
    let second = log.append(&failed).unwrap();
    assert!(second > first);
    let recent = log.recent(Some("main"), 10).unwrap();
    assert_eq!(recent.len(), 2);
    assert_eq!((recent[0].id, &recent[0].event), (second, &failed));
    assert_eq!((recent[1].id, &recent[1].event), (first, &ok));
    assert_eq!(log.recent(None, 1).unwrap()[0].id, second);
}

#[test]
fn recent_is_scoped_by_vault() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let log = store.events();
    log.append(&event("a", 1, Outcome::Ok)).unwrap();
    log.append(&event("b", 2, Outcome::Ok)).unwrap();
    let b = log.recent(Some("b"), 10).unwrap();
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].event.vault_id, "b");
    assert_eq!(log.recent(None, 10).unwrap().len(), 2);
    assert!(log.recent(Some("c"), 10).unwrap().is_empty());
}

#[test]
fn recent_refuses_a_limit_out_of_range() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    assert!(matches!(
        store.events().recent(None, 0),
        Err(StoreError::InvalidLimit { .. })
    ));
}
