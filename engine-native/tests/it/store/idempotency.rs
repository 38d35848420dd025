//! Idempotency claims: every outcome, expiry, vault scoping, and atomicity under concurrency.

use std::sync::{Arc, Barrier};
use std::thread;

use obsidian_tc::store::{Claim, IdempotencyPolicy, Store, StoreError};

use crate::support;

const T0: i64 = 1_700_000_000;

#[test]
fn a_new_key_is_fresh_then_in_flight_for_a_duplicate() {
    let (_dir, path) = support::store::db_path();
    let ids = support::store::open(&path);
    let ids = ids.idempotency();
    assert_eq!(
        ids.claim("main", "k", "write_note", "h1", T0).unwrap(),
        Claim::Fresh
    );
    assert_eq!(
        ids.claim("main", "k", "write_note", "h1", T0 + 59).unwrap(),
        Claim::InFlight
    );
}

#[test]
fn a_completed_key_replays_its_result() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let ids = store.idempotency();
    ids.claim("main", "k", "write_note", "h1", T0).unwrap();
    ids.complete("main", "k", r#"{"ok":true}"#, T0 + 1).unwrap();
    assert_eq!(
        ids.claim("main", "k", "write_note", "h1", T0 + 100)
            .unwrap(),
        Claim::Replay(r#"{"ok":true}"#.to_owned())
    );
}

#[test]
fn the_same_key_with_other_args_or_tool_is_a_mismatch() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let ids = store.idempotency();
    ids.claim("main", "k", "write_note", "h1", T0).unwrap();
    assert_eq!(
        ids.claim("main", "k", "write_note", "h2", T0).unwrap(),
        Claim::Mismatch
    );
    assert_eq!(
        ids.claim("main", "k", "move_note", "h1", T0).unwrap(),
        Claim::Mismatch
    );
    ids.complete("main", "k", "r", T0).unwrap();
    assert_eq!(
        ids.claim("main", "k", "write_note", "h2", T0).unwrap(),
        Claim::Mismatch
    );
}

#[test]
fn a_stale_in_flight_claim_is_reclaimed_once() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let ids = store.idempotency();
    ids.claim("main", "k", "write_note", "h1", T0).unwrap();
    assert_eq!(
        ids.claim("main", "k", "write_note", "h1", T0 + 60).unwrap(),
        Claim::Reclaimed
    );
    // The takeover restarted the reclaim window.
    assert_eq!(
        ids.claim("main", "k", "write_note", "h1", T0 + 61).unwrap(),
        Claim::InFlight
    );
    // A stale claim with other args is still a mismatch, never a takeover.
    assert_eq!(
        ids.claim("main", "k", "write_note", "h2", T0 + 500)
            .unwrap(),
        Claim::Mismatch
    );
}

#[test]
fn an_indeterminate_key_is_never_run_again_until_it_expires() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let ids = store.idempotency();
    ids.claim("main", "k", "write_note", "h1", T0).unwrap();
    ids.mark_indeterminate("main", "k").unwrap();
    assert_eq!(
        ids.claim("main", "k", "write_note", "h1", T0 + 3600)
            .unwrap(),
        Claim::Indeterminate
    );
    assert!(
        !ids.release("main", "k").unwrap(),
        "release keeps an indeterminate row"
    );
    assert_eq!(
        ids.claim("main", "k", "write_note", "h1", T0 + 86_400)
            .unwrap(),
        Claim::Fresh
    );
}

#[test]
fn release_deletes_only_an_in_flight_claim() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let ids = store.idempotency();
    ids.claim("main", "k", "write_note", "h1", T0).unwrap();
    assert!(ids.release("main", "k").unwrap());
    assert_eq!(
        ids.claim("main", "k", "write_note", "h2", T0).unwrap(),
        Claim::Fresh
    );
    ids.complete("main", "k", "r", T0).unwrap();
    assert!(!ids.release("main", "k").unwrap());
    assert_eq!(
        ids.claim("main", "k", "write_note", "h2", T0).unwrap(),
        Claim::Replay("r".into())
    );
}

#[test]
fn complete_and_mark_without_a_claim_are_typed_errors() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let ids = store.idempotency();
    assert!(matches!(
        ids.complete("main", "k", "r", T0),
        Err(StoreError::NoClaim { .. })
    ));
    assert!(matches!(
        ids.mark_indeterminate("main", "k"),
        Err(StoreError::NoClaim { .. })
    ));
    ids.claim("main", "k", "write_note", "h1", T0).unwrap();
    ids.complete("main", "k", "r", T0).unwrap();
    // A completed key cannot be completed twice or turned indeterminate.
    assert!(matches!(
        ids.complete("main", "k", "other", T0),
        Err(StoreError::NoClaim { .. })
    ));
    assert!(matches!(
        ids.mark_indeterminate("main", "k"),
        Err(StoreError::NoClaim { .. })
    ));
    assert_eq!(
        ids.claim("main", "k", "write_note", "h1", T0).unwrap(),
        Claim::Replay("r".into())
    );
}

#[test]
fn expired_rows_are_treated_as_absent_with_a_configurable_ttl() {
    let (_dir, path) = support::store::db_path();
    let policy = IdempotencyPolicy {
        ttl_seconds: 100,
        reclaim_seconds: 10,
    };
    let store = Store::open(&path, policy).unwrap();
    let ids = store.idempotency();
    ids.claim("main", "k", "write_note", "h1", T0).unwrap();
    ids.complete("main", "k", "r", T0 + 5).unwrap();
    // The ttl counts from completion.
    assert_eq!(
        ids.claim("main", "k", "write_note", "h1", T0 + 104)
            .unwrap(),
        Claim::Replay("r".into())
    );
    // Expired: even other args start fresh.
    assert_eq!(
        ids.claim("main", "k", "move_note", "h9", T0 + 105).unwrap(),
        Claim::Fresh
    );
}

#[test]
fn keys_are_scoped_by_vault() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let ids = store.idempotency();
    ids.claim("a", "k", "write_note", "h1", T0).unwrap();
    ids.complete("a", "k", "from a", T0).unwrap();
    assert_eq!(
        ids.claim("b", "k", "write_note", "h2", T0).unwrap(),
        Claim::Fresh
    );
    assert!(matches!(
        ids.complete("a", "other", "r", T0),
        Err(StoreError::NoClaim { .. })
    ));
    assert!(!ids.release("b", "missing").unwrap());
    assert_eq!(
        ids.claim("a", "k", "write_note", "h1", T0).unwrap(),
        Claim::Replay("from a".into())
    );
}

/// Runs `claim` for the same key from `n` threads at once and returns the outcomes.
fn race(n: usize, claim: impl Fn(usize) -> Claim + Send + Sync + 'static) -> Vec<Claim> {
    let barrier = Arc::new(Barrier::new(n));
    let claim = Arc::new(claim);
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let barrier = Arc::clone(&barrier);
            let claim = Arc::clone(&claim);
            thread::spawn(move || {
                barrier.wait();
                claim(i)
            })
        })
        .collect();
    handles
        .into_iter()
        .map(|h| h.join().expect("thread"))
        .collect()
}

#[test]
fn concurrent_claims_from_separate_connections_yield_exactly_one_fresh() {
    let (_dir, path) = support::store::db_path();
    support::store::open(&path);
    for round in 0..5 {
        let stores: Arc<Vec<Store>> =
            Arc::new((0..8).map(|_| support::store::open(&path)).collect());
        let key = format!("k{round}");
        let outcomes = race(8, move |i| {
            stores[i]
                .idempotency()
                .claim("main", &key, "write_note", "h1", T0)
                .unwrap()
        });
        assert_eq!(
            outcomes.iter().filter(|c| **c == Claim::Fresh).count(),
            1,
            "{outcomes:?}"
        );
        assert_eq!(
            outcomes.iter().filter(|c| **c == Claim::InFlight).count(),
            7,
            "{outcomes:?}"
        );
    }
}

#[test]
fn concurrent_claims_through_one_shared_store_yield_exactly_one_fresh() {
    let (_dir, path) = support::store::db_path();
    let store = Arc::new(support::store::open(&path));
    let outcomes = race(8, move |_| {
        store
            .idempotency()
            .claim("main", "k", "write_note", "h1", T0)
            .unwrap()
    });
    assert_eq!(
        outcomes.iter().filter(|c| **c == Claim::Fresh).count(),
        1,
        "{outcomes:?}"
    );
}

#[test]
fn concurrent_reclaims_of_a_stale_claim_yield_exactly_one_takeover() {
    let (_dir, path) = support::store::db_path();
    support::store::open(&path)
        .idempotency()
        .claim("main", "k", "write_note", "h1", T0)
        .unwrap();
    let stores: Arc<Vec<Store>> = Arc::new((0..8).map(|_| support::store::open(&path)).collect());
    let outcomes = race(8, move |i| {
        stores[i]
            .idempotency()
            .claim("main", "k", "write_note", "h1", T0 + 120)
            .unwrap()
    });
    assert_eq!(
        outcomes.iter().filter(|c| **c == Claim::Reclaimed).count(),
        1,
        "{outcomes:?}"
    );
    assert_eq!(
        outcomes.iter().filter(|c| **c == Claim::InFlight).count(),
        7,
        "{outcomes:?}"
    );
}
