//! Every error code and every gate, proved through a tool call (`Dispatcher::call` with a
//! real registered tool, or the real binary). The inventory below names, for each, the test
//! that proves it; the tests in this module fill the gaps the other modules left.
//!
//! # Gates (`src/dispatch/pipeline.rs`, in order)
//!
//! | gate | proved by |
//! |---|---|
//! | 1 lookup + visibility | `dispatch::gates::unknown_hidden_and_disabled_tools_all_answer_not_found`, `cli::call::a_tool_error_prints_the_structured_error_and_exits_one`, `dispatch::gates::codes::each_code_through_a_real_tool` (unknown tool) |
//! | 2 args hash without `elicit_token` | `dispatch::hitl::a_minted_token_passes_once_and_is_not_part_of_the_hash` |
//! | 3 input validation | `dispatch::gates::validation_lists_every_issue_with_its_path`, `dispatch::gates::codes::each_code_through_a_real_tool` |
//! | 4 scopes | `dispatch::gates::scope_denied_tools_are_unlisted_but_answer_forbidden_with_required`, `dispatch::gates::codes::each_code_through_a_real_tool` |
//! | 5 vault binding | `dispatch::gates::vault_binding_and_unknown_vaults` |
//! | 6 read-only switch, precheck | `dispatch::gates::read_only_vault_refuses_mutating_tools_before_anything_else`, `dispatch::gates::codes::each_code_through_a_real_tool` |
//! | 7 idempotency claim | `dispatch::gates::concurrency::*` (threads and processes, real `append_note` / `write_note`), `tools::notes::write::an_idempotency_key_replays_append_note_so_the_text_is_added_once`, `dispatch::gates::codes::an_overflow_after_a_keyed_write_leaves_the_key_indeterminate` |
//! | 7b throttle | `dispatch::throttle::*` (real `read_note`, `get_metrics`, `delete_note`), `dispatch::gates::codes::a_throttled_burst_through_a_write_tool` |
//! | 7c HITL | `dispatch::hitl::*` (real `delete_note`), `cli::call::call_gates_destructive_tools_for_the_cli_caller_too`, `dispatch::gates::codes::elicit_tokens_are_bound_to_vault_args_caller_and_time` |
//! | 8 per-path ACL | `dispatch::acl::*`, `dispatch::gates::paths::*` (every escape against every path tool) |
//! | 9 handler | every `tools::*` module |
//! | 10 governor | `dispatch::audit::a_response_over_the_limit_is_refused_with_overflow`, `dispatch::gates::codes::a_note_over_the_default_limit_overflows_and_a_ranged_read_passes` |
//!
//! Crash safety of the handler's write, end to end: `dispatch::gates::crash::sigkill_during_write_note_leaves_the_old_or_the_new_note`.
//!
//! # Error codes (`src/errors/code.rs`)
//!
//! | code | proved through a tool by |
//! |---|---|
//! | `not_found` | `dispatch::gates::unknown_hidden_and_disabled_tools_all_answer_not_found`, `tools::notes::write::write_note_creates_and_refuses_an_existing_note_in_create_mode`, `dispatch::gates::codes::each_code_through_a_real_tool` |
//! | `validation_error` | `dispatch::gates::validation_lists_every_issue_with_its_path`, `dispatch::gates::codes::each_code_through_a_real_tool` (details.issues) |
//! | `unauthorized` | not a tool result: the HTTP edge answers 401 before MCP for a missing or bad bearer (`mcp::auth`; `auth::http::*`) |
//! | `forbidden` | `dispatch::gates::scope_denied_tools_are_unlisted_but_answer_forbidden_with_required`, `dispatch::gates::vault_binding_and_unknown_vaults`, `dispatch::gates::codes::each_code_through_a_real_tool` |
//! | `read_only_mode` | `dispatch::gates::read_only_vault_refuses_mutating_tools_before_anything_else`, `dispatch::gates::codes::each_code_through_a_real_tool` |
//! | `acl_denied` | `dispatch::acl::*`, `dispatch::gates::paths::every_escape_is_refused_by_every_path_tool_and_changes_nothing` |
//! | `path_invalid` | `dispatch::acl::control_folders_any_case_and_escapes_are_refused`, `dispatch::gates::paths::every_escape_is_refused_by_every_path_tool_and_changes_nothing` |
//! | `elicit_required` | `dispatch::hitl::delete_needs_an_approval_that_is_single_use_and_bound_to_the_call`, `tools::notes::write::overwriting_a_non_empty_note_needs_approval_then_the_identical_call_succeeds`, `cli::call::call_gates_destructive_tools_for_the_cli_caller_too` |
//! | `elicit_invalid` | `dispatch::hitl::a_minted_token_passes_once_and_is_not_part_of_the_hash` (reused, unknown), `dispatch::gates::codes::elicit_tokens_are_bound_to_vault_args_caller_and_time` (other args, other vault, other caller, expired), `mcp::input_required::a_confirmation_authorises_its_exact_call_once_and_nothing_else` (a user's yes for other arguments, replayed) |
//! | `aborted` | `mcp::input_required::a_declined_or_unticked_confirmation_is_aborted_and_changes_nothing` (the user refused the 2026-07-28 confirmation) |
//! | `idempotency_in_flight` | `dispatch::gates::concurrency::a_key_held_by_a_running_call_answers_in_flight_through_append_note` (deterministic), `dispatch::gates::concurrency::identical_keyed_appends_from_threads_execute_once` (whenever the race is lost) |
//! | `idempotency_key_mismatch` | `dispatch::gates::concurrency::identical_keyed_appends_from_threads_execute_once`, `dispatch::gates::concurrency::identical_keyed_appends_from_processes_sharing_a_cache_execute_once` |
//! | `indeterminate` | `dispatch::gates::codes::an_overflow_after_a_keyed_write_leaves_the_key_indeterminate` |
//! | `throttled` | `dispatch::throttle::calls_past_the_burst_are_throttled_until_the_bucket_refills`, `dispatch::gates::codes::a_throttled_burst_through_a_write_tool` |
//! | `overflow` | `dispatch::audit::a_response_over_the_limit_is_refused_with_overflow`, `dispatch::gates::codes::a_note_over_the_default_limit_overflows_and_a_ranged_read_passes` |
//! | `compute_budget_exceeded` | not reachable yet: no registered tool runs a regex or query under a budget |
//! | `concurrent_modification` | `tools::notes::write::a_stale_expected_sha256_is_concurrent_modification_and_changes_nothing`, `tools::frontmatter::update::a_stale_expected_sha256_is_concurrent_modification_and_changes_nothing`, `dispatch::hitl::a_stale_expected_sha256_refuses_the_delete`, `dispatch::gates::codes::a_stale_expected_sha256_refuses_every_guarded_tool` |
//! | `already_exists` | `tools::notes::write::write_note_creates_and_refuses_an_existing_note_in_create_mode`, `dispatch::gates::codes::each_code_through_a_real_tool` |
//! | `invalid_input` | `tools::notes::write::patch_note_errors_are_typed_and_change_nothing`, `dispatch::gates::codes::each_code_through_a_real_tool` |
//! | `ambiguous` | `tools::notes::write::patch_note_errors_are_typed_and_change_nothing`, `dispatch::gates::codes::each_code_through_a_real_tool` |
//! | `invalid_range` | `tools::notes::read::read_note_range_errors_are_typed`, `dispatch::gates::codes::each_code_through_a_real_tool` |
//! | `internal` | through a test tool only (`dispatch::idempotency::a_failure_after_an_effect_leaves_the_key_indeterminate`): a real tool reaches it on an I/O fault, which a test running as root cannot provoke portably |
//! | `index_busy` | `index::scan::a_second_writer_is_refused_while_the_lock_is_held` (`index_vault` while another process holds the vault's scan lock) |
//! | `file_busy` | Windows only, so not in this binary: `tests/e2e/py_vault_attack.py` under Wine (`tests/wine/run.sh`) holds a note open without sharing from another Windows process and reads and appends to it |
//! | `embedding_provider_error` | not reachable yet: no tool embeds (the providers' failures are proved by `embed::remote::*`, `embed::local::*` and `embed::config::*`) |

use engine_core::hash::sha256_hex;
use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::store::ElicitRequest;
use serde_json::{Value, json};

use crate::support;
use crate::support::dispatch::{Fixture, caller};
use crate::support::gates::snapshot;

/// 1,000,000 bytes: the governor's default `maxResponseBytes`.
const DEFAULT_MAX_RESPONSE_BYTES: usize = 1_000_000;

fn fixture() -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write("main", "a.md", "# A\nalpha\nalpha\n");
    fx.write("main", "b.md", "# B\n");
    fx
}

fn note(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("note")
}

#[test]
fn each_code_through_a_real_tool() {
    let fx = fixture();
    let reader = caller("reader", &["read:notes"], None);
    let stdio = Caller::stdio();
    let before = snapshot(fx.dir.path());
    let cases: Vec<(&Caller, &str, Value, ErrorCode)> = vec![
        (&stdio, "no_such_tool", json!({}), ErrorCode::NotFound),
        (
            &stdio,
            "read_note",
            json!({"path": "missing.md"}),
            ErrorCode::NotFound,
        ),
        (
            &stdio,
            "read_note",
            json!({"path": "a.md", "vault": "nope"}),
            ErrorCode::NotFound,
        ),
        (
            &stdio,
            "read_note",
            json!({"path": 7, "extra": true}),
            ErrorCode::ValidationError,
        ),
        (
            &reader,
            "write_note",
            json!({"path": "c.md", "content": "x"}),
            ErrorCode::Forbidden,
        ),
        (
            &stdio,
            "write_note",
            json!({"path": "a.md", "content": "x"}),
            ErrorCode::AlreadyExists,
        ),
        (
            &stdio,
            "copy_note",
            json!({"from": "a.md", "to": "b.md"}),
            ErrorCode::AlreadyExists,
        ),
        (
            &stdio,
            "patch_note",
            json!({"path": "a.md", "old": "alpha", "new": "x"}),
            ErrorCode::Ambiguous,
        ),
        (
            &stdio,
            "patch_note",
            json!({"path": "a.md", "old": "zulu", "new": "x"}),
            ErrorCode::NotFound,
        ),
        (
            &stdio,
            "read_note",
            json!({"path": "a.md", "lines": {"start": 9, "end": 12}}),
            ErrorCode::InvalidRange,
        ),
        (
            &stdio,
            "read_note",
            json!({"path": "a.md", "lines": {"start": 1, "end": 1}, "heading": "A"}),
            ErrorCode::InvalidInput,
        ),
    ];
    for (who, tool, args, code) in cases {
        let error = fx.err_as(who, tool, args.clone(), code);
        assert_eq!(error.retryable, code.default_retryable(), "{tool} {args}");
        assert!(!error.recovery.is_empty(), "{tool} {args}");
    }
    let invalid = fx.err(
        "read_note",
        json!({"path": 7, "extra": true}),
        ErrorCode::ValidationError,
    );
    let issues = invalid.details["issues"]
        .as_array()
        .expect("details.issues");
    assert!(issues.len() >= 2, "every issue is listed: {invalid:?}");
    let forbidden = fx.err_as(
        &reader,
        "write_note",
        json!({"path": "c.md", "content": "x"}),
        ErrorCode::Forbidden,
    );
    assert_eq!(forbidden.details["required"], json!(["write:notes"]));
    assert_eq!(
        snapshot(fx.dir.path()),
        before,
        "no refused call changed a file"
    );
}

#[test]
fn a_read_only_vault_refuses_every_mutating_tool_and_serves_reads() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}, "acl": {"readOnly": true}}));
    fx.write("main", "a.md", "# A\n");
    let before = snapshot(fx.dir.path());
    for (tool, args) in [
        ("write_note", json!({"path": "n.md", "content": "x"})),
        ("append_note", json!({"path": "a.md", "content": "x"})),
        (
            "patch_note",
            json!({"path": "a.md", "old": "A", "new": "B"}),
        ),
        ("move_note", json!({"from": "a.md", "to": "m.md"})),
        ("copy_note", json!({"from": "a.md", "to": "c.md"})),
        ("delete_note", json!({"path": "a.md"})),
        (
            "update_frontmatter",
            json!({"path": "a.md", "mode": "set", "key": "k", "value": 1}),
        ),
    ] {
        let error = fx.err(tool, args, ErrorCode::ReadOnlyMode);
        assert!(!error.retryable, "{tool}");
    }
    assert_eq!(snapshot(fx.dir.path()), before);
    assert_eq!(
        fx.ok("read_note", json!({"path": "a.md"}))["content"],
        "# A\n"
    );
}

#[test]
fn a_stale_expected_sha256_refuses_every_guarded_tool() {
    let fx = fixture();
    fx.write("main", "fm.md", "---\ntitle: T\n---\nbody\n");
    let stale = sha256_hex(b"an older version");
    for (tool, args, rel) in [
        (
            "write_note",
            json!({"path": "a.md", "content": "x", "mode": "overwrite", "expected_sha256": stale}),
            "a.md",
        ),
        (
            "append_note",
            json!({"path": "a.md", "content": "x", "expected_sha256": stale}),
            "a.md",
        ),
        (
            "patch_note",
            json!({"path": "b.md", "old": "B", "new": "x", "expected_sha256": stale}),
            "b.md",
        ),
        (
            "update_frontmatter",
            json!({"path": "fm.md", "mode": "set", "key": "title", "value": "X", "expected_sha256": stale}),
            "fm.md",
        ),
        (
            "move_note",
            json!({"from": "a.md", "to": "moved.md", "expected_sha256": stale}),
            "a.md",
        ),
        (
            "copy_note",
            json!({"from": "a.md", "to": "copied.md", "expected_sha256": stale}),
            "a.md",
        ),
        (
            "delete_note",
            json!({"path": "a.md", "expected_sha256": stale}),
            "a.md",
        ),
    ] {
        let before = snapshot(fx.dir.path());
        let error =
            support::gates::err_approved(&fx, tool, args, ErrorCode::ConcurrentModification);
        assert!(error.retryable, "{tool}");
        assert_eq!(
            error.details["actual_sha256"],
            sha256_hex(note(&fx, rel).as_bytes()),
            "{tool}"
        );
        assert_eq!(snapshot(fx.dir.path()), before, "{tool} changed the tree");
    }
}

#[test]
fn a_throttled_burst_through_a_write_tool() {
    let fx = Fixture::new(json!({
        "throttle": {"tiers": {"write": {"perMinute": 60, "burst": 3}}}
    }));
    fx.write("main", "log.md", "# Log\n");
    fx.write("other", "log.md", "# Log\n");
    for i in 0..3 {
        fx.ok(
            "append_note",
            json!({"path": "log.md", "content": format!("line {i}")}),
        );
    }
    let error = fx.err(
        "append_note",
        json!({"path": "log.md", "content": "over"}),
        ErrorCode::Throttled,
    );
    assert!(error.retryable);
    assert_eq!(error.details["scope_class"], "write");
    let wait = error.details["retry_after_seconds"]
        .as_u64()
        .expect("retry_after_seconds");
    assert!(wait >= 1, "{error:?}");
    assert_eq!(
        note(&fx, "log.md"),
        "# Log\nline 0\nline 1\nline 2\n",
        "the throttled call wrote nothing"
    );
    // Another class and another vault have their own buckets.
    fx.ok("read_note", json!({"path": "log.md"}));
    fx.ok(
        "append_note",
        json!({"path": "log.md", "content": "there", "vault": "other"}),
    );
    fx.clock.advance(wait * 1000);
    fx.ok("append_note", json!({"path": "log.md", "content": "later"}));
}

#[test]
fn a_note_over_the_default_limit_overflows_and_a_ranged_read_passes() {
    let fx = fixture();
    let line = "a line of a long note, long enough to make it big\n";
    let big = line.repeat(DEFAULT_MAX_RESPONSE_BYTES / line.len() + 10);
    assert!(big.len() > DEFAULT_MAX_RESPONSE_BYTES);
    fx.write("main", "big.md", &big);
    let error = fx.err("read_note", json!({"path": "big.md"}), ErrorCode::Overflow);
    assert!(!error.retryable);
    assert!(error.recovery.contains("range"), "{}", error.recovery);
    let part = fx.ok(
        "read_note",
        json!({"path": "big.md", "lines": {"start": 1, "end": 100}}),
    );
    assert_eq!(part["content"], line.repeat(100));
    assert_eq!(
        part["sha256"],
        sha256_hex(big.as_bytes()),
        "the hash is the whole note's"
    );
}

#[test]
fn an_overflow_after_a_keyed_write_leaves_the_key_indeterminate() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "governor": {"maxResponseBytes": 20}
    }));
    fx.write("main", "log.md", "");
    let args = json!({"path": "log.md", "content": "KEYED", "idempotency_key": "k-over"});
    fx.err("append_note", args.clone(), ErrorCode::Overflow);
    let error = fx.err("append_note", args, ErrorCode::Indeterminate);
    assert!(!error.retryable);
    assert_eq!(error.details["key"], "k-over");
    assert_eq!(
        note(&fx, "log.md").matches("KEYED").count(),
        1,
        "never run twice"
    );
}

/// Mints a token for `delete_note` with `args` as the stdio caller in vault `vault`.
fn mint(fx: &Fixture, vault: &str, args: &Value, caller: &str, ttl: i64) -> String {
    let hash = engine_core::hash::args_hash("delete_note", args).expect("args hash");
    fx.server
        .runtime()
        .store()
        .elicit()
        .mint(
            &ElicitRequest {
                vault_id: vault.into(),
                tool_name: "delete_note".into(),
                args_hash: hash,
                caller: caller.into(),
                proposed_change: json!({}),
            },
            ttl,
            fx.now_s(),
        )
        .expect("mint")
}

#[test]
fn elicit_tokens_are_bound_to_vault_args_caller_and_time() {
    let fx = fixture();
    fx.write("other", "a.md", "other a\n");
    let args = json!({"path": "a.md"});
    let with = |token: &str, extra: Value| {
        let mut call = json!({"path": "a.md", "elicit_token": token});
        if let (Some(call), Value::Object(extra)) = (call.as_object_mut(), extra) {
            call.extend(extra);
        }
        call
    };
    let other_args = mint(&fx, "main", &json!({"path": "b.md"}), "stdio", 300);
    fx.err(
        "delete_note",
        with(&other_args, json!({})),
        ErrorCode::ElicitInvalid,
    );
    let other_vault = mint(
        &fx,
        "main",
        &json!({"path": "a.md", "vault": "other"}),
        "stdio",
        300,
    );
    let error = fx.err(
        "delete_note",
        with(&other_vault, json!({"vault": "other"})),
        ErrorCode::ElicitInvalid,
    );
    assert!(!error.retryable);
    let other_caller = mint(&fx, "main", &args, "alice", 300);
    fx.err(
        "delete_note",
        with(&other_caller, json!({})),
        ErrorCode::ElicitInvalid,
    );
    let expiring = mint(&fx, "main", &args, "stdio", 60);
    fx.clock.advance(61_000);
    fx.err(
        "delete_note",
        with(&expiring, json!({})),
        ErrorCode::ElicitInvalid,
    );
    assert!(
        fx.exists("main", "a.md") && fx.exists("other", "a.md"),
        "nothing deleted"
    );
    // A good token passes once; the same token again is refused.
    let good = mint(&fx, "main", &args, "stdio", 300);
    fx.ok("delete_note", with(&good, json!({})));
    assert!(!fx.exists("main", "a.md"));
    fx.write("main", "a.md", "again\n");
    fx.err(
        "delete_note",
        with(&good, json!({})),
        ErrorCode::ElicitInvalid,
    );
    assert!(fx.exists("main", "a.md"));
    // Without a token the human's out-of-band approval still works.
    let gated = fx.err("delete_note", args.clone(), ErrorCode::ElicitRequired);
    fx.approve_error(&gated);
    fx.ok("delete_note", args);
}
