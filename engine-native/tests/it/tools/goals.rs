//! Goals as notes through the dispatcher: goals made by `set_goal` and goal notes a person
//! wrote both list; a person's status edit is the goal's status; a goal closes once; an
//! unknown id closes nothing; a past target day expires the goal at `list_goals` and in the
//! maintenance sweep; the folder ACL, a whitelist and the read-only switch; hostile text
//! stays one note; bad input is refused with nothing written.

use obsidian_tc::errors::ErrorCode;
use obsidian_tc::upkeep::expire_goals;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller, snapshot};

const DAY_MS: u64 = 86_400_000;

fn fixture() -> Fixture {
    Fixture::new(json!({"throttle": {"enabled": false}}))
}

fn note(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("note")
}

/// The ids of the goals `list_goals` lists with `status`.
fn listed(fx: &Fixture, status: &str) -> Vec<String> {
    ids(&fx.ok("list_goals", json!({"status": status})))
}

fn ids(list: &Value) -> Vec<String> {
    list["goals"]
        .as_array()
        .expect("goals")
        .iter()
        .map(|goal| goal["id"].as_str().expect("id").to_owned())
        .collect()
}

#[test]
fn goals_set_by_the_tool_and_written_by_a_person_both_list() {
    let fx = fixture();
    let set = fx.ok(
        "set_goal",
        json!({"text": "Ship the 2.0 release\n\nWith the new importer.", "target_date": "2026-03-31"}),
    );
    assert_eq!(set["id"], "Memory/goals/Ship the 2.0 release.md");
    assert_eq!(set["new"], true);
    assert_eq!(set["status"], "open");
    assert_eq!(
        note(&fx, "Memory/goals/Ship the 2.0 release.md"),
        "---\ntype: goal\nstatus: open\ntarget: 2026-03-31\ncreated: 2026-01-01\nsource: stated\n---\n\
         Ship the 2.0 release\n\nWith the new importer.\n"
    );
    // A person's own goal note, in a subfolder, without a status; a note that is no goal;
    // a goal note outside the goals folder.
    fx.write(
        "main",
        "Memory/goals/2026/Learn Rust.md",
        "---\ntype: Goal\ncreated: 2025-12-01\n---\n# Learn Rust\nOne chapter a week.\n",
    );
    fx.write(
        "main",
        "Memory/goals/ideas.md",
        "---\ntype: concept\n---\nNot a goal.\n",
    );
    fx.write(
        "main",
        "Projects/goal.md",
        "---\ntype: goal\n---\nElsewhere.\n",
    );
    let list = fx.ok("list_goals", json!({}));
    assert_eq!(
        ids(&list),
        [
            "Memory/goals/Ship the 2.0 release.md",
            "Memory/goals/2026/Learn Rust.md"
        ]
    );
    assert_eq!(list["total"], 2);
    assert_eq!(
        list["goals"][0]["text"],
        "Ship the 2.0 release\n\nWith the new importer."
    );
    assert_eq!(list["goals"][0]["target"], "2026-03-31");
    assert_eq!(list["goals"][0]["created"], "2026-01-01");
    assert_eq!(
        list["goals"][1]["text"],
        "# Learn Rust\nOne chapter a week."
    );
    assert_eq!(list["goals"][1]["status"], "open");
    assert_eq!(
        ids(&fx.ok("list_goals", json!({"status": "any", "limit": 1}))),
        ["Memory/goals/Ship the 2.0 release.md"]
    );
    // The same text again answers the open goal; nothing new is written.
    let again = fx.ok(
        "set_goal",
        json!({"text": "Ship the 2.0 release\n\nWith the new importer."}),
    );
    assert_eq!(
        (again["new"].clone(), again["id"].clone()),
        (json!(false), set["id"].clone())
    );
    // Another goal with the same first line gets the next free name.
    let other = fx.ok("set_goal", json!({"text": "Ship the 2.0 release"}));
    assert_eq!(other["id"], "Memory/goals/Ship the 2.0 release 2.md");
}

#[test]
fn a_persons_status_edit_is_the_goals_status() {
    let fx = fixture();
    let id = fx.ok("set_goal", json!({"text": "Run a marathon"}))["id"].clone();
    let path = id.as_str().expect("id");
    let edited = note(&fx, path).replace("status: open", "status: completed");
    fx.write("main", path, &edited);
    assert!(listed(&fx, "open").is_empty());
    assert_eq!(listed(&fx, "completed"), [path]);
    let close = fx.ok("close_goal", json!({"id": path, "status": "abandoned"}));
    assert_eq!(close["closed"], false);
    assert_eq!(close["reason"], "not_open");
    assert_eq!(close["goal"]["status"], "completed");
    assert_eq!(note(&fx, path), edited);
    // A status word of a person's own lists under `any` only, as written.
    fx.write(
        "main",
        path,
        &edited.replace("status: completed", "status: someday"),
    );
    assert!(listed(&fx, "completed").is_empty());
    assert_eq!(
        fx.ok("list_goals", json!({"status": "any"}))["goals"][0]["status"],
        "someday"
    );
}

#[test]
fn a_goal_closes_once_and_an_unknown_id_closes_nothing() {
    let fx = fixture();
    let id = fx.ok("set_goal", json!({"text": "Write the paper"}))["id"].clone();
    let path = id.as_str().expect("id").to_owned();
    fx.clock.advance(DAY_MS);
    let first = fx.ok("close_goal", json!({"id": path, "status": "completed"}));
    assert_eq!(first["closed"], true);
    assert_eq!(first["goal"]["status"], "completed");
    assert_eq!(first["goal"]["closed"], "2026-01-02");
    assert_eq!(
        note(&fx, &path),
        "---\ntype: goal\nstatus: completed\ncreated: 2026-01-01\nsource: stated\nclosed: 2026-01-02\n---\nWrite the paper\n"
    );
    let before = snapshot(&fx.vault_dir("main"));
    let second = fx.ok("close_goal", json!({"id": path, "status": "abandoned"}));
    assert_eq!(
        (second["closed"].clone(), second["reason"].clone()),
        (json!(false), json!("not_open"))
    );
    for unknown in ["Memory/goals/Nothing.md", "Memory/goals", "Elsewhere.md"] {
        let answer = fx.ok("close_goal", json!({"id": unknown, "status": "completed"}));
        assert_eq!(
            answer,
            json!({"closed": false, "reason": "not_a_goal"}),
            "{unknown}"
        );
    }
    // A goal note outside the goals folder is not a goal of these tools.
    fx.write("main", "Elsewhere.md", "---\ntype: goal\n---\nOutside.\n");
    let before_outside = snapshot(&fx.vault_dir("main"));
    let outside = fx.ok(
        "close_goal",
        json!({"id": "Elsewhere.md", "status": "completed"}),
    );
    assert_eq!(outside["reason"], "not_a_goal");
    assert_eq!(snapshot(&fx.vault_dir("main")), before_outside);
    assert_eq!(before.len() + 1, before_outside.len());
    assert_eq!(listed(&fx, "completed"), [path]);
}

#[test]
fn a_past_target_day_expires_the_goal_at_list_and_in_the_sweep() {
    let fx = fixture();
    let id = fx.ok(
        "set_goal",
        json!({"text": "Finish the draft", "target_date": "2026-01-03"}),
    )["id"]
        .clone();
    let path = id.as_str().expect("id").to_owned();
    let keep = fx.ok(
        "set_goal",
        json!({"text": "Keep going", "target_date": "2026-02-01"}),
    )["id"]
        .clone();
    // Due on its target day, expired the day after.
    fx.clock.advance(2 * DAY_MS);
    assert_eq!(listed(&fx, "open").len(), 2);
    fx.clock.advance(DAY_MS);
    assert_eq!(listed(&fx, "open"), [keep.as_str().expect("id")]);
    assert_eq!(listed(&fx, "expired"), [path.as_str()]);
    // Read as expired before the sweep wrote it; it cannot be closed any more.
    assert!(note(&fx, &path).contains("status: open"));
    let close = fx.ok("close_goal", json!({"id": path, "status": "completed"}));
    assert_eq!(
        (close["closed"].clone(), close["reason"].clone()),
        (json!(false), json!("not_open"))
    );
    // The maintenance sweep writes it, through the dispatcher, as the maintenance caller.
    expire_goals(&fx.server);
    assert!(
        note(&fx, &path).contains("status: expired\n"),
        "{}",
        note(&fx, &path)
    );
    assert!(note(&fx, &path).contains("closed: 2026-01-04\n"));
    assert!(note(&fx, keep.as_str().expect("id")).contains("status: open"));
    let swept = fx
        .events()
        .into_iter()
        .rev()
        .find(|e| e.event.tool == "expire_goals")
        .expect("audit row");
    assert_eq!(swept.event.caller, "maintenance");
    assert_eq!(swept.event.paths, std::slice::from_ref(&path));
    // The sweep's change is a snapshot like any other: undo puts the open goal back.
    let snapshots = fx.ok("list_snapshots", json!({"path": path}));
    assert_eq!(snapshots["items"][0]["tool"], "expire_goals", "{snapshots}");
    assert_eq!(
        snapshots["items"][0]["caller"], "maintenance",
        "{snapshots}"
    );
    // A second sweep has nothing to do; the tool answers what it expired.
    assert_eq!(fx.ok("expire_goals", json!({})), json!({"expired": []}));
    // A vault without a goals folder is not called at all.
    let calls = fx.events().len();
    expire_goals(&fx.server);
    assert_eq!(fx.events().len(), calls + 1, "only vault main has goals");
}

#[test]
fn the_folder_acl_and_a_whitelist_hide_goal_notes() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {
            "readPaths": ["Memory/goals/team/**"],
            "writePaths": ["Memory/goals/team/**"]
        }
    }));
    fx.write(
        "main",
        "Memory/goals/team/Ship.md",
        "---\ntype: goal\n---\nShip.\n",
    );
    fx.write(
        "main",
        "Memory/goals/private/Secret.md",
        "---\ntype: goal\n---\nSecret.\n",
    );
    assert_eq!(listed(&fx, "any"), ["Memory/goals/team/Ship.md"]);
    let hidden = json!({"id": "Memory/goals/private/Secret.md", "status": "completed"});
    fx.err("close_goal", hidden, ErrorCode::AclDenied);
    // set_goal writes into the goals folder itself, which the ACL does not let it write.
    let before = snapshot(&fx.vault_dir("main"));
    fx.err("set_goal", json!({"text": "Another"}), ErrorCode::AclDenied);
    assert_eq!(snapshot(&fx.vault_dir("main")), before);
    assert!(
        fx.ok(
            "close_goal",
            json!({"id": "Memory/goals/team/Ship.md", "status": "completed"})
        )["closed"]
            == true
    );

    let strict =
        Fixture::new(json!({"acl": {"strictReadDefault": true, "readPaths": ["Public/**"]}}));
    strict.write(
        "main",
        "Memory/goals/Hidden.md",
        "---\ntype: goal\n---\nHidden.\n",
    );
    assert_eq!(
        strict.ok("list_goals", json!({"status": "any"})),
        json!({"goals": [], "total": 0})
    );
}

#[test]
fn the_read_only_switch_refuses_setting_and_closing() {
    let fx = Fixture::new(json!({"acl": {"readOnly": true}}));
    fx.write(
        "main",
        "Memory/goals/Mine.md",
        "---\ntype: goal\n---\nMine.\n",
    );
    let before = snapshot(&fx.vault_dir("main"));
    fx.err("set_goal", json!({"text": "New"}), ErrorCode::ReadOnlyMode);
    fx.err(
        "close_goal",
        json!({"id": "Memory/goals/Mine.md", "status": "completed"}),
        ErrorCode::ReadOnlyMode,
    );
    fx.err("expire_goals", json!({}), ErrorCode::ReadOnlyMode);
    assert_eq!(listed(&fx, "open"), ["Memory/goals/Mine.md"]);
    assert_eq!(snapshot(&fx.vault_dir("main")), before);
}

#[test]
fn hostile_text_stays_one_goal_note_in_the_goals_folder() {
    let fx = fixture();
    let texts = [
        "../../etc/passwd",
        "---\ntype: person\nstatus: completed\n---\nbody after a fake block",
        "a: [unclosed\nstatus: completed\n...\n---",
        "..",
        "# /\\:*?\"<>|#^[]",
        "line\u{2028}with odd breaks",
    ];
    for text in texts {
        let set = fx.ok("set_goal", json!({"text": text}));
        let id = set["id"].as_str().expect("id");
        assert!(
            id.starts_with("Memory/goals/") && !id[13..].contains('/'),
            "{id}"
        );
        assert!(
            !id.split('/').any(|part| part == ".." || part == "."),
            "{id}"
        );
        assert_eq!(set["status"], "open", "{text}");
        assert_eq!(set["text"], text.trim(), "{text}");
    }
    let list = fx.ok("list_goals", json!({"status": "open"}));
    assert_eq!(list["total"], texts.len());
    let mut read: Vec<String> = list["goals"]
        .as_array()
        .expect("goals")
        .iter()
        .map(|goal| goal["text"].as_str().expect("text").to_owned())
        .collect();
    let mut given: Vec<String> = texts.iter().map(|t| t.trim().to_owned()).collect();
    read.sort();
    given.sort();
    assert_eq!(read, given);
    let files: Vec<String> = snapshot(&fx.vault_dir("main")).into_keys().collect();
    assert!(
        files.iter().all(|f| f.starts_with("Memory/goals/")),
        "{files:?}"
    );
    assert_eq!(files.len(), texts.len());
}

#[test]
fn bad_input_is_refused_and_nothing_is_written() {
    let fx = fixture();
    let before = snapshot(&fx.vault_dir("main"));
    fx.err(
        "set_goal",
        json!({"text": "  \n "}),
        ErrorCode::InvalidInput,
    );
    fx.err("set_goal", json!({"text": ""}), ErrorCode::ValidationError);
    fx.err(
        "set_goal",
        json!({"text": "x".repeat(2001)}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "set_goal",
        json!({"text": "a\u{0}b"}),
        ErrorCode::InvalidInput,
    );
    for day in ["2026-13-01", "2026-02-30", "31-12-2026"] {
        fx.err(
            "set_goal",
            json!({"text": "t", "target_date": day}),
            ErrorCode::InvalidInput,
        );
    }
    fx.err(
        "set_goal",
        json!({"text": "t", "target_date": "tomorrow"}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "close_goal",
        json!({"id": "Memory/goals/t.md", "status": "expired"}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "list_goals",
        json!({"status": "done"}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "list_goals",
        json!({"limit": 201}),
        ErrorCode::ValidationError,
    );
    assert_eq!(snapshot(&fx.vault_dir("main")), before);
}

#[test]
fn scopes_are_the_originals() {
    let fx = fixture();
    let reader = caller("reader", &["read:notes"], None);
    fx.err_as(
        &reader,
        "set_goal",
        json!({"text": "t"}),
        ErrorCode::Forbidden,
    );
    assert!(fx.call(&reader, "list_goals", json!({})).result.is_ok());
    let writer = caller("writer", &["write:workspace"], None);
    assert!(
        fx.call(&writer, "set_goal", json!({"text": "t"}))
            .result
            .is_ok()
    );
    fx.err_as(&writer, "list_goals", json!({}), ErrorCode::Forbidden);
}
