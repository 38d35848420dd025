//! Identical keyed writes sent at the same time, through the real tools: by threads sharing
//! one dispatcher, and by separate `obsidian-tc call` processes sharing one cache folder.
//! Exactly one executes (the appended text is in the note once); every other call gets the
//! replayed result or `idempotency_in_flight`; the key with other arguments is
//! `idempotency_key_mismatch`.

use std::process::{Command, Stdio};
use std::sync::Barrier;

use obsidian_tc::auth::Caller;
use obsidian_tc::dispatch::CallOutcome;
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::Fixture;
use crate::support::mcp::{BIN, arg, run_call, stdout_json, vault};

const THREADS: usize = 8;
const PROCESSES: usize = 4;
const ROUNDS: usize = 3;

fn occurrences(text: &str, marker: &str) -> usize {
    text.matches(marker).count()
}

/// Calls `tool` with `args` as the stdio caller from `THREADS` threads released at once;
/// returns every outcome.
fn racing_threads(fx: &Fixture, tool: &str, args: &Value) -> Vec<CallOutcome> {
    let barrier = Barrier::new(THREADS);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                scope.spawn(|| {
                    barrier.wait();
                    fx.call(&Caller::stdio(), tool, args.clone())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("thread"))
            .collect()
    })
}

#[test]
fn identical_keyed_appends_from_threads_execute_once() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write("main", "log.md", "# Log\n");
    let args = json!({"path": "log.md", "content": "ONCE-MARK", "idempotency_key": "k-append"});
    let outcomes = racing_threads(&fx, "append_note", &args);
    let executed: Vec<&Value> = outcomes
        .iter()
        .filter(|outcome| !outcome.replayed)
        .filter_map(|outcome| outcome.result.as_ref().ok())
        .collect();
    assert_eq!(executed.len(), 1, "{outcomes:?}");
    for outcome in &outcomes {
        match &outcome.result {
            Ok(value) => assert_eq!(value, executed[0], "a replay returns the first result"),
            Err(error) => {
                assert_eq!(error.code, ErrorCode::IdempotencyInFlight, "{error}");
                assert!(error.retryable);
            }
        }
    }
    let note = std::fs::read_to_string(fx.vault_dir("main").join("log.md")).expect("note");
    assert_eq!(occurrences(&note, "ONCE-MARK"), 1, "{note}");

    let replay = fx.call(&Caller::stdio(), "append_note", args);
    assert!(replay.replayed);
    assert_eq!(replay.result.as_ref().ok(), Some(executed[0]));
    let error = fx.err(
        "append_note",
        json!({"path": "log.md", "content": "OTHER", "idempotency_key": "k-append"}),
        ErrorCode::IdempotencyKeyMismatch,
    );
    assert!(!error.retryable);
    let note = std::fs::read_to_string(fx.vault_dir("main").join("log.md")).expect("note");
    assert_eq!(occurrences(&note, "ONCE-MARK"), 1);
    assert_eq!(occurrences(&note, "OTHER"), 0);
}

#[test]
fn identical_keyed_creates_from_threads_execute_once() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    let args =
        json!({"path": "new.md", "content": "created once\n", "idempotency_key": "k-create"});
    let outcomes = racing_threads(&fx, "write_note", &args);
    let executed = outcomes
        .iter()
        .filter(|outcome| !outcome.replayed && outcome.result.is_ok())
        .count();
    assert_eq!(executed, 1, "{outcomes:?}");
    for outcome in &outcomes {
        if let Err(error) = &outcome.result {
            // Never already_exists: the losers never reach the handler.
            assert_eq!(error.code, ErrorCode::IdempotencyInFlight, "{error}");
        }
    }
    assert_eq!(
        std::fs::read_to_string(fx.vault_dir("main").join("new.md")).expect("note"),
        "created once\n"
    );
}

/// Runs `obsidian-tc call append_note` from `PROCESSES` processes at once, all started
/// before any is waited for; returns (exit code, printed JSON) of each.
fn racing_calls(vault: &std::path::Path, args: &Value) -> Vec<(i32, Value)> {
    let text = args.to_string();
    let children: Vec<_> = (0..PROCESSES)
        .map(|_| {
            Command::new(BIN)
                .args(["call", "append_note", "--args", &text, &arg(vault)])
                .env_remove("OBSIDIAN_TC_CONFIG")
                .envs(crate::support::cache_home::cache_env(
                    &crate::support::cache_home::test_cache_root(),
                ))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn obsidian-tc")
        })
        .collect();
    children
        .into_iter()
        .map(|child| {
            let out = child.wait_with_output().expect("wait");
            (out.status.code().unwrap_or(-1), stdout_json(&out))
        })
        .collect()
}

#[test]
fn identical_keyed_appends_from_processes_sharing_a_cache_execute_once() {
    let vault = vault();
    std::fs::write(vault.path().join("log.md"), "# Log\n").expect("note");
    for round in 0..ROUNDS {
        let marker = format!("PROC-MARK-{round}");
        let args =
            json!({"path": "log.md", "content": marker, "idempotency_key": format!("k-{round}")});
        let results = racing_calls(vault.path(), &args);
        let successes: Vec<&Value> = results
            .iter()
            .filter(|(code, _)| *code == 0)
            .map(|(_, value)| value)
            .collect();
        assert!(!successes.is_empty(), "{results:?}");
        for (code, value) in &results {
            match code {
                0 => assert_eq!(value, successes[0], "a replay prints the first result"),
                1 => assert_eq!(value["code"], "idempotency_in_flight", "{value}"),
                other => panic!("exit {other}: {value}"),
            }
        }
        let note = std::fs::read_to_string(vault.path().join("log.md")).expect("note");
        assert_eq!(occurrences(&note, &marker), 1, "round {round}: {note}");
    }
    let reused = json!({"path": "log.md", "content": "OTHER", "idempotency_key": "k-0"});
    let out = run_call(vault.path(), "append_note", &reused.to_string());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout_json(&out)["code"], "idempotency_key_mismatch");
    let note = std::fs::read_to_string(vault.path().join("log.md")).expect("note");
    assert_eq!(occurrences(&note, "OTHER"), 0);
}

#[test]
fn a_key_held_by_a_running_call_answers_in_flight_through_append_note() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write("main", "log.md", "# Log\n");
    let args = json!({"path": "log.md", "content": "HELD", "idempotency_key": "k-held"});
    // Another server process has claimed the key and is still running the call.
    let hash = engine_core::hash::args_hash("append_note", &args).expect("args hash");
    fx.server
        .runtime()
        .store()
        .idempotency()
        .claim("main", "k-held", "append_note", &hash, fx.now_s())
        .expect("claim");
    let error = fx.err("append_note", args.clone(), ErrorCode::IdempotencyInFlight);
    assert!(error.retryable);
    assert!(
        error.recovery.contains("idempotency_key"),
        "{}",
        error.recovery
    );
    let note = std::fs::read_to_string(fx.vault_dir("main").join("log.md")).expect("note");
    assert_eq!(note, "# Log\n", "the in-flight answer ran nothing");
    // Its result, once recorded, is what the retry gets.
    let recorded = json!({
        "path": "log.md", "changed": true, "dry_run": false, "sha256": "ab".repeat(32),
        "size": 11, "lines_added": 1, "lines_removed": 0
    });
    fx.server
        .runtime()
        .store()
        .idempotency()
        .complete("main", "k-held", &recorded.to_string(), fx.now_s())
        .expect("complete");
    let replay = fx.call(&Caller::stdio(), "append_note", args);
    assert!(replay.replayed);
    assert_eq!(replay.result.expect("replayed"), recorded);
}
