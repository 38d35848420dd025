//! `explain_answer` through the dispatcher: a session searches, then the agent edits one of
//! the notes returned and deletes another; the lineage shows the first `changed` and the
//! second `gone`, each with the call that did it, and the feedback given. Another caller sees
//! none of it, and the window is bounded.

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

const AGENT: &[&str] = &[
    "read:notes",
    "write:notes",
    "delete:notes",
    "read:workspace",
    "write:workspace",
];

fn ok(fx: &Fixture, who: &Caller, tool: &str, args: Value) -> Value {
    match fx.call(who, tool, args).result {
        Ok(value) => value,
        Err(error) => panic!("{tool} failed: {error}"),
    }
}

/// Calls `tool`; when it asks for a human's confirmation, gives it and calls again.
fn confirmed(fx: &Fixture, who: &Caller, tool: &str, args: Value) {
    if let Err(error) = fx.call(who, tool, args.clone()).result {
        assert_eq!(error.code, ErrorCode::ElicitRequired, "{error}");
        fx.approve_error(&error);
        ok(fx, who, tool, args);
    }
}

/// The hit of `path` in the search `lineage` shows first.
fn hit<'a>(lineage: &'a Value, path: &str) -> &'a Value {
    lineage["retrievals"][0]["hits"]
        .as_array()
        .and_then(|hits| hits.iter().find(|hit| hit["path"] == path))
        .unwrap_or_else(|| panic!("no hit {path} in {lineage}"))
}

#[test]
fn the_lineage_shows_an_edited_note_changed_and_a_deleted_one_gone() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    for (path, text) in [
        ("alpha.md", "# Alpha\n\nzebra crossing rules\n"),
        ("beta.md", "# Beta\n\nzebra stripes and more zebra\n"),
        ("gamma.md", "# Gamma\n\nzebra of the plains\n"),
    ] {
        fx.write("main", path, text);
    }
    fx.ok("index_vault", json!({}));
    let alice = caller("alice", AGENT, None);
    let session = ok(&fx, &alice, "start_session", json!({}));
    let session_id = session["session_id"]
        .as_str()
        .expect("session id")
        .to_owned();
    let found = ok(&fx, &alice, "search_vault", json!({"query": "zebra"}));
    assert_eq!(
        found["results"].as_array().map(Vec::len),
        Some(3),
        "{found}"
    );
    let beta_chunk = found["results"]
        .as_array()
        .and_then(|r| r.iter().find(|hit| hit["path"] == "beta.md"))
        .and_then(|hit| hit["chunk_id"].as_str())
        .expect("beta's chunk")
        .to_owned();
    ok(
        &fx,
        &alice,
        "record_retrieval_feedback",
        json!({"chunk_id": beta_chunk, "feedback": 1}),
    );
    fx.clock.advance(5_000);
    let edit =
        json!({"path": "alpha.md", "content": "# Alpha\n\nno crossing\n", "mode": "overwrite"});
    confirmed(&fx, &alice, "write_note", edit);
    confirmed(&fx, &alice, "delete_note", json!({"path": "beta.md"}));
    let lineage = ok(
        &fx,
        &alice,
        "explain_answer",
        json!({"session_id": session_id}),
    );
    assert_eq!(lineage["available"], true);
    assert_eq!(lineage["scope"], "session");
    let search = &lineage["retrievals"][0];
    assert_eq!(search["query"], "zebra", "{lineage}");
    assert_eq!(search["surface"], "search_vault");
    let alpha = hit(&lineage, "alpha.md");
    assert_eq!(alpha["now"], "changed", "{lineage}");
    assert_eq!(alpha["changed_by"][0]["tool"], "write_note", "{lineage}");
    let beta = hit(&lineage, "beta.md");
    assert_eq!(beta["now"], "gone", "{lineage}");
    assert_eq!(beta["verdict"], "helpful");
    assert_eq!(beta["changed_by"][0]["tool"], "delete_note", "{lineage}");
    let gamma = hit(&lineage, "gamma.md");
    assert_eq!(gamma["now"], "current");
    assert_eq!(gamma["verdict"], "never judged");
    assert_eq!(gamma["changed_by"], json!([]));
    // The same search, by time window.
    let by_time = ok(&fx, &alice, "explain_answer", json!({}));
    assert_eq!(by_time["scope"], "time_window");
    assert_eq!(hit(&by_time, "beta.md")["now"], "gone");
    // Another caller's lineage holds none of alice's searches.
    let bob = caller("bob", AGENT, None);
    let theirs = ok(&fx, &bob, "explain_answer", json!({}));
    assert_eq!(theirs["retrievals"], json!([]), "{theirs}");
    // A window over 24 hours is refused.
    fx.err_as(
        &alice,
        "explain_answer",
        json!({"since": 0, "until": 90_000_000}),
        ErrorCode::InvalidInput,
    );
}
