//! The per-note write queue through the dispatcher: concurrent read-modify-writes of one
//! note all succeed and lose nothing, a stale `expected_sha256` is still refused, and a call
//! holding one note does not hold up writes to another.

use std::sync::mpsc;
use std::time::Duration;

use engine_core::hash::sha256_hex;
use obsidian_tc::auth::Caller;
use obsidian_tc::errors::{ErrorCode, ToolError};
use obsidian_tc::runtime::{ToolContext, ToolDef};
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, path_tool};

/// A writing tool that reads `path` (then marks it read with the file `<path>.read`), and waits
/// until the file `<path>.go` exists before it appends `hold\n`: a read-modify-write held open
/// as long as the test wants.
fn held_append(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let path = args["path"].as_str().unwrap_or_default();
    let note = ctx
        .vault()
        .read(path)
        .map_err(|error| ToolError::internal(error.to_string()))?;
    std::fs::write(ctx.vault().root().join(format!("{path}.read")), "")
        .map_err(|error| ToolError::internal(error.to_string()))?;
    let go = ctx.vault().root().join(format!("{path}.go"));
    let started = std::time::Instant::now();
    while !go.exists() && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(2));
    }
    let mut bytes = note.bytes;
    bytes.extend_from_slice(b"hold\n");
    let options = obsidian_tc::vault::WriteOptions {
        overwrite: true,
        expected_sha256: Some(note.sha256),
    };
    ctx.vault()
        .write(path, &bytes, &options)
        .map_err(|error| ToolError::internal(error.to_string()))?;
    Ok(json!({"path": path}))
}

fn held_tool() -> ToolDef {
    path_tool(
        ("test_held_append", "Held append", "Reads, waits, appends."),
        held_append,
    )
}

fn fixture() -> Fixture {
    Fixture::with_tools(json!({"throttle": {"enabled": false}}), vec![held_tool()])
}

/// Waits until `test_held_append` has read `rel` in `fx`'s main vault.
fn wait_until_read(fx: &Fixture, rel: &str) {
    let marker = fx.vault_dir("main").join(format!("{rel}.read"));
    let started = std::time::Instant::now();
    while !marker.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{rel} was never read"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn text(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("note")
}

#[test]
fn concurrent_appends_to_one_note_all_succeed_and_each_line_is_there_once_in_order() {
    let fx = fixture();
    fx.write("main", "shared.md", "---\ntags: [log]\n---\n# Log\n");
    let (writers, each) = (12, 20);
    std::thread::scope(|scope| {
        for writer in 0..writers {
            let fx = &fx;
            scope.spawn(move || {
                for n in 0..each {
                    let line = format!("writer {writer} line {n}");
                    let outcome = fx.call(
                        &Caller::stdio(),
                        "append_note",
                        json!({"path": "shared.md", "content": line}),
                    );
                    if let Err(error) = outcome.result {
                        panic!("append {writer}/{n} failed: {error}");
                    }
                }
                // Another read-modify-write tool on the same note in the same crowd.
                fx.ok(
                    "add_tag",
                    json!({"path": "shared.md", "tag": format!("w{writer}")}),
                );
            });
        }
    });
    let text = text(&fx, "shared.md");
    for writer in 0..writers {
        let positions: Vec<usize> = (0..each)
            .map(|n| {
                let line = format!("writer {writer} line {n}\n");
                assert_eq!(text.matches(&line).count(), 1, "{line:?} once");
                text.find(&line).unwrap()
            })
            .collect();
        assert!(positions.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(text.contains(&format!("w{writer}")), "tag w{writer} kept");
    }
}

#[test]
fn a_stale_expected_sha256_is_still_a_concurrent_modification() {
    let fx = fixture();
    fx.write("main", "a.md", "first\n");
    let stale = sha256_hex(b"first\n");
    fx.ok("append_note", json!({"path": "a.md", "content": "second"}));
    let error = fx.err(
        "append_note",
        json!({"path": "a.md", "content": "third", "expected_sha256": stale}),
        ErrorCode::ConcurrentModification,
    );
    assert_eq!(error.details["path"], "a.md");
    assert_eq!(text(&fx, "a.md"), "first\nsecond\n");
}

#[test]
fn a_held_note_queues_its_own_writers_but_not_another_notes() {
    let fx = fixture();
    fx.write("main", "busy.md", "busy\n");
    fx.write("main", "free.md", "free\n");
    std::thread::scope(|scope| {
        let (held_tx, held_rx) = mpsc::channel();
        let fx = &fx;
        scope.spawn(move || {
            held_tx
                .send(fx.call(
                    &Caller::stdio(),
                    "test_held_append",
                    json!({"path": "busy.md"}),
                ))
                .unwrap();
        });
        // The held call has read busy.md once its queue line exists; wait for that.
        std::thread::sleep(Duration::from_millis(200));
        let (queued_tx, queued_rx) = mpsc::channel();
        scope.spawn(move || {
            queued_tx
                .send(fx.call(
                    &Caller::stdio(),
                    "append_note",
                    json!({"path": "busy.md", "content": "after hold"}),
                ))
                .unwrap();
        });
        // Another note is written while busy.md is held.
        fx.ok(
            "append_note",
            json!({"path": "free.md", "content": "meanwhile"}),
        );
        assert_eq!(text(fx, "free.md"), "free\nmeanwhile\n");
        // The writer of busy.md waits for its turn instead of failing.
        assert!(
            queued_rx.recv_timeout(Duration::from_millis(300)).is_err(),
            "the second writer of busy.md ran while the first held it"
        );
        fx.write("main", "busy.md.go", "");
        assert!(held_rx.recv().unwrap().result.is_ok());
        assert!(queued_rx.recv().unwrap().result.is_ok());
    });
    assert_eq!(text(&fx, "busy.md"), "busy\nhold\nafter hold\n");
}

#[test]
fn a_second_server_on_the_vault_waits_for_a_note_another_holds_and_loses_no_write() {
    let fx = fixture();
    fx.write("main", "busy.md", "busy\n");
    // Another server on the same vault and config: its own vault handles and lock files, as a
    // second obsidian-tc process started by another MCP client has.
    let other = fx.reopen();
    std::thread::scope(|scope| {
        let fx = &fx;
        let (held_tx, held_rx) = mpsc::channel();
        scope.spawn(move || {
            let outcome = fx.call(
                &Caller::stdio(),
                "test_held_append",
                json!({"path": "busy.md"}),
            );
            held_tx.send(outcome).unwrap();
        });
        wait_until_read(fx, "busy.md");
        let (queued_tx, queued_rx) = mpsc::channel();
        let other = &other;
        scope.spawn(move || {
            let outcome = other.call(
                &Caller::stdio(),
                "append_note",
                json!({"path": "busy.md", "content": "from the other server"}),
            );
            queued_tx.send(outcome).unwrap();
        });
        assert!(
            queued_rx.recv_timeout(Duration::from_millis(300)).is_err(),
            "the other server wrote busy.md while this one held it"
        );
        fx.write("main", "busy.md.go", "");
        assert!(held_rx.recv().unwrap().result.is_ok());
        assert!(queued_rx.recv().unwrap().result.is_ok());
    });
    assert_eq!(text(&fx, "busy.md"), "busy\nhold\nfrom the other server\n");
}
