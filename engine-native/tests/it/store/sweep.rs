//! Maintenance: the sweep deletes exactly the expired and old rows and reports the counts.

use obsidian_tc::store::{Claim, Retention, SweepCounts};

use crate::support;
use crate::support::store::{elicit_request, event};

const T0: i64 = 1_700_000_000;
const DAY: i64 = 86_400;

#[test]
fn sweep_deletes_expired_keys_tokens_and_old_events_and_counts_them() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let ids = store.idempotency();
    // Expired by now = T0 + 2 days: two keys. Live: one.
    ids.claim("main", "old-done", "write_note", "h", T0)
        .unwrap();
    ids.complete("main", "old-done", "r", T0).unwrap();
    ids.claim("main", "old-stuck", "write_note", "h", T0)
        .unwrap();
    ids.claim("main", "live", "write_note", "h", T0 + 2 * DAY - 10)
        .unwrap();
    // Tokens: one expired unused, one expired used, one live.
    let elicit = store.elicit();
    elicit.mint(&elicit_request("main", "a"), 300, T0).unwrap();
    let used = elicit.mint(&elicit_request("main", "b"), 300, T0).unwrap();
    elicit.consume(&used, "main", "b", "stdio", T0 + 1).unwrap();
    elicit
        .request(&elicit_request("main", "c"), 300, T0 + 2 * DAY - 10)
        .unwrap();
    // Events: retention 1 day keeps the last one only; their paths go with them.
    for ts in [T0, T0 + DAY - 1, T0 + DAY + 5] {
        let mut event = event("main", ts);
        event.paths = vec![format!("notes/{ts}.md")];
        store.events().append(&event).unwrap();
    }

    let now = T0 + 2 * DAY;
    let retention = Retention {
        event_log_seconds: DAY,
        snapshot_seconds: DAY,
        ..Retention::default()
    };
    assert_eq!(
        store.sweep(now, retention).unwrap(),
        SweepCounts {
            idempotency_keys: 2,
            elicit_tokens: 2,
            events: 2,
            snapshots: 0,
            committed_captures: 0,
            retrievals: 0,
            episodes: 0,
        }
    );
    assert_eq!(store.sweep(now, retention).unwrap(), SweepCounts::default());

    assert_eq!(
        ids.claim("main", "live", "write_note", "h", now).unwrap(),
        Claim::InFlight
    );
    assert_eq!(elicit.list(None, now).unwrap().len(), 1);
    let events = store.events().recent(None, 10).unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].event.ts, T0 + DAY + 5);
    let paths: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("SELECT count(*) FROM event_paths", [], |row| row.get(0))
        .unwrap();
    assert_eq!(paths, 1, "the swept events' paths are gone with them");
}

#[test]
fn the_default_retention_keeps_thirty_days_of_events() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    store.events().append(&event("main", T0)).unwrap();
    assert_eq!(
        store
            .sweep(T0 + 30 * DAY, Retention::default())
            .unwrap()
            .events,
        0
    );
    assert_eq!(
        store
            .sweep(T0 + 30 * DAY + 1, Retention::default())
            .unwrap()
            .events,
        1
    );
}

#[test]
fn the_sweep_deletes_captures_filed_before_the_retention_and_never_a_pending_one() {
    use obsidian_tc::store::{Commit, NewCapture};
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let queue = store.capture_queue();
    let enqueue = |content: &str| {
        let capture = NewCapture {
            vault_id: "main",
            caller: "stdio",
            content,
            title: None,
            suggested_path: None,
            tags: &[],
            now: T0,
        };
        queue.enqueue(&capture).unwrap().capture.id
    };
    let (old, recent, pending) = (enqueue("old"), enqueue("recent"), enqueue("pending"));
    for (id, at) in [(&old, T0), (&recent, T0 + DAY + 5)] {
        let commit = Commit {
            at,
            path: format!("Inbox/{id}.md"),
            sha256: "0".repeat(64),
        };
        queue.mark_committed("main", id, &commit).unwrap();
    }
    let retention = Retention {
        event_log_seconds: DAY,
        snapshot_seconds: DAY,
        ..Retention::default()
    };
    let counts = store.sweep(T0 + 2 * DAY, retention).unwrap();
    assert_eq!(counts.committed_captures, 1);
    assert!(queue.get("main", &old).unwrap().is_none());
    assert!(queue.get("main", &recent).unwrap().is_some());
    assert!(queue.get("main", &pending).unwrap().is_some());
}
