//! Shared helpers of the store tests: a store on a real file in a temp dir, and rows to put
//! in it.
#![allow(dead_code)]

use std::path::PathBuf;

use obsidian_tc::store::{ElicitRequest, Event, IdempotencyPolicy, Outcome, Store};
use serde_json::json;
use tempfile::TempDir;

/// A temp dir and the `cache.db` path inside a not-yet-existing subdirectory of it.
pub fn db_path() -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("cache").join("cache.db");
    (dir, path)
}

/// Opens a store on `path` with the default policy.
pub fn open(path: &std::path::Path) -> Store {
    Store::open(path, IdempotencyPolicy::default()).expect("open store")
}

/// A successful `read_note` audit row of the stdio caller in `vault` at `ts` (Unix seconds).
pub fn event(vault: &str, ts: i64) -> Event {
    Event {
        vault_id: vault.into(),
        ts,
        tool: "read_note".into(),
        caller: "stdio".into(),
        outcome: Outcome::Ok,
        duration_ms: 1,
        args_hash: "h".into(),
        details: json!({}),
        paths: Vec::new(),
    }
}

/// A `delete_note` approval request of the stdio caller in `vault` for `args_hash`.
pub fn elicit_request(vault: &str, args_hash: &str) -> ElicitRequest {
    ElicitRequest {
        vault_id: vault.into(),
        tool_name: "delete_note".into(),
        args_hash: args_hash.into(),
        caller: "stdio".into(),
        proposed_change: json!(null),
    }
}

/// One claimed idempotency key (`k`), one pending approval request (`h`, 300 s) and one audit
/// row for `vault`, at `now` (Unix seconds).
pub fn seed_vault_rows(store: &Store, vault: &str, now: i64) {
    store
        .idempotency()
        .claim(vault, "k", "write_note", "h", now)
        .expect("claim");
    store
        .elicit()
        .request(&elicit_request(vault, "h"), 300, now)
        .expect("request");
    store.events().append(&event(vault, now)).expect("event");
}

/// How many audit rows and live approval requests (pending or approved) `vault` has at `now`.
pub fn vault_rows(store: &Store, vault: &str, now: i64) -> (usize, usize) {
    let events = store.events().recent(Some(vault), 1000).expect("events");
    let requests = store.elicit().list(Some(vault), now).expect("list");
    (events.len(), requests.len())
}
