//! A server process killed in the middle of `write_note`, end to end: the real binary serves
//! MCP over stdio, receives a multi-megabyte overwrite (approved by a human through
//! `obsidian-tc elicit approve`, as a real overwrite must be) and is SIGKILLed after a random
//! delay. After every kill the note is exactly its old or its new content, `list_notes`
//! shows no temp file, and a normal call afterwards succeeds.
//!
//! The content goes over stdio rather than `obsidian-tc call --args` because one command-line
//! argument is capped at 128 KiB on Linux.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use engine_core::hash::args_hash;
use serde_json::{Value, json};

use crate::support::gates::Xorshift;
use crate::support::mcp::{BIN, arg, run, run_call, stdout_json, vault};

const NOTE: &str = "big.md";
const KILLS: usize = 10;

/// The content of round `round`: about 2–3 MB of lines whose text and length depend on the
/// round, so a torn or truncated file equals neither the old nor the new content.
fn content(round: usize) -> String {
    let line = format!(
        "- round {round} {} [[link {round}]]\n",
        "word ".repeat(3 + round % 7)
    );
    line.repeat((2 * 1024 * 1024 + round * 97_003) / line.len())
}

/// One stdio MCP session with the server, spoken as raw JSON-RPC lines.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    fn start(vault: &Path) -> Session {
        let mut child = Command::new(BIN)
            .arg(arg(vault))
            .env_remove("OBSIDIAN_TC_CONFIG")
            .envs(crate::support::cache_home::cache_env(
                &crate::support::cache_home::test_cache_root(),
            ))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn obsidian-tc");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut session = Session {
            child,
            stdin,
            stdout,
        };
        session.send(&json!({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {
                "protocolVersion": "2025-03-26",
                "capabilities": {},
                "clientInfo": {"name": "gates_crash", "version": "0"}
            }
        }));
        session.response(1);
        session.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        session
    }

    fn send(&mut self, message: &Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin
            .write_all(line.as_bytes())
            .expect("write request");
        self.stdin.flush().expect("flush request");
    }

    fn call(&mut self, id: u64, name: &str, arguments: &Value) {
        self.send(&json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}
        }));
    }

    /// Reads lines until the response with `id`.
    fn response(&mut self, id: u64) -> Value {
        loop {
            let mut line = String::new();
            let read = self.stdout.read_line(&mut line).expect("read response");
            assert!(read > 0, "the server closed stdout before answering {id}");
            let message: Value = serde_json::from_str(&line).expect("JSON-RPC line");
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reap");
    }
}

/// Sends the overwrite once to record the approval request, approves it as the human would,
/// and sends the identical call again; returns the session with that call under way.
fn approved_overwrite_under_way(vault: &Path, text: &str) -> Session {
    let args = json!({"path": NOTE, "content": text, "mode": "overwrite"});
    let hash = args_hash("write_note", &args).expect("args hash");
    let mut session = Session::start(vault);
    session.call(2, "write_note", &args);
    let gated = session.response(2);
    assert_eq!(
        gated["result"]["isError"], true,
        "an overwrite needs approval first"
    );
    let approved = run(&["elicit", "approve", &hash, "--caller", "stdio", &arg(vault)]);
    assert_eq!(
        approved.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&approved.stderr)
    );
    session.call(3, "write_note", &args);
    session
}

/// Every path `list_notes` shows, attachments included.
fn listed(vault: &Path) -> Vec<String> {
    let args = json!({"include_attachments": true, "limit": 1000}).to_string();
    let out = run_call(vault, "list_notes", &args);
    assert_eq!(out.status.code(), Some(0));
    stdout_json(&out)["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|note| note["path"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn sigkill_during_write_note_leaves_the_old_or_the_new_note() {
    let vault = vault();
    let mut current = content(0);
    std::fs::write(vault.path().join(NOTE), &current).expect("first note");
    let expected_listing = listed(vault.path());
    assert!(expected_listing.contains(&NOTE.to_owned()));

    // How long an unkilled approved overwrite takes, to spread the kills over it.
    let calibration = content(1);
    let mut session = approved_overwrite_under_way(vault.path(), &calibration);
    let started = Instant::now();
    let done = session.response(3);
    let full = started.elapsed();
    assert_eq!(
        done["result"]["isError"], false,
        "{}",
        done["result"]["content"]
    );
    session.kill();
    current = calibration;

    let mut random = Xorshift(0x9E37_79B9_7F4A_7C15);
    let mut saw_old = 0;
    let mut saw_new = 0;
    for round in 2..2 + KILLS {
        let next = content(round);
        let session = approved_overwrite_under_way(vault.path(), &next);
        let bound = u64::try_from(full.as_micros()).unwrap_or(u64::MAX) * 5 / 4;
        std::thread::sleep(Duration::from_micros(random.below(bound)));
        session.kill();
        let on_disk = std::fs::read(vault.path().join(NOTE)).expect("the note still exists");
        if on_disk == next.as_bytes() {
            saw_new += 1;
            current = next;
        } else {
            assert!(
                on_disk == current.as_bytes(),
                "round {round}: the note is torn ({} bytes; old {}, new {})",
                on_disk.len(),
                current.len(),
                next.len()
            );
            saw_old += 1;
        }
        assert_eq!(listed(vault.path()), expected_listing, "round {round}");
    }
    eprintln!("kills: {saw_old} left the old note, {saw_new} the new one (full call {full:?})");

    let append = json!({"path": NOTE, "content": "after the kills"}).to_string();
    let out = run_call(vault.path(), "append_note", &append);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let after = std::fs::read_to_string(vault.path().join(NOTE)).expect("note");
    assert!(after.starts_with(&current) && after.ends_with("after the kills\n"));
}
