//! A trace survives SIGKILL: the real binary serves MCP over stdio, a session is started and
//! hundreds of calls are fired without waiting; the process is killed mid-stream. Every
//! complete line of the trace parses, at most one torn line is skipped, every call that was
//! answered is in the trace, and a new server process replays the session.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use obsidian_tc::sessions::{Record, read_session};
use serde_json::{Value, json};

use crate::support::cache_home::{cache_env, cache_of, test_cache_root};
use crate::support::mcp::{BIN, EMBEDDINGS_OFF, arg, call, stdio_client, structured, vault};

/// How many calls are fired; the process is killed after [`ANSWERED`] answers.
const FIRED: usize = 20_000;
const ANSWERED: usize = 300;

fn request(id: usize, method: &str, params: Value) -> Vec<u8> {
    let mut line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        .to_string()
        .into_bytes();
    line.push(b'\n');
    line
}

fn tool_call(id: usize, name: &str, args: Value) -> Vec<u8> {
    request(id, "tools/call", json!({"name": name, "arguments": args}))
}

#[tokio::test]
async fn a_trace_written_while_the_server_is_killed_reads_back() {
    let vault = vault();
    let mut child = Command::new(BIN)
        .args(["serve", &arg(vault.path())])
        .env_remove("OBSIDIAN_TC_CONFIG")
        .env(EMBEDDINGS_OFF.0, EMBEDDINGS_OFF.1)
        .envs(cache_env(&test_cache_root()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn obsidian-tc");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut answers = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut answer = |id: usize| -> Value {
        loop {
            let line = answers.next().expect("an answer").expect("read");
            let message: Value = serde_json::from_str(&line).expect("JSON-RPC");
            if message["id"] == id {
                return message;
            }
        }
    };
    let initialize = json!({
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "sigkill-test", "version": "0"}
    });
    stdin
        .write_all(&request(0, "initialize", initialize))
        .expect("send");
    answer(0);
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .expect("send");
    stdin
        .write_all(&tool_call(1, "start_session", json!({"label": "killed"})))
        .expect("send");
    let started = answer(1);
    let id = started["result"]["structuredContent"]["session_id"]
        .as_str()
        .unwrap_or_else(|| panic!("{started}"))
        .to_owned();

    let writer = std::thread::spawn(move || {
        for n in 0..FIRED {
            let args = json!({"path": format!("notes/{n}-{}.md", "x".repeat(n % 200))});
            if stdin
                .write_all(&tool_call(n + 2, "note_exists", args))
                .is_err()
            {
                return; // the server is gone
            }
        }
    });
    let mut answered = 0;
    while answered < ANSWERED {
        let line = answers.next().expect("an answer").expect("read");
        let message: Value = serde_json::from_str(&line).expect("JSON-RPC");
        if message.get("id").is_some() {
            answered += 1;
        }
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    writer.join().expect("writer");

    let dir = cache_of(vault.path()).join("traces/main");
    let log = read_session(&dir, &id).expect("the trace reads");
    let bytes = std::fs::read(dir.join(format!("{id}.jsonl"))).expect("trace file");
    let complete_lines = bytes.iter().filter(|&&b| b == b'\n').count();
    let torn = usize::from(bytes.last() != Some(&b'\n'));
    assert_eq!(
        log.records.len(),
        complete_lines,
        "every complete line parses"
    );
    assert_eq!(
        log.skipped_lines, torn as u64,
        "only a torn last line is skipped"
    );
    assert!(matches!(log.records[0], Record::Start(_)));
    let calls = log
        .records
        .iter()
        .filter(|record| matches!(record, Record::Call(_)))
        .count();
    assert!(
        calls >= ANSWERED,
        "{calls} calls traced, {ANSWERED} answered"
    );
    assert!(
        calls < FIRED,
        "killed mid-stream: {calls} of {FIRED} traced"
    );

    // a new server process continues the session and replays it
    let client = stdio_client(&["serve", &arg(vault.path())]).await;
    let replay = call(
        &client,
        "get_session_traces",
        json!({"session_id": id, "tool": "note_exists", "limit": 1000}),
    )
    .await;
    let replay = structured(&replay);
    assert_eq!(replay["total_count"], calls, "{replay}");
    assert_eq!(replay["skipped_lines"], torn);
    let again = call(&client, "start_session", json!({})).await;
    assert_eq!(structured(&again)["session_id"], id.as_str());
    let ended = call(&client, "end_session", json!({})).await;
    assert!(structured(&ended)["ended_at"].is_string());
    client.cancel().await.expect("close");
}
