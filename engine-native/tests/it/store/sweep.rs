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
    // Events: retention 1 day keeps the last one only.
    for ts in [T0, T0 + DAY - 1, T0 + DAY + 5] {
        store.events().append(&event("main", ts)).unwrap();
    }

    let now = T0 + 2 * DAY;
    let retention = Retention {
        event_log_seconds: DAY,
        snapshot_seconds: DAY,
    };
    assert_eq!(
        store.sweep(now, retention).unwrap(),
        SweepCounts {
            idempotency_keys: 2,
            elicit_tokens: 2,
            events: 2,
            snapshots: 0,
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
