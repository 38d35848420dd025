//! `record_retrieval_feedback`: stamps the caller's latest retrieval(s) of a chunk, never
//! another caller's; `session_id` narrows to one session; the reasons when nothing is
//! stamped; scope and the read-only switch.

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::store::LoggedRetrieval;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

fn seeded(extra: Value) -> Fixture {
    let fx = Fixture::new(extra);
    fx.write("main", "alpha.md", "# Alpha\nThe merger of two clubs.\n");
    fx.write("main", "beta.md", "# Beta\nBread and butter.\n");
    fx.ok("index_vault", json!({}));
    fx
}

fn reader(id: &str) -> Caller {
    caller(id, &["read:notes", "write:workspace"], None)
}

/// The chunk id of the best result of `query`, searched as `who`.
fn search(fx: &Fixture, who: &Caller, query: &str) -> String {
    let found = fx
        .call(who, "search_vault", json!({"query": query}))
        .result
        .expect("search");
    found["results"][0]["chunk_id"]
        .as_str()
        .expect("chunk id")
        .to_owned()
}

fn feedback(fx: &Fixture, who: &Caller, args: Value) -> Value {
    fx.call(who, "record_retrieval_feedback", args)
        .result
        .expect("feedback")
}

/// The feedback on each of `who`'s logged searches (newest first), per hit.
fn stamps(fx: &Fixture, who: &str) -> Vec<Vec<Option<i8>>> {
    let log: Vec<LoggedRetrieval> = fx
        .server
        .runtime()
        .store()
        .retrievals()
        .recent("main", who, 100)
        .expect("log");
    log.into_iter().map(|row| row.feedback).collect()
}

#[test]
fn the_callers_latest_retrievals_of_the_chunk_are_stamped() {
    let fx = seeded(json!({}));
    let alice = reader("alice");
    let chunk = search(&fx, &alice, "merger");
    search(&fx, &alice, "bread");
    assert_eq!(search(&fx, &alice, "clubs"), chunk);
    let one = feedback(&fx, &alice, json!({"chunk_id": chunk, "feedback": 1}));
    assert_eq!(one, json!({"updated": 1}));
    assert_eq!(
        stamps(&fx, "alice"),
        [vec![Some(1)], vec![None], vec![None]]
    );
    let all = feedback(
        &fx,
        &alice,
        json!({"chunk_id": chunk, "feedback": -1, "last_n": 50}),
    );
    assert_eq!(all, json!({"updated": 2}));
    assert_eq!(
        stamps(&fx, "alice"),
        [vec![Some(-1)], vec![None], vec![Some(-1)]]
    );
}

#[test]
fn another_callers_retrievals_are_never_stamped() {
    let fx = seeded(json!({}));
    let (alice, bob) = (reader("alice"), reader("bob"));
    let chunk = search(&fx, &alice, "merger");
    assert_eq!(search(&fx, &bob, "merger"), chunk);
    let bread = search(&fx, &alice, "bread");
    feedback(
        &fx,
        &alice,
        json!({"chunk_id": chunk, "feedback": 1, "last_n": 50}),
    );
    assert_eq!(stamps(&fx, "bob"), [vec![None]]);
    // Bob never retrieved the bread chunk: nothing of his to stamp, Alice's untouched.
    let none = feedback(
        &fx,
        &bob,
        json!({"chunk_id": bread, "feedback": -1, "last_n": 50}),
    );
    assert_eq!(none, json!({"updated": 0, "reason": "no_owned_retrievals"}));
    assert_eq!(stamps(&fx, "alice"), [vec![None], vec![Some(1)]]);
    let unknown = feedback(
        &fx,
        &bob,
        json!({"chunk_id": "0123456789abcdef", "feedback": 0}),
    );
    assert_eq!(unknown["reason"], "no_owned_retrievals");
}

#[test]
fn a_session_id_narrows_the_stamp_to_that_session() {
    let fx = seeded(json!({}));
    let me = Caller::stdio();
    let session = fx.ok("start_session", json!({}))["session_id"]
        .as_str()
        .expect("id")
        .to_owned();
    let chunk = search(&fx, &me, "merger");
    fx.ok("end_session", json!({}));
    search(&fx, &me, "merger");
    let stamped = feedback(
        &fx,
        &me,
        json!({"chunk_id": chunk, "feedback": 1, "session_id": session, "last_n": 50}),
    );
    assert_eq!(stamped, json!({"updated": 1}));
    assert_eq!(stamps(&fx, Caller::STDIO_ID), [vec![None], vec![Some(1)]]);
    let elsewhere = feedback(
        &fx,
        &me,
        json!({"chunk_id": chunk, "feedback": 1, "session_id": "not-mine"}),
    );
    assert_eq!(elsewhere, json!({"updated": 0, "reason": "session_scope"}));
}

#[test]
fn scope_read_only_and_bad_input() {
    let fx = seeded(json!({}));
    let only_read = caller("r", &["read:notes"], None);
    fx.err_as(
        &only_read,
        "record_retrieval_feedback",
        json!({"chunk_id": "x", "feedback": 1}),
        ErrorCode::Forbidden,
    );
    for bad in [
        json!({"chunk_id": "x", "feedback": 2}),
        json!({"chunk_id": "", "feedback": 1}),
        json!({"chunk_id": "x", "feedback": 1, "last_n": 51}),
        json!({"chunk_id": "x", "feedback": 1, "last_n": 0}),
    ] {
        fx.err("record_retrieval_feedback", bad, ErrorCode::ValidationError);
    }
    let locked = seeded(json!({"acl": {"readOnly": true}}));
    let chunk = search(&locked, &Caller::stdio(), "merger");
    locked.err(
        "record_retrieval_feedback",
        json!({"chunk_id": chunk, "feedback": 1}),
        ErrorCode::ReadOnlyMode,
    );
    assert_eq!(stamps(&locked, Caller::STDIO_ID), [vec![None]]);
}
