//! `list_tasks` and `update_task` through the real dispatcher: the Tasks plugin's emoji and
//! Dataview fields read and filtered, paging, the folder ACL, in-place edits that keep every
//! other byte, a moved line refused, and the confirmation for reopening an old task.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

const PROJECT: &str = "---\ntags: [work]\n---\n# Project\r\n\r\n- [ ] Write spec 📅 2026-01-10 ⏫ #work\r\n- [x] Draft outline ✅ 2025-12-01\r\n  - [/] Review [due:: 2026-02-01] [priority:: low]\r\n- [?] Ask legal 🛫 2026-01-05 #work/legal\r\n- plain item\r\n- [-] Dropped idea ❌ 2025-11-01\r\n";

fn seeded() -> Fixture {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
    }));
    fx.write("main", "Projects/Alpha.md", PROJECT);
    fx.write(
        "main",
        "Home.md",
        "- [ ] Pay rent 🔁 every month 📅 2026-01-01 ^rent\n- [x] Old chore ✅ 2026-01-01\n",
    );
    fx.write(
        "main",
        "Secret/Hidden.md",
        "- [ ] hidden task 📅 2026-01-02\n",
    );
    fx.ok("index_vault", json!({}));
    fx
}

fn list(fx: &Fixture, args: Value) -> Value {
    fx.ok("list_tasks", args)
}

fn lines(found: &Value) -> Vec<(String, u64)> {
    found["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .map(|t| {
            (
                t["path"].as_str().expect("path").to_owned(),
                t["line"].as_u64().expect("line"),
            )
        })
        .collect()
}

fn at(path: &str, line: u64) -> (String, u64) {
    (path.to_owned(), line)
}

#[test]
fn tasks_are_read_with_their_fields() {
    let fx = seeded();
    let all = list(&fx, json!({}));
    assert_eq!(all["total"], 8);
    let spec = &all["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .find(|t| t["line"] == 6)
        .expect("spec task")
        .clone();
    assert_eq!(spec["status"], " ");
    assert_eq!(spec["status_type"], "todo");
    assert_eq!(spec["due"], "2026-01-10");
    assert_eq!(spec["priority"], "high");
    assert_eq!(spec["tags"], json!(["work"]));
    assert_eq!(spec["description"], "Write spec #work");
    assert_eq!(spec["text"], "Write spec 📅 2026-01-10 ⏫ #work");
    let rent = &all["tasks"][0];
    assert_eq!(rent["path"], "Home.md");
    assert_eq!(rent["recurrence"], "every month");
    assert_eq!(rent["due"], "2026-01-01");
    let review = list(&fx, json!({"status": ["in_progress"]}));
    assert_eq!(lines(&review), [at("Projects/Alpha.md", 8)]);
    assert_eq!(review["tasks"][0]["due"], "2026-02-01");
    assert_eq!(review["tasks"][0]["priority"], "low");
    assert_eq!(review["tasks"][0]["description"], "Review");
}

#[test]
fn filters_combine() {
    let fx = seeded();
    let due_before = list(&fx, json!({"due": {"before": "2026-01-10"}}));
    assert_eq!(
        lines(&due_before),
        [at("Home.md", 1), at("Secret/Hidden.md", 1)]
    );
    let due_on = list(&fx, json!({"due": {"on": "2026-01-10"}}));
    assert_eq!(lines(&due_on), [at("Projects/Alpha.md", 6)]);
    let no_due_open = list(
        &fx,
        json!({"due": {"exists": false}, "status": ["todo", "custom"]}),
    );
    assert_eq!(lines(&no_due_open), [at("Projects/Alpha.md", 9)]);
    let custom = list(&fx, json!({"status_symbols": ["?"]}));
    assert_eq!(lines(&custom), [at("Projects/Alpha.md", 9)]);
    assert_eq!(custom["tasks"][0]["status_type"], "custom");
    assert_eq!(custom["tasks"][0]["start"], "2026-01-05");
    let done_after = list(&fx, json!({"done": {"after": "2025-12-01"}}));
    assert_eq!(lines(&done_after), [at("Home.md", 2)]);
    let work = list(&fx, json!({"tags": ["#work"]}));
    assert_eq!(
        lines(&work),
        [at("Projects/Alpha.md", 6), at("Projects/Alpha.md", 9)],
        "nested tags match their parent; frontmatter tags are the note's, not the task's"
    );
    let high = list(&fx, json!({"priority": ["high", "highest"]}));
    assert_eq!(lines(&high), [at("Projects/Alpha.md", 6)]);
    let folder = list(
        &fx,
        json!({"path_prefix": "Projects/", "text_contains": "IDEA"}),
    );
    assert_eq!(lines(&folder), [at("Projects/Alpha.md", 11)]);
    fx.err(
        "list_tasks",
        json!({"due": {"before": "next week"}}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn pages_follow_the_cursor() {
    let fx = seeded();
    let first = list(&fx, json!({"limit": 3}));
    assert_eq!(first["tasks"].as_array().expect("page").len(), 3);
    assert_eq!(first["total"], 8);
    let second = list(&fx, json!({"limit": 3, "cursor": first["cursor"]}));
    let third = list(&fx, json!({"limit": 3, "cursor": second["cursor"]}));
    assert_eq!(third["tasks"].as_array().expect("page").len(), 2);
    assert_eq!(third["cursor"], Value::Null);
    let mut seen = lines(&first);
    seen.extend(lines(&second));
    seen.extend(lines(&third));
    assert_eq!(seen, lines(&list(&fx, json!({}))));
}

#[test]
fn hidden_notes_never_show_or_count() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Open/**"]}
    }));
    fx.write("main", "Open/Note.md", "- [ ] visible\n");
    fx.write("main", "Secret/Hidden.md", "- [ ] hidden task\n");
    fx.ok("index_vault", json!({}));
    let reader = caller("agent", &["read:tasks", "write:tasks"], None);
    let found = fx
        .call(&reader, "list_tasks", json!({}))
        .result
        .expect("list");
    assert_eq!(lines(&found), [at("Open/Note.md", 1)]);
    assert_eq!(found["total"], 1);
}

fn read(fx: &Fixture, path: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(path)).expect("note")
}

#[test]
fn updates_change_only_the_task_line() {
    let fx = seeded();
    // Listed once first, so the parsed tasks are kept in memory: the list after the writes
    // shows they are rebuilt when the index changes.
    assert_eq!(list(&fx, json!({"due": {"on": "2026-03-01"}}))["total"], 0);
    let done = fx.ok(
        "update_task",
        json!({"path": "Projects/Alpha.md", "line": 6,
               "expected_text": "Write spec 📅 2026-01-10 ⏫ #work", "toggle": true}),
    );
    assert_eq!(done["changed"], true);
    assert_eq!(
        done["after"],
        "- [x] Write spec 📅 2026-01-10 ⏫ #work ✅ 2026-01-01"
    );
    assert_eq!(done["task"]["status_type"], "done");
    let expected = PROJECT.replace(
        "- [ ] Write spec 📅 2026-01-10 ⏫ #work\r\n",
        "- [x] Write spec 📅 2026-01-10 ⏫ #work ✅ 2026-01-01\r\n",
    );
    assert_eq!(
        read(&fx, "Projects/Alpha.md"),
        expected,
        "CRLF and every other byte kept"
    );

    fx.ok(
        "update_task",
        json!({"path": "Projects/Alpha.md", "line": 8, "expected_text": "Review [due:: 2026-02-01] [priority:: low]",
               "set_dates": {"due": "2026-03-01", "scheduled": "2026-02-20"}, "priority": "highest"}),
    );
    assert!(read(&fx, "Projects/Alpha.md").contains(
        "  - [/] Review [due:: 2026-03-01] [scheduled:: 2026-02-20] [priority:: highest]\r\n"
    ));
    // The index saw the writes.
    let review = list(&fx, json!({"due": {"on": "2026-03-01"}}));
    assert_eq!(review["tasks"][0]["priority"], "highest");
    assert_eq!(review["tasks"][0]["scheduled"], "2026-02-20");

    let preview = fx.ok(
        "update_task",
        json!({"path": "Home.md", "line": 1, "expected_text": "Pay rent 🔁 every month 📅 2026-01-01 ^rent",
               "clear_dates": ["due"], "status": ">", "dry_run": true}),
    );
    assert_eq!(preview["after"], "- [>] Pay rent 🔁 every month ^rent");
    assert_eq!(
        read(&fx, "Home.md"),
        "- [ ] Pay rent 🔁 every month 📅 2026-01-01 ^rent\n- [x] Old chore ✅ 2026-01-01\n"
    );
}

#[test]
fn a_moved_or_stale_task_is_refused() {
    let fx = seeded();
    let before = read(&fx, "Projects/Alpha.md");
    let error = fx.err(
        "update_task",
        json!({"path": "Projects/Alpha.md", "line": 7, "expected_text": "Write spec 📅 2026-01-10 ⏫ #work", "toggle": true}),
        ErrorCode::ConcurrentModification,
    );
    assert_eq!(error.details["task_now_at_lines"], json!([6]));
    fx.err(
        "update_task",
        json!({"path": "Projects/Alpha.md", "line": 10, "expected_text": "plain item", "toggle": true}),
        ErrorCode::ConcurrentModification,
    );
    fx.err(
        "update_task",
        json!({"path": "Projects/Alpha.md", "line": 6, "expected_text": "Write spec 📅 2026-01-10 ⏫ #work",
               "toggle": true, "expected_sha256": "0".repeat(64)}),
        ErrorCode::ConcurrentModification,
    );
    fx.err(
        "update_task",
        json!({"path": "Projects/Alpha.md", "line": 6, "expected_text": "Write spec 📅 2026-01-10 ⏫ #work",
               "set_dates": {"due": "tomorrow"}}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(read(&fx, "Projects/Alpha.md"), before);
}

#[test]
fn reopening_a_task_done_long_ago_needs_confirmation() {
    let fx = seeded();
    // Done on 2026-01-01, today is 2026-01-01: no confirmation.
    let reopened = fx.ok(
        "update_task",
        json!({"path": "Home.md", "line": 2, "expected_text": "Old chore ✅ 2026-01-01", "toggle": true}),
    );
    assert_eq!(reopened["after"], "- [ ] Old chore");
    // Done on 2025-12-01, a month ago: the user must confirm.
    let args = json!({"path": "Projects/Alpha.md", "line": 7, "expected_text": "Draft outline ✅ 2025-12-01", "status": " "});
    let before = read(&fx, "Projects/Alpha.md");
    let error = fx.err("update_task", args.clone(), ErrorCode::ElicitRequired);
    assert_eq!(read(&fx, "Projects/Alpha.md"), before);
    fx.approve_error(&error);
    let done = fx.ok("update_task", args);
    assert_eq!(done["after"], "- [ ] Draft outline");
}
