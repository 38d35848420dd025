//! Elicit tokens: format, single use (also under concurrency), expiry, binding, approval by
//! args hash, listing, vault scoping.

use std::sync::{Arc, Barrier};
use std::thread;

use obsidian_tc::store::{ApproveError, ElicitError, ElicitRequest, Store, StoreError};
use serde_json::json;

use crate::support;

const T0: i64 = 1_700_000_000;
const TTL: i64 = 300;

fn request(vault: &str, args_hash: &str, caller: &str) -> ElicitRequest {
    ElicitRequest {
        vault_id: vault.to_owned(),
        tool_name: "delete_note".to_owned(),
        args_hash: args_hash.to_owned(),
        caller: caller.to_owned(),
        proposed_change: json!({"delete": "Inbox/a.md"}),
    }
}

#[test]
fn minted_tokens_are_32_lowercase_hex_and_distinct() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let a = store
        .elicit()
        .mint(&request("main", "h", "stdio"), TTL, T0)
        .unwrap();
    let b = store
        .elicit()
        .mint(&request("main", "h", "stdio"), TTL, T0)
        .unwrap();
    for token in [&a, &b] {
        assert_eq!(token.len(), 32);
        assert!(
            token
                .bytes()
                .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
        );
    }
    assert_ne!(a, b);
}

#[test]
fn a_token_is_used_once_then_already_used() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let elicit = store.elicit();
    let token = elicit
        .mint(&request("main", "h", "stdio"), TTL, T0)
        .unwrap();
    elicit
        .consume(&token, "main", "h", "stdio", T0 + 1)
        .unwrap();
    assert!(matches!(
        elicit.consume(&token, "main", "h", "stdio", T0 + 2),
        Err(ElicitError::AlreadyUsed)
    ));
}

#[test]
fn unknown_expired_and_wrong_binding_are_distinguished() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let elicit = store.elicit();
    let token = elicit
        .mint(&request("main", "h", "stdio"), TTL, T0)
        .unwrap();
    assert!(matches!(
        elicit.consume(&"0".repeat(32), "main", "h", "stdio", T0),
        Err(ElicitError::Unknown)
    ));
    for (vault, hash, caller) in [
        ("other", "h", "stdio"),
        ("main", "h2", "stdio"),
        ("main", "h", "alice"),
    ] {
        assert!(matches!(
            elicit.consume(&token, vault, hash, caller, T0),
            Err(ElicitError::WrongBinding)
        ));
    }
    assert!(matches!(
        elicit.consume(&token, "main", "h", "stdio", T0 + TTL),
        Err(ElicitError::Expired)
    ));
    // None of the refusals used the token up.
    elicit
        .consume(&token, "main", "h", "stdio", T0 + TTL - 1)
        .unwrap();
}

#[test]
fn a_request_is_approved_by_args_hash_and_consumed_by_the_identical_retry() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let elicit = store.elicit();
    elicit
        .request(&request("main", "h", "stdio"), TTL, T0)
        .unwrap();
    // Not approved yet: the retry finds nothing to consume.
    assert!(
        !elicit
            .consume_approved("main", "h", "stdio", T0 + 1)
            .unwrap()
    );

    elicit.approve("h", None, None, TTL, T0 + 10).unwrap();
    assert!(
        !elicit
            .consume_approved("main", "h", "bob", T0 + 11)
            .unwrap(),
        "other caller"
    );
    assert!(
        !elicit
            .consume_approved("other", "h", "stdio", T0 + 11)
            .unwrap(),
        "other vault"
    );
    assert!(
        elicit
            .consume_approved("main", "h", "stdio", T0 + 11)
            .unwrap()
    );
    assert!(
        !elicit
            .consume_approved("main", "h", "stdio", T0 + 12)
            .unwrap(),
        "single use"
    );
}

#[test]
fn the_approved_token_can_be_passed_explicitly_and_expires_from_approval() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let elicit = store.elicit();
    elicit
        .request(&request("main", "h", "stdio"), TTL, T0)
        .unwrap();
    let token = elicit
        .approve("h", Some("main"), Some("stdio"), 60, T0 + 200)
        .unwrap();
    assert!(matches!(
        elicit.consume(&token, "main", "h", "stdio", T0 + 260),
        Err(ElicitError::Expired)
    ));
    assert!(
        !elicit
            .consume_approved("main", "h", "stdio", T0 + 260)
            .unwrap()
    );
    elicit
        .consume(&token, "main", "h", "stdio", T0 + 259)
        .unwrap();
}

#[test]
fn an_unapproved_request_cannot_be_consumed_with_its_token() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let elicit = store.elicit();
    elicit
        .request(&request("main", "h", "stdio"), TTL, T0)
        .unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    let token: String = conn
        .query_row("SELECT token FROM elicit_tokens", [], |r| r.get(0))
        .unwrap();
    assert!(matches!(
        elicit.consume(&token, "main", "h", "stdio", T0),
        Err(ElicitError::NotApproved)
    ));
}

#[test]
fn approve_needs_exactly_one_live_pending_request() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let elicit = store.elicit();
    assert!(matches!(
        elicit.approve("h", None, None, TTL, T0),
        Err(ApproveError::NoPending { .. })
    ));
    elicit
        .request(&request("main", "h", "alice"), TTL, T0)
        .unwrap();
    elicit
        .request(&request("main", "h", "bob"), TTL, T0)
        .unwrap();
    // Re-requesting refreshes instead of duplicating.
    elicit
        .request(&request("main", "h", "bob"), TTL, T0 + 5)
        .unwrap();
    let err = elicit.approve("h", None, None, TTL, T0 + 10).unwrap_err();
    assert!(
        matches!(err, ApproveError::Ambiguous { count: 2, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("--caller"));
    elicit
        .approve("h", Some("main"), Some("bob"), TTL, T0 + 10)
        .unwrap();
    // An expired request cannot be approved.
    assert!(matches!(
        elicit.approve("h", None, Some("alice"), TTL, T0 + TTL),
        Err(ApproveError::NoPending { .. })
    ));
    assert!(matches!(
        elicit.approve("h", None, None, 0, T0),
        Err(ApproveError::Store(StoreError::InvalidTtl {
            ttl_seconds: 0
        }))
    ));
}

#[test]
fn list_shows_live_unconsumed_entries_of_one_vault_without_tokens() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let elicit = store.elicit();
    elicit
        .request(&request("a", "h1", "stdio"), TTL, T0)
        .unwrap();
    let used = elicit
        .mint(&request("a", "h2", "stdio"), TTL, T0 + 1)
        .unwrap();
    elicit.consume(&used, "a", "h2", "stdio", T0 + 2).unwrap();
    elicit
        .mint(&request("a", "h3", "stdio"), 10, T0 + 3)
        .unwrap();
    elicit
        .mint(&request("b", "h4", "stdio"), TTL, T0 + 4)
        .unwrap();

    let a = elicit.list(Some("a"), T0 + 5).unwrap();
    let hashes: Vec<_> = a.iter().map(|p| p.request.args_hash.as_str()).collect();
    assert_eq!(hashes, ["h1", "h3"]);
    assert!(!a[0].approved);
    assert!(a[1].approved);
    assert_eq!(a[0].request, request("a", "h1", "stdio"));
    assert_eq!(a[0].expires_at, T0 + TTL);

    assert_eq!(
        elicit.list(Some("a"), T0 + 13).unwrap().len(),
        1,
        "h3 expired"
    );
    assert_eq!(elicit.list(None, T0 + 5).unwrap().len(), 3);
    assert!(elicit.list(Some("c"), T0).unwrap().is_empty());
}

#[test]
fn a_token_of_vault_a_is_useless_in_vault_b() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let elicit = store.elicit();
    let token = elicit.mint(&request("a", "h", "stdio"), TTL, T0).unwrap();
    assert!(matches!(
        elicit.consume(&token, "b", "h", "stdio", T0),
        Err(ElicitError::WrongBinding)
    ));
    assert!(!elicit.consume_approved("b", "h", "stdio", T0).unwrap());
    elicit.consume(&token, "a", "h", "stdio", T0).unwrap();
}

#[test]
fn exactly_one_of_many_concurrent_consumers_wins() {
    let (_dir, path) = support::store::db_path();
    let token = support::store::open(&path)
        .elicit()
        .mint(&request("main", "h", "stdio"), TTL, T0)
        .unwrap();
    let n = 8;
    let barrier = Arc::new(Barrier::new(n));
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let (barrier, path, token) = (Arc::clone(&barrier), path.clone(), token.clone());
            thread::spawn(move || {
                let store = support::store::open(&path);
                barrier.wait();
                // Half pass the token, half retry the approved call without it.
                if i % 2 == 0 {
                    store
                        .elicit()
                        .consume(&token, "main", "h", "stdio", T0 + 1)
                        .is_ok()
                } else {
                    store
                        .elicit()
                        .consume_approved("main", "h", "stdio", T0 + 1)
                        .unwrap()
                }
            })
        })
        .collect();
    let wins = handles
        .into_iter()
        .map(|h| h.join().unwrap())
        .filter(|w| *w)
        .count();
    assert_eq!(wins, 1);
}

#[test]
fn a_non_positive_ttl_is_refused() {
    let (_dir, path) = support::store::db_path();
    let store: Store = support::store::open(&path);
    assert!(matches!(
        store.elicit().mint(&request("main", "h", "stdio"), -5, T0),
        Err(StoreError::InvalidTtl { ttl_seconds: -5 })
    ));
    assert!(store.elicit().list(None, T0).unwrap().is_empty());
}
