//! Gate 7a: idempotency keys through a counting test tool: replay without re-running,
//! mismatch, in flight (two threads), release after a pre-handler failure, indeterminate
//! after a post-effect failure.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::{ErrorCode, ToolError};
use obsidian_tc::runtime::{ToolContext, ToolDef};
use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

/// Handler runs per vault folder (each test has its own temp vault).
static RUNS: Mutex<BTreeMap<PathBuf, usize>> = Mutex::new(BTreeMap::new());
/// Lets a `block: true` call finish.
static RELEASE: AtomicBool = AtomicBool::new(false);

fn runs(fx: &Fixture) -> usize {
    let root = fx.vault_dir("main").canonicalize().unwrap();
    RUNS.lock().unwrap().get(&root).copied().unwrap_or(0)
}

fn count(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let run = {
        let mut runs = RUNS.lock().unwrap();
        let entry = runs.entry(ctx.vault().root().to_path_buf()).or_insert(0);
        *entry += 1;
        *entry
    };
    if args["block"] == true {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !RELEASE.load(Ordering::SeqCst) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    if args["fail_after_effect"] == true {
        ctx.mark_effect_started();
        return Err(ToolError::internal("disk full halfway"));
    }
    if args["fail"] == true {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "refused before any change",
        ));
    }
    Ok(json!({ "run": run, "note": args["note"] }))
}

fn counting_tool(name: &'static str, scopes: &'static [&'static str]) -> ToolDef {
    ToolDef::new(
        (name, "Count", "Counts its runs."),
        "test",
        (
            json!({
                "type": "object",
                "properties": {
                    "note": {"type": "string"},
                    "block": {"type": "boolean"},
                    "fail": {"type": "boolean"},
                    "fail_after_effect": {"type": "boolean"}
                },
                "additionalProperties": false
            }),
            None,
        ),
        count,
    )
    .scopes(scopes)
    .idempotent(true)
}

fn fixture() -> Fixture {
    Fixture::with_tools(
        json!({"throttle": {"enabled": false}}),
        vec![
            counting_tool("test_append", &["write:notes"]),
            counting_tool("test_bulk", &["bulk:notes"]),
        ],
    )
}

#[test]
fn a_repeated_key_replays_the_first_result_without_running_again() {
    let fx = fixture();
    let args = json!({"note": "a", "idempotency_key": "k1"});
    let first = fx.call(&Caller::stdio(), "test_append", args.clone());
    let second = fx.call(&Caller::stdio(), "test_append", args);
    assert_eq!(first.result.as_ref().unwrap()["run"], 1);
    assert_eq!(second.result, first.result);
    assert!(second.replayed && !first.replayed);
    assert_eq!(runs(&fx), 1);
    // Without a key every call runs.
    fx.ok("test_append", json!({"note": "a"}));
    fx.ok("test_append", json!({"note": "a"}));
    assert_eq!(runs(&fx), 3);
    // Keys are per vault.
    fx.ok(
        "test_append",
        json!({"note": "a", "idempotency_key": "k1", "vault": "other"}),
    );
}

#[test]
fn a_key_reused_with_other_arguments_is_a_mismatch() {
    let fx = fixture();
    fx.ok("test_append", json!({"note": "a", "idempotency_key": "k2"}));
    let error = fx.err(
        "test_append",
        json!({"note": "b", "idempotency_key": "k2"}),
        ErrorCode::IdempotencyKeyMismatch,
    );
    assert_eq!(error.details["key"], "k2");
    assert_eq!(runs(&fx), 1);
}

#[test]
fn a_concurrent_call_with_the_same_key_is_in_flight_and_one_handler_runs() {
    let fx = fixture();
    let args = json!({"note": "slow", "block": true, "idempotency_key": "k3"});
    std::thread::scope(|scope| {
        let first = scope.spawn(|| fx.call(&Caller::stdio(), "test_append", args.clone()));
        let deadline = Instant::now() + Duration::from_secs(10);
        while runs(&fx) == 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let second = fx.call(&Caller::stdio(), "test_append", args.clone());
        let error = second.result.unwrap_err();
        assert_eq!(error.code, ErrorCode::IdempotencyInFlight);
        assert!(error.retryable);
        RELEASE.store(true, Ordering::SeqCst);
        assert!(first.join().unwrap().result.is_ok());
    });
    assert!(fx.call(&Caller::stdio(), "test_append", args).replayed);
    assert_eq!(runs(&fx), 1);
}

#[test]
fn a_failure_before_the_handler_releases_the_key() {
    let fx = fixture();
    let args = json!({"note": "bulk", "idempotency_key": "k4"});
    // bulk:* is on the HITL floor: the first call stops at the gate and releases its claim.
    let gated = fx.err("test_bulk", args.clone(), ErrorCode::ElicitRequired);
    assert_eq!(runs(&fx), 0);
    let hash = gated.details["args_hash"].as_str().unwrap();
    fx.server
        .runtime()
        .store()
        .elicit()
        .approve(hash, None, None, 300, fx.now_s())
        .unwrap();
    assert_eq!(fx.ok("test_bulk", args.clone())["run"], 1);
    assert!(fx.call(&Caller::stdio(), "test_bulk", args).replayed);
    // A handler refusal that declared no effect releases the key too.
    fx.err(
        "test_append",
        json!({"fail": true, "idempotency_key": "k5"}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "test_append",
        json!({"fail": true, "idempotency_key": "k5"}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(runs(&fx), 3);
}

#[test]
fn a_failure_after_an_effect_leaves_the_key_indeterminate() {
    let fx = fixture();
    let args = json!({"fail_after_effect": true, "idempotency_key": "k6"});
    fx.err("test_append", args.clone(), ErrorCode::Internal);
    let error = fx.err("test_append", args, ErrorCode::Indeterminate);
    assert_eq!(error.details["key"], "k6");
    assert_eq!(runs(&fx), 1);
}

#[test]
fn the_key_is_validated_like_any_argument() {
    let fx = fixture();
    fx.err(
        "test_append",
        json!({"idempotency_key": ""}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "test_append",
        json!({"idempotency_key": "k".repeat(129)}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "read_note",
        json!({"path": "a.md", "idempotency_key": "k"}),
        ErrorCode::ValidationError,
    );
}
