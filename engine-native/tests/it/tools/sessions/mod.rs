//! Sessions and their JSONL traces through the dispatcher: a session traces exactly its
//! caller's calls in its vault, in order, with args hash, outcome, changed files and replay
//! (never the note text); a session belongs to its caller; starting while open and ending
//! again change nothing; a torn last line is skipped and counted and a new server continues
//! the open session; rotation reads back in order; retention deletes old sessions; many
//! concurrent calls never interleave within a line. [`sigkill`] kills the real binary
//! mid-stream.

mod bootstrap;
mod session_note;
mod sigkill;

use std::path::PathBuf;

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::sessions::read_session;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

/// One day in milliseconds.
const DAY_MS: u64 = 86_400_000;

fn fixture() -> Fixture {
    Fixture::new(json!({"throttle": {"enabled": false}}))
}

fn traces_dir(fx: &Fixture, vault: &str) -> PathBuf {
    fx.server
        .runtime()
        .config()
        .cache_dir()
        .join("traces")
        .join(vault)
}

/// Every file of the vault's trace folder, by name.
fn trace_files(fx: &Fixture, vault: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(traces_dir(fx, vault))
        .map(|entries| {
            entries
                .map(|entry| {
                    entry
                        .expect("entry")
                        .file_name()
                        .into_string()
                        .expect("utf-8")
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn start(fx: &Fixture, args: Value) -> String {
    let started = fx.ok("start_session", args);
    started["session_id"].as_str().expect("id").to_owned()
}

/// Every event of `id` for the stdio caller (all pages).
fn events(fx: &Fixture, id: &str) -> Vec<Value> {
    fx.ok(
        "get_session_traces",
        json!({"session_id": id, "limit": 1000}),
    )["items"]
        .as_array()
        .expect("items")
        .clone()
}

/// The `field` of every call event.
fn calls<'a>(events: &'a [Value], field: &str) -> Vec<&'a Value> {
    events
        .iter()
        .filter(|event| event["kind"] == "call")
        .map(|event| &event[field])
        .collect()
}

#[test]
fn a_session_traces_exactly_its_callers_calls_in_the_vault_in_order() {
    let fx = fixture();
    fx.write("main", "a.md", "# A\n");
    let stdio = Caller::stdio();
    let alice = caller("alice", &["*"], None);
    let started = fx.ok(
        "start_session",
        json!({"label": "tidy", "goal": "file notes"}),
    );
    let id = started["session_id"].as_str().expect("id").to_owned();
    assert_eq!(started["vault"], "main");
    assert_eq!(started["label"], "tidy");
    assert_eq!(started["trace_file"], format!("traces/main/{id}.jsonl"));
    assert!(started.get("ended_at").is_none(), "{started}");
    let made = [
        fx.call(&stdio, "read_note", json!({"path": "a.md"})),
        fx.call(&stdio, "note_exists", json!({"path": "b.md"})),
        fx.call(
            &stdio,
            "write_note",
            json!({"path": "Notes/plan.md", "content": "the zanzibarquux plan\n", "idempotency_key": "k1"}),
        ),
        fx.call(
            &stdio,
            "write_note",
            json!({"path": "Notes/plan.md", "content": "the zanzibarquux plan\n", "idempotency_key": "k1"}),
        ),
        fx.call(&stdio, "read_note", json!({"path": "missing.md"})),
    ];
    // not this session's: another caller in the same vault, the same caller in another vault
    fx.call(&alice, "read_note", json!({"path": "a.md"}));
    fx.call(
        &stdio,
        "note_exists",
        json!({"path": "a.md", "vault": "other"}),
    );
    let ended = fx.ok("end_session", json!({}));
    assert_eq!(ended["session_id"], id.as_str());
    assert!(ended["ended_at"].is_string(), "{ended}");
    // after the end, nothing more is traced
    fx.call(&stdio, "note_exists", json!({"path": "a.md"}));

    let events = events(&fx, &id);
    let kinds: Vec<&str> = events.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["start", "call", "call", "call", "call", "call", "end"]
    );
    assert_eq!(events[0]["label"], "tidy");
    assert_eq!(events[0]["goal"], "file notes");
    assert_eq!(
        calls(&events, "tool"),
        [
            "read_note",
            "note_exists",
            "write_note",
            "write_note",
            "read_note"
        ]
    );
    let hashes: Vec<Value> = made.iter().map(|call| json!(call.args_hash)).collect();
    assert_eq!(
        calls(&events, "args_hash"),
        hashes.iter().collect::<Vec<_>>()
    );
    assert_eq!(calls(&events, "outcome"), ["ok", "ok", "ok", "ok", "error"]);
    assert_eq!(events[5]["code"], "not_found");
    assert_eq!(
        calls(&events, "changed_files"),
        [
            &json!([]),
            &json!([]),
            &json!(["Notes/plan.md"]),
            &json!([]),
            &json!([])
        ]
    );
    assert_eq!(
        calls(&events, "replayed"),
        [false, false, false, true, false]
    );
    assert!(events.iter().all(|e| e.get("arguments").is_none()));

    // the note's text is nowhere in the trace file
    let bytes = std::fs::read(traces_dir(&fx, "main").join(format!("{id}.jsonl"))).expect("trace");
    let text = String::from_utf8(bytes).expect("utf-8");
    assert!(!text.contains("zanzibarquux"), "{text}");
    assert_eq!(text.lines().count(), 7);
    // another caller sees nothing of it, and cannot end it
    let theirs = fx.call(&alice, "get_session_traces", json!({}));
    assert_eq!(theirs.result.expect("alice's traces")["total_count"], 0);
    fx.err_as(
        &alice,
        "get_session_traces",
        json!({"session_id": id}),
        ErrorCode::NotFound,
    );
    fx.err_as(
        &alice,
        "end_session",
        json!({"session_id": id}),
        ErrorCode::NotFound,
    );
}

#[test]
fn starting_while_open_answers_the_open_session_and_ending_again_changes_nothing() {
    let fx = fixture();
    let first = fx.ok("start_session", json!({"label": "one"}));
    let again = fx.ok("start_session", json!({"label": "two"}));
    assert_eq!(again, first, "one open session per caller and vault");
    let id = first["session_id"].as_str().unwrap();
    // another vault is another session
    let other = fx.ok("start_session", json!({"vault": "other"}));
    assert_ne!(other["session_id"], first["session_id"]);
    let ended = fx.ok("end_session", json!({"session_id": id}));
    let file = traces_dir(&fx, "main").join(format!("{id}.jsonl"));
    let bytes = std::fs::read(&file).expect("trace");
    fx.clock.advance(5_000);
    assert_eq!(fx.ok("end_session", json!({"session_id": id})), ended);
    assert_eq!(
        std::fs::read(&file).expect("trace"),
        bytes,
        "ending again writes nothing"
    );
    fx.err("end_session", json!({}), ErrorCode::InvalidInput);
    fx.err(
        "end_session",
        json!({"session_id": format!("{}xx", "../".repeat(10))}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "end_session",
        json!({"session_id": "0123456789abcdef0123456789abcdef"}),
        ErrorCode::NotFound,
    );
    // a new session after the end
    let next = start(&fx, json!({}));
    assert_ne!(next, id);
}

#[test]
fn changed_files_the_caller_may_not_read_are_left_out() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Public/**"], "writePaths": ["**"]}
    }));
    let id = start(&fx, json!({}));
    fx.ok(
        "write_note",
        json!({"path": "Public/seen.md", "content": "x\n"}),
    );
    fx.ok(
        "write_note",
        json!({"path": "Hidden/unseen.md", "content": "y\n"}),
    );
    let text = std::fs::read_to_string(traces_dir(&fx, "main").join(format!("{id}.jsonl")))
        .expect("trace");
    assert!(!text.contains("Hidden"), "{text}");
    let events = events(&fx, &id);
    assert_eq!(
        calls(&events, "changed_files"),
        [&json!(["Public/seen.md"]), &json!([])]
    );
}

#[test]
fn arguments_are_traced_only_when_the_config_says_so() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "traces": {"includeArguments": true}
    }));
    let id = start(&fx, json!({}));
    fx.ok("write_note", json!({"path": "n.md", "content": "quokka\n"}));
    let events = events(&fx, &id);
    assert_eq!(
        calls(&events, "arguments"),
        [&json!({"path": "n.md", "content": "quokka\n"})]
    );
}

#[test]
fn a_torn_last_line_is_skipped_and_counted_and_a_new_server_continues_the_session() {
    let fx = fixture();
    let id = start(&fx, json!({}));
    fx.ok("note_exists", json!({"path": "a.md"}));
    let file = traces_dir(&fx, "main").join(format!("{id}.jsonl"));
    // a crash mid-write: half a record, no newline
    let mut torn = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .expect("open");
    std::io::Write::write_all(
        &mut torn,
        br#"{"kind":"call","ts":"2026-01-01T00:00:00Z","to"#,
    )
    .expect("append");
    drop(torn);
    let log = read_session(&traces_dir(&fx, "main"), &id).expect("read");
    assert_eq!((log.records.len(), log.skipped_lines), (2, 1));

    let restarted = fx.reopen();
    let again = restarted.call(&Caller::stdio(), "start_session", json!({}));
    assert_eq!(again.result.expect("start")["session_id"], id.as_str());
    restarted.call(&Caller::stdio(), "read_note", json!({"path": "nothing.md"}));
    restarted.call(&Caller::stdio(), "end_session", json!({}));
    let log = read_session(&traces_dir(&fx, "main"), &id).expect("read");
    assert_eq!(log.skipped_lines, 1, "only the torn line");
    let read = restarted
        .call(
            &Caller::stdio(),
            "get_session_traces",
            json!({"session_id": id}),
        )
        .result
        .expect("traces");
    assert_eq!(read["skipped_lines"], 1);
    let kinds: Vec<&str> = read["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["start", "call", "call", "end"]);
    assert_eq!(read["items"][2]["tool"], "read_note");
}

#[test]
fn a_rotated_trace_reads_back_in_order_page_by_page() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "traces": {"maxFileBytes": 4096}
    }));
    let id = start(&fx, json!({}));
    let hashes: Vec<String> = (0..80)
        .map(|n| {
            let path = format!("note-{n}.md");
            fx.call(&Caller::stdio(), "note_exists", json!({"path": path}))
                .args_hash
        })
        .collect();
    fx.ok("end_session", json!({}));
    let files = trace_files(&fx, "main");
    assert!(files.len() >= 3, "{files:?}");
    assert!(files.contains(&format!("{id}.1.jsonl")), "{files:?}");
    for name in &files {
        let len = std::fs::metadata(traces_dir(&fx, "main").join(name))
            .unwrap()
            .len();
        assert!(len <= 4096, "{name}: {len} bytes");
    }
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut args = json!({"session_id": id, "tool": "note_exists", "limit": 25});
        if let Some(cursor) = &cursor {
            args["cursor"] = json!(cursor);
        }
        let page = fx.ok("get_session_traces", args);
        assert_eq!(page["total_count"], 80);
        for event in page["items"].as_array().unwrap() {
            seen.push(event["args_hash"].as_str().unwrap().to_owned());
        }
        match page["cursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, hashes);
    let all = events(&fx, &id);
    assert_eq!(all.first().unwrap()["kind"], "start");
    assert_eq!(all.last().unwrap()["kind"], "end");
}

#[test]
fn sessions_older_than_the_retention_are_deleted() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "traces": {"retentionDays": 2}
    }));
    let old = start(&fx, json!({"label": "old"}));
    fx.ok("note_exists", json!({"path": "a.md"}));
    fx.ok("end_session", json!({}));
    fx.clock.advance(DAY_MS);
    let recent = start(&fx, json!({"label": "recent"}));
    fx.ok("end_session", json!({}));
    fx.clock.advance(DAY_MS + 1_000);
    // starting a session deletes the old one (its last record is past two days), not the other
    let current = start(&fx, json!({}));
    let mut kept = vec![format!("{current}.jsonl"), format!("{recent}.jsonl")];
    kept.sort();
    assert_eq!(trace_files(&fx, "main"), kept);
    fx.err(
        "get_session_traces",
        json!({"session_id": old}),
        ErrorCode::NotFound,
    );
    // the maintenance sweep deletes what has aged since, in every vault
    fx.ok("start_session", json!({"vault": "other"}));
    fx.clock.advance(3 * DAY_MS);
    assert_eq!(fx.server.runtime().sweep_traces().expect("sweep"), 3);
    assert!(trace_files(&fx, "main").is_empty());
    assert!(trace_files(&fx, "other").is_empty());
    // the deleted open session is no longer traced into: a new one starts
    let fresh = start(&fx, json!({}));
    assert_ne!(fresh, current);
}

#[test]
fn a_date_window_reads_across_sessions_and_a_tool_filter_keeps_its_calls() {
    let fx = fixture();
    let first = start(&fx, json!({}));
    fx.ok("note_exists", json!({"path": "a.md"}));
    fx.ok("end_session", json!({}));
    fx.clock.advance(DAY_MS);
    let second = start(&fx, json!({}));
    fx.ok("note_exists", json!({"path": "b.md"}));
    fx.ok("list_notes", json!({}));
    let day_one = fx.ok(
        "get_session_traces",
        json!({"from": "2026-01-01", "to": "2026-01-01"}),
    );
    assert_eq!(day_one["total_count"], 3);
    assert!(
        day_one["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["session_id"] == first.as_str())
    );
    let both = fx.ok("get_session_traces", json!({"tool": "note_exists"}));
    let sessions: Vec<&Value> = both["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["session_id"])
        .collect();
    assert_eq!(sessions, [&json!(first), &json!(second)]);
    fx.err(
        "get_session_traces",
        json!({"from": "2026-01-02T24:00:00Z"}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "get_session_traces",
        json!({"to": "2026-02-30"}),
        ErrorCode::InvalidInput,
    );
    let later = fx.ok(
        "get_session_traces",
        json!({"from": "2026-01-02T00:00:00Z"}),
    );
    let tools: Vec<&Value> = later["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["tool"])
        .collect();
    // the reads of the traces (two refused) are calls of the open session too
    let reads = json!("get_session_traces");
    assert_eq!(
        tools,
        [
            &Value::Null,
            &json!("note_exists"),
            &json!("list_notes"),
            &reads,
            &reads,
            &reads,
            &reads
        ]
    );
}

#[test]
fn many_calls_at_once_leave_one_whole_record_per_line() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "traces": {"includeArguments": true}
    }));
    let id = start(&fx, json!({}));
    let padding = "x".repeat(200);
    std::thread::scope(|scope| {
        for thread in 0..8 {
            let (fx, padding) = (&fx, &padding);
            scope.spawn(move || {
                for n in 0..25 {
                    let path = format!("t{thread}/{n}/{padding}.md");
                    fx.call(&Caller::stdio(), "note_exists", json!({"path": path}));
                }
            });
        }
    });
    let log = read_session(&traces_dir(&fx, "main"), &id).expect("read");
    assert_eq!(log.skipped_lines, 0);
    assert_eq!(log.records.len(), 1 + 8 * 25);
}
