//! The HITL gate through `delete_note`: refusal with the args hash, out-of-band approval,
//! single use, binding to the exact call, tokens, and throttling before the gate.

use obsidian_tc::errors::ErrorCode;
use obsidian_tc::store::ElicitRequest;
use serde_json::json;

use crate::support::dispatch::{Fixture, caller};

#[test]
fn delete_needs_an_approval_that_is_single_use_and_bound_to_the_call() {
    let fx = Fixture::new(json!({}));
    fx.write("main", "Inbox/a.md", "one");
    fx.write("main", "Inbox/b.md", "two");
    let args = json!({"path": "Inbox/a.md"});

    let gated = fx.call(
        &obsidian_tc::auth::Caller::stdio(),
        "delete_note",
        args.clone(),
    );
    let error = gated.result.unwrap_err();
    assert_eq!(error.code, ErrorCode::ElicitRequired);
    assert_eq!(error.details["args_hash"], gated.args_hash.as_str());
    assert_eq!(error.details["tool"], "delete_note");
    assert_eq!(error.details["proposed_change"]["arguments"], args);
    assert!(fx.exists("main", "Inbox/a.md"));
    let pending = fx.pending_elicits(Some("main"));
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].request.caller, "stdio");

    fx.server
        .runtime()
        .store()
        .elicit()
        .approve(&gated.args_hash, None, None, 300, fx.now_s())
        .unwrap();
    // The approval covers this call only, not another path.
    fx.err(
        "delete_note",
        json!({"path": "Inbox/b.md"}),
        ErrorCode::ElicitRequired,
    );
    let done = fx.ok("delete_note", args.clone());
    assert_eq!(done["trashed_to"], ".trash/Inbox/a.md");
    assert!(!fx.exists("main", "Inbox/a.md"));
    assert!(fx.exists("main", ".trash/Inbox/a.md"));
    assert!(fx.exists("main", "Inbox/b.md"));
    // Single use: the identical call needs a new approval.
    fx.write("main", "Inbox/a.md", "again");
    fx.err("delete_note", args, ErrorCode::ElicitRequired);
    assert!(fx.exists("main", "Inbox/a.md"));
}

#[test]
fn approvals_are_bound_to_the_caller() {
    let fx = Fixture::new(json!({}));
    fx.write("main", "a.md", "x");
    let alice = caller("alice", &["delete:notes"], None);
    let bob = caller("bob", &["delete:notes"], None);
    let args = json!({"path": "a.md"});
    let gated = fx.err_as(
        &alice,
        "delete_note",
        args.clone(),
        ErrorCode::ElicitRequired,
    );
    let hash = gated.details["args_hash"].as_str().unwrap();
    fx.server
        .runtime()
        .store()
        .elicit()
        .approve(hash, None, Some("alice"), 300, fx.now_s())
        .unwrap();
    fx.err_as(&bob, "delete_note", args.clone(), ErrorCode::ElicitRequired);
    assert!(fx.call(&alice, "delete_note", args).result.is_ok());
}

#[test]
fn a_minted_token_passes_once_and_is_not_part_of_the_hash() {
    let fx = Fixture::new(json!({}));
    fx.write("main", "a.md", "x");
    let stdio = obsidian_tc::auth::Caller::stdio();
    let plain = fx.call(&stdio, "delete_note", json!({"path": "a.md"}));
    let token = fx
        .server
        .runtime()
        .store()
        .elicit()
        .mint(
            &ElicitRequest {
                vault_id: "main".into(),
                tool_name: "delete_note".into(),
                args_hash: plain.args_hash.clone(),
                caller: "stdio".into(),
                proposed_change: json!({}),
            },
            300,
            fx.now_s(),
        )
        .unwrap();
    let with_token = json!({"path": "a.md", "elicit_token": token});
    let used = fx.call(&stdio, "delete_note", with_token.clone());
    assert_eq!(used.args_hash, plain.args_hash);
    assert!(used.result.is_ok(), "{:?}", used.result);
    fx.write("main", "a.md", "again");
    let error = fx.err("delete_note", with_token, ErrorCode::ElicitInvalid);
    assert!(error.message.contains("already used"), "{error}");
    fx.err(
        "delete_note",
        json!({"path": "a.md", "elicit_token": "0123456789abcdef0123456789abcdef"}),
        ErrorCode::ElicitInvalid,
    );
    assert!(fx.exists("main", "a.md"));
}

#[test]
fn a_stale_expected_sha256_refuses_the_delete() {
    let fx = Fixture::new(json!({}));
    fx.write("main", "a.md", "x");
    let args = json!({"path": "a.md", "expected_sha256": "0".repeat(64)});
    let gated = fx.err("delete_note", args.clone(), ErrorCode::ElicitRequired);
    let hash = gated.details["args_hash"].as_str().unwrap();
    fx.server
        .runtime()
        .store()
        .elicit()
        .approve(hash, None, None, 300, fx.now_s())
        .unwrap();
    let error = fx.err("delete_note", args, ErrorCode::ConcurrentModification);
    assert_eq!(error.details["path"], "a.md");
    assert!(fx.exists("main", "a.md"));
}
