//! Human approval through TC Bridge's `/confirm`: a destructive call approved in Obsidian
//! completes exactly once; denied, timed-out, unanswered and replayed approvals run nothing and
//! leave the call `elicit_required` as without a companion.

use std::time::{Duration, Instant};

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::store::Outcome;
use serde_json::{Value, json};

use crate::support;
use crate::support::companion::{Decision, FakeCompanion, Mode, closed_url, companion_config};
use crate::support::dispatch::Fixture;

const CONFIRM: &str = "/obsidian-tc/v1/confirm";

fn fixture(companion: Value) -> Fixture {
    let fx = Fixture::new(json!({
        "vaults": [
            {"id": "main", "path": "main", "companion": companion},
            {"id": "other", "path": "other"}
        ]
    }));
    fx.write("main", "Inbox/a.md", "one\n");
    fx
}

/// How many `delete_note` calls succeeded, by the audit log.
fn deletes_done(fx: &Fixture) -> usize {
    fx.events()
        .iter()
        .filter(|event| event.event.tool == "delete_note" && event.event.outcome == Outcome::Ok)
        .count()
}

/// The files under the vault's trash.
fn trashed(fx: &Fixture) -> usize {
    let trash = fx.vault_dir("main").join(".trash");
    support::dispatch::snapshot(&fx.vault_dir("main"))
        .keys()
        .filter(|path| fx.vault_dir("main").join(path).starts_with(&trash))
        .count()
}

fn snapshots_of(fx: &Fixture, path: &str) -> usize {
    let page = fx.ok("list_snapshots", json!({"path": path}));
    page["items"].as_array().expect("items").len()
}

#[test]
fn an_approval_in_obsidian_completes_the_call_exactly_once() {
    let companion = FakeCompanion::start(Mode::Reachable);
    companion.decide(&[Decision::Approved]);
    let fx = fixture(companion.config());
    let outcome = fx.call(
        &Caller::stdio(),
        "delete_note",
        json!({"path": "Inbox/a.md"}),
    );
    let done = outcome.result.expect("approved in Obsidian");
    assert_eq!(done["trashed_to"], ".trash/Inbox/a.md");
    assert!(!fx.exists("main", "Inbox/a.md"));
    assert_eq!(trashed(&fx), 1);
    assert_eq!(deletes_done(&fx), 1);
    assert_eq!(snapshots_of(&fx, "Inbox/a.md"), 1);

    let asked = companion.requests_to(CONFIRM);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0]["tool"], "delete_note");
    assert_eq!(asked[0]["vault"], "main");
    assert_eq!(asked[0]["path"], "Inbox/a.md");
    assert_eq!(asked[0]["args_hash"], outcome.args_hash.as_str());
    assert!(
        asked[0]["summary"]
            .as_str()
            .expect("summary")
            .contains("Inbox/a.md")
    );

    // the approval was minted and used: nothing approved is left for anyone to use
    let left = fx.pending_elicits(None);
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_replayed_call_needs_a_new_approval() {
    let companion = FakeCompanion::start(Mode::Reachable);
    companion.decide(&[Decision::Approved]);
    let fx = fixture(companion.config());
    let args = json!({"path": "Inbox/a.md"});
    fx.ok("delete_note", args.clone());
    fx.write("main", "Inbox/a.md", "again\n");

    // the identical call again: TC Bridge is asked again, and this time nobody approves
    let error = fx.err("delete_note", args.clone(), ErrorCode::ElicitRequired);
    assert!(fx.exists("main", "Inbox/a.md"));
    assert_eq!(companion.requests_to(CONFIRM).len(), 2);
    assert_eq!(deletes_done(&fx), 1);
    assert_eq!(trashed(&fx), 1);

    // a token the agent makes up is refused and runs nothing
    let mut forged = args.clone();
    forged["elicit_token"] = json!("0123456789abcdef0123456789abcdef");
    fx.err("delete_note", forged, ErrorCode::ElicitInvalid);
    assert!(fx.exists("main", "Inbox/a.md"));
    assert_eq!(deletes_done(&fx), 1);
    // and the recorded request is for this exact call
    let pending = fx.pending_elicits(Some("main"));
    assert_eq!(pending.len(), 1);
    assert_eq!(
        pending[0].request.args_hash,
        error.details["args_hash"].as_str().expect("hash")
    );
}

#[test]
fn denied_and_timed_out_leave_the_call_elicit_required() {
    let companion = FakeCompanion::start(Mode::Reachable);
    companion.decide(&[Decision::Denied, Decision::TimedOut]);
    let fx = fixture(companion.config());
    let args = json!({"path": "Inbox/a.md"});
    for _ in 0..2 {
        let error = fx.err("delete_note", args.clone(), ErrorCode::ElicitRequired);
        assert_eq!(error.details["tool"], "delete_note");
        assert!(fx.exists("main", "Inbox/a.md"));
    }
    assert_eq!(companion.requests_to(CONFIRM).len(), 2);
    assert_eq!(deletes_done(&fx), 0);
    assert_eq!(trashed(&fx), 0);
    // the request is recorded for a human, unapproved, as without a companion
    let pending = fx.pending_elicits(Some("main"));
    assert_eq!(pending.len(), 1);
    assert!(!pending[0].approved);
}

#[test]
fn no_answer_in_time_leaves_the_call_elicit_required() {
    let companion = FakeCompanion::start(Mode::Reachable);
    // the dialog's deadline is 300 ms; the server waits 2 s more, then gives up
    companion.decide(&[Decision::Silent(Duration::from_secs(4))]);
    let fx = fixture(companion.config());
    let started = Instant::now();
    fx.err(
        "delete_note",
        json!({"path": "Inbox/a.md"}),
        ErrorCode::ElicitRequired,
    );
    assert!(
        started.elapsed() < Duration::from_millis(3500),
        "{:?}",
        started.elapsed()
    );
    // the late "approved" changes nothing, and the call does not run later either
    std::thread::sleep(Duration::from_millis(2000));
    assert!(fx.exists("main", "Inbox/a.md"));
    assert_eq!(deletes_done(&fx), 0);
}

#[test]
fn without_a_reachable_companion_nobody_is_asked() {
    let fx = fixture(companion_config(&closed_url()));
    fx.err(
        "delete_note",
        json!({"path": "Inbox/a.md"}),
        ErrorCode::ElicitRequired,
    );
    assert!(fx.exists("main", "Inbox/a.md"));

    let companion = FakeCompanion::start(Mode::Incompatible);
    companion.decide(&[Decision::Approved]);
    let fx = fixture(companion.config());
    fx.err(
        "delete_note",
        json!({"path": "Inbox/a.md"}),
        ErrorCode::ElicitRequired,
    );
    assert!(companion.requests_to(CONFIRM).is_empty());
    assert!(fx.exists("main", "Inbox/a.md"));
}

#[test]
fn a_bridge_tool_on_the_hitl_floor_is_approved_in_obsidian_and_run_once() {
    let companion = FakeCompanion::start(Mode::Reachable);
    companion.decide(&[Decision::Approved]);
    let fx = fixture(companion.config());
    let result = fx.ok("execute_command", json!({"id": "editor:save-file"}));
    fx.clock.advance(60_000);
    assert_eq!(result["args"], json!({"id": "editor:save-file"}));
    assert_eq!(
        companion
            .requests_to("/obsidian-tc/v1/commands/execute")
            .len(),
        1
    );
    fx.err(
        "execute_command",
        json!({"id": "editor:save-file"}),
        ErrorCode::ElicitRequired,
    );
    assert_eq!(
        companion
            .requests_to("/obsidian-tc/v1/commands/execute")
            .len(),
        1
    );
}
