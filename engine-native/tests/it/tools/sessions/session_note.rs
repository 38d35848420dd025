//! The session note `end_session` writes into the memory folder: only when asked (or by
//! `traces.sessionNotes`), with the calls by tool, the start and end, and the changed notes
//! as wikilinks that resolve (only those the caller may read; a deleted one named, not
//! linked); a write ACL that denies the memory folder ends the session without the note and
//! says why; the note is a governed write (a snapshot, the index); the last verdict recorded
//! in the trace is in the note.

use obsidian_tc::sessions::VerdictRecord;
use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

fn fixture(root: Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(into), Value::Object(root)) = (config.as_object_mut(), root) {
        into.extend(root);
    }
    Fixture::new(config)
}

/// A session with a few calls: two notes written (one then deleted), one read, one failure.
fn work(fx: &Fixture) -> String {
    let started = fx.ok(
        "start_session",
        json!({"label": "tidy", "goal": "file the notes"}),
    );
    fx.ok(
        "write_note",
        json!({"path": "Public/plan.md", "content": "# Plan\n"}),
    );
    fx.ok(
        "write_note",
        json!({"path": "Public/map.canvas", "content": "{\"nodes\":[],\"edges\":[]}"}),
    );
    fx.ok(
        "write_note",
        json!({"path": "Public/gone.md", "content": "soon gone\n"}),
    );
    fx.ok("read_note", json!({"path": "Public/plan.md"}));
    let _ = fx.call(
        &obsidian_tc::auth::Caller::stdio(),
        "read_note",
        json!({"path": "Public/missing.md"}),
    );
    std::fs::remove_file(fx.vault_dir("main").join("Public/gone.md")).expect("delete");
    started["session_id"].as_str().expect("id").to_owned()
}

fn note_path(id: &str) -> String {
    format!("Memory/sessions/2026-01-01-{}.md", &id[..8])
}

#[test]
fn no_note_unless_asked() {
    let fx = fixture(json!({}));
    let id = work(&fx);
    let ended = fx.ok("end_session", json!({}));
    assert!(ended.get("session_note").is_none(), "{ended}");
    assert!(!fx.exists("main", &note_path(&id)));
    let fx = fixture(json!({}));
    let id = work(&fx);
    let ended = fx.ok("end_session", json!({"note": false}));
    assert!(ended.get("session_note").is_none(), "{ended}");
    assert!(!fx.exists("main", &note_path(&id)));
}

#[test]
fn the_note_tells_what_was_done_and_links_the_changed_notes() {
    let fx = fixture(json!({}));
    let id = work(&fx);
    fx.clock.advance(90_000);
    let ended = fx.ok("end_session", json!({"note": true}));
    let path = note_path(&id);
    assert_eq!(
        ended["session_note"],
        json!({"path": path, "written": true}),
        "{ended}"
    );
    assert_eq!(ended["session_id"], id.as_str());
    let text = std::fs::read_to_string(fx.vault_dir("main").join(&path)).expect("the note");
    assert!(text.starts_with("---\ntype: session\n"), "{text}");
    assert!(text.contains(&format!("session: {id}\n")), "{text}");
    assert!(text.contains("started: 2026-01-01T00:00:00Z\n"), "{text}");
    assert!(text.contains("ended: 2026-01-01T00:01:30Z\n"), "{text}");
    assert!(text.contains("label: \"tidy\"\n"), "{text}");
    assert!(text.contains("calls: 5\nfailed: 1\n"), "{text}");
    assert!(text.contains("- `write_note`: 3 calls\n"), "{text}");
    assert!(
        text.contains("- `read_note`: 2 calls (1 failed)\n"),
        "{text}"
    );
    assert!(text.contains("- [[Public/plan]]\n"), "{text}");
    assert!(text.contains("- [[Public/map.canvas]]\n"), "{text}");
    assert!(
        text.contains("- `Public/gone.md` (no longer in the vault)\n"),
        "{text}"
    );
    // its properties read back, and every link resolves in Obsidian's way
    let kind = fx.ok("read_property", json!({"path": path, "key": "type"}));
    assert_eq!(kind["value"], "session", "{kind}");
    let links = fx.ok("get_outgoing_links", json!({"path": path}));
    let links = links["links"].as_array().expect("links");
    let targets: Vec<(&str, &str)> = links
        .iter()
        .map(|l| {
            (
                l["resolved_path"].as_str().unwrap_or(""),
                l["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        targets,
        [
            ("Public/plan.md", "resolved"),
            ("Public/map.canvas", "resolved")
        ],
        "{links:?}"
    );
    // a governed write: a snapshot of the creation
    let snapshots = fx.ok("list_snapshots", json!({"path": path}));
    assert_eq!(
        snapshots["items"].as_array().map(Vec::len),
        Some(1),
        "{snapshots}"
    );
    // ending again does not write it twice
    let again = fx.ok("end_session", json!({"session_id": id, "note": true}));
    assert_eq!(again["session_note"]["written"], false, "{again}");
    assert_eq!(again["ended_at"], ended["ended_at"]);
}

#[test]
fn the_config_can_make_notes_the_default() {
    let fx = fixture(json!({
        "traces": {"sessionNotes": true},
        "vaults": [{"id": "main", "path": "main", "memoryFolder": "Agent"}, {"id": "other", "path": "other"}]
    }));
    let id = work(&fx);
    let ended = fx.ok("end_session", json!({}));
    let path = format!("Agent/sessions/2026-01-01-{}.md", &id[..8]);
    assert_eq!(ended["session_note"]["written"], true, "{ended}");
    assert!(fx.exists("main", &path));
    // and a call can still say no
    let fx = fixture(json!({"traces": {"sessionNotes": true}}));
    let id = work(&fx);
    fx.ok("end_session", json!({"note": false}));
    assert!(!fx.exists("main", &note_path(&id)));
}

#[test]
fn only_notes_the_caller_may_read_are_listed() {
    let fx = fixture(json!({"acl": {
        "readPaths": ["Public/**", "Memory/**"],
        "writePaths": ["**"]
    }}));
    let id = start_and_write(&fx);
    fx.ok("end_session", json!({"note": true}));
    let text = std::fs::read_to_string(fx.vault_dir("main").join(note_path(&id))).expect("note");
    assert!(text.contains("[[Public/seen]]"), "{text}");
    assert!(!text.contains("Hidden"), "{text}");
}

/// A session that writes a note in `Public/` and one in `Hidden/`.
fn start_and_write(fx: &Fixture) -> String {
    let id = super::start(fx, json!({}));
    for path in ["Public/seen.md", "Hidden/unseen.md"] {
        fx.ok("write_note", json!({"path": path, "content": "text\n"}));
    }
    id
}

#[test]
fn a_write_acl_denying_the_memory_folder_ends_the_session_without_the_note() {
    let fx = fixture(json!({"acl": {"writePaths": ["Public/**", "Hidden/**"]}}));
    let id = start_and_write(&fx);
    let ended = fx.ok("end_session", json!({"note": true}));
    assert!(ended["ended_at"].is_string(), "the session ended: {ended}");
    let note = &ended["session_note"];
    assert_eq!(note["written"], false, "{ended}");
    assert_eq!(note["path"], note_path(&id));
    let reason = note["reason"].as_str().expect("reason");
    assert!(reason.contains("may not write"), "{reason}");
    assert!(!fx.exists("main", &note_path(&id)));
    // the session is over: nothing more is traced, and it is not open
    fx.err(
        "end_session",
        json!({}),
        obsidian_tc::errors::ErrorCode::InvalidInput,
    );
}

#[test]
fn the_last_work_result_verdict_is_in_the_note() {
    let fx = fixture(json!({}));
    let id = work(&fx);
    let sessions = fx.server.runtime().sessions();
    let caller = obsidian_tc::auth::Caller::stdio().id;
    fx.ok("work_result", json!({"result": -1}));
    fx.ok(
        "work_result",
        json!({"result": 1, "comment": "filed everything"}),
    );
    let events = fx.ok("get_session_traces", json!({"session_id": id}));
    let verdicts: Vec<&Value> = events["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|event| event["kind"] == "verdict")
        .collect();
    assert_eq!(verdicts.len(), 2, "{events}");
    assert_eq!(verdicts[1]["verdict"], 1);
    assert_eq!(verdicts[1]["comment"], "filed everything");
    fx.ok("end_session", json!({"note": true}));
    let text = std::fs::read_to_string(fx.vault_dir("main").join(note_path(&id))).expect("note");
    assert!(text.contains("\nverdict: 1\n---\n"), "{text}");
    assert!(
        text.ends_with("## Verdict\n\n+1: filed everything\n"),
        "{text}"
    );
    // no open session: nothing to record it in
    let record = VerdictRecord {
        ts: "2026-01-01T00:05:00Z".to_owned(),
        verdict: 0,
        comment: None,
    };
    assert!(
        !sessions
            .record_verdict("main", &caller, 1 << 20, record)
            .expect("no session")
    );
}
