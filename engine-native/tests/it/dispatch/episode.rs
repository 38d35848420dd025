//! Step 14's work-memory hook: each call bound to a vault is one episode of its caller, with
//! the session the caller has open there; a call refused before the vault binding is not;
//! a gate's refusal is an error episode with its code; the episodes survive a reset of the
//! vault's cache rows and a restart, and the chain continues across the restart.

use obsidian_tc::errors::ErrorCode;
use obsidian_tc::store::{EpisodeQuery, EpisodeRow, Store};
use serde_json::json;

use crate::support::dispatch::{Fixture, caller};

fn all(store: &Store, who: &str) -> Vec<EpisodeRow> {
    store
        .episodes()
        .query(&EpisodeQuery::newest("main", Some(who), 0, 100))
        .expect("query")
}

#[test]
fn each_bound_call_is_an_episode_with_its_session_and_outcome() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Public/**"], "writePaths": ["**"]}
    }));
    let agent = caller(
        "agent",
        &["read:notes", "write:notes", "write:workspace"],
        None,
    );
    let store = fx.server.runtime().store();
    // Refused at validation (step 3): never bound to a vault, no episode.
    fx.err_as(
        &agent,
        "read_note",
        json!({"nope": 1}),
        ErrorCode::ValidationError,
    );
    assert!(all(store, "agent").is_empty());
    fx.err_as(
        &agent,
        "read_note",
        json!({"path": "Hidden/x.md"}),
        ErrorCode::AclDenied,
    );
    let session = match fx.call(&agent, "start_session", json!({})).result {
        Ok(started) => started["session_id"].as_str().expect("id").to_owned(),
        Err(error) => panic!("start_session: {error}"),
    };
    let written = fx.call(
        &agent,
        "write_note",
        json!({"path": "Hidden/y.md", "content": "y\n"}),
    );
    assert!(written.result.is_ok());
    let rows = all(store, "agent");
    let tools: Vec<&str> = rows.iter().map(|row| row.tool.as_str()).collect();
    assert_eq!(tools, ["write_note", "start_session", "read_note"]);
    let (write, start, denied) = (&rows[0], &rows[1], &rows[2]);
    assert_eq!(denied.status, "error");
    assert_eq!(denied.error_code.as_deref(), Some("acl_denied"));
    assert_eq!(denied.session_id, None);
    assert_eq!(
        start.session_id.as_deref(),
        Some(session.as_str()),
        "the call that opens it belongs to it"
    );
    assert_eq!(write.session_id.as_deref(), Some(session.as_str()));
    assert_eq!(write.args_hash, written.args_hash);
    // The changed file the writer may not read is not kept.
    assert!(write.paths.is_empty(), "{:?}", write.paths);
    assert_eq!(write.summary, "write_note ok; no file changed");
    assert!(write.result_size > 0);
    assert_eq!(write.prev_id.as_deref(), Some(start.id.as_str()));
    assert_eq!(write.args_json, None, "arguments are not kept by default");
}

#[test]
fn episodes_survive_a_vault_reset_and_a_restart() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    let agent = caller("agent", &["read:notes"], None);
    assert!(
        fx.call(&agent, "note_exists", json!({"path": "a.md"}))
            .result
            .is_ok()
    );
    let before = all(fx.server.runtime().store(), "agent");
    assert_eq!(before.len(), 1);
    fx.server
        .runtime()
        .store()
        .delete_vault_rows("main")
        .expect("reset");
    let restarted = fx.reopen();
    assert!(
        restarted
            .call(&agent, "note_exists", json!({"path": "b.md"}))
            .result
            .is_ok()
    );
    let after = all(restarted.runtime().store(), "agent");
    assert_eq!(after.len(), 2);
    assert_eq!(after[1].id, before[0].id);
    assert_eq!(after[0].prev_id.as_deref(), Some(before[0].id.as_str()));
}
