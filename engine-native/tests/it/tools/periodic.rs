//! The periodic note tools through the real dispatcher: paths from Obsidian's settings (core
//! Daily notes, the Periodic Notes plugin winning when it enables a period, nested formats,
//! locale and ISO weeks at a year boundary), templates expanded by the dispatch clock, never
//! overwriting, append creating then appending (idempotency key, expected_sha256), listing
//! only names that read back into a date, and the ACL hiding notes.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

fn fixture(extra: Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    Fixture::new(config)
}

fn read(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("note")
}

fn paths(page: &Value) -> Vec<String> {
    page["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["path"].as_str().expect("path").to_owned())
        .collect()
}

#[test]
fn without_settings_today_s_daily_note_is_found_or_created_at_the_root() {
    let fx = fixture(json!({}));
    let missing = fx.ok("get_periodic_note", json!({"period": "daily"}));
    assert_eq!(missing["path"], "2026-01-01.md");
    assert_eq!(missing["exists"], false);
    assert_eq!(missing["settings_source"], "default");
    assert!(!fx.exists("main", "2026-01-01.md"), "get never creates");

    let made = fx.ok("find_or_create_periodic_note", json!({"period": "daily"}));
    assert_eq!(
        (made["created"].clone(), made["exists"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(made["content"], "");
    fx.write("main", "2026-01-01.md", "mine\n");
    let found = fx.ok("find_or_create_periodic_note", json!({"period": "daily"}));
    assert_eq!(found["created"], false);
    assert_eq!(found["content"], "mine\n");
    let got = fx.ok(
        "get_periodic_note",
        json!({"period": "daily", "date": "2026-01-01"}),
    );
    assert_eq!(got["sha256"], found["sha256"]);
}

#[test]
fn create_never_overwrites() {
    let fx = fixture(json!({}));
    fx.write("main", "2026-01.md", "kept\n");
    let error = fx.err(
        "create_periodic_note",
        json!({"period": "monthly", "date": "2026-01-20"}),
        ErrorCode::AlreadyExists,
    );
    assert!(error.message.contains("2026-01.md"), "{error}");
    assert_eq!(read(&fx, "2026-01.md"), "kept\n");
    let quarter = fx.ok(
        "create_periodic_note",
        json!({"period": "quarterly", "date": "2026-08-15"}),
    );
    assert_eq!(quarter["path"], "2026-Q3.md");
    assert_eq!(quarter["date"], "2026-07-01");
    let year = fx.ok("create_periodic_note", json!({"period": "yearly"}));
    assert_eq!(year["path"], "2026.md");
}

#[test]
fn weeks_follow_moment_at_the_year_boundary() {
    let fx = fixture(json!({}));
    let locale = fx.ok(
        "get_periodic_note",
        json!({"period": "weekly", "date": "2021-01-01"}),
    );
    assert_eq!(locale["path"], "2021-W01.md");
    assert_eq!(locale["date"], "2020-12-27");
    fx.write(
        "main",
        ".obsidian/plugins/periodic-notes/data.json",
        r#"{"weekly": {"enabled": true, "folder": "Weeks/", "format": "GGGG-[W]WW"}}"#,
    );
    let iso = fx.ok(
        "get_periodic_note",
        json!({"period": "weekly", "date": "2021-01-01"}),
    );
    assert_eq!(iso["path"], "Weeks/2020-W53.md");
    assert_eq!(iso["date"], "2020-12-28");
    assert_eq!(iso["settings_source"], "periodic-notes");
}

#[test]
fn core_daily_settings_a_nested_format_and_the_template() {
    let fx = fixture(json!({}));
    fx.write(
        "main",
        ".obsidian/daily-notes.json",
        r#"{"folder": "Journal", "format": "YYYY/MM/YYYY-MM-DD", "template": "Templates/Daily"}"#,
    );
    fx.write(
        "main",
        "Templates/Daily.md",
        "# {{title}}\r\n{{date:dddd, MMMM Do YYYY}} at {{time}}\r\n<< {{yesterday}} | {{tomorrow}} >>\r\n",
    );
    fx.clock.advance((9 * 60 + 5) * 60_000);
    let made = fx.ok(
        "create_periodic_note",
        json!({"period": "daily", "date": "2026-08-15"}),
    );
    assert_eq!(made["path"], "Journal/2026/08/2026-08-15.md");
    assert_eq!(made["settings_source"], "daily-notes");
    let expected = "# 2026-08-15\nSaturday, August 15th 2026 at 09:05\n<< 2026/08/2026-08-14 | 2026/08/2026-08-16 >>\n";
    assert_eq!(made["content"], expected);
    assert_eq!(read(&fx, "Journal/2026/08/2026-08-15.md"), expected);
}

#[test]
fn periodic_notes_settings_win_over_core_daily_notes_when_enabled() {
    let fx = fixture(json!({}));
    fx.write(
        "main",
        ".obsidian/daily-notes.json",
        r#"{"folder": "Journal", "format": "DD.MM.YYYY"}"#,
    );
    fx.write(
        "main",
        ".obsidian/plugins/periodic-notes/data.json",
        r#"{"activeCalendarSet": "default", "calendarSets": [{"id": "default",
            "day": {"enabled": true, "folder": "Days", "format": "YYYY-MM-DD", "templatePath": "T/day.md"}}]}"#,
    );
    fx.write("main", "T/day.md", "Day {{date}}\n");
    let made = fx.ok("find_or_create_periodic_note", json!({"period": "daily"}));
    assert_eq!(made["path"], "Days/2026-01-01.md");
    assert_eq!(made["content"], "Day 2026-01-01\n");
    fx.write(
        "main",
        ".obsidian/plugins/periodic-notes/data.json",
        r#"{"daily": {"enabled": false, "folder": "Days"}}"#,
    );
    let core = fx.ok("get_periodic_note", json!({"period": "daily"}));
    assert_eq!(core["path"], "Journal/01.01.2026.md");
    assert_eq!(core["settings_source"], "daily-notes");
}

#[test]
fn a_missing_template_is_a_typed_error_and_writes_nothing() {
    let fx = fixture(json!({}));
    fx.write(
        "main",
        ".obsidian/daily-notes.json",
        r#"{"template": "Templates/Gone"}"#,
    );
    let error = fx.err(
        "find_or_create_periodic_note",
        json!({"period": "daily"}),
        ErrorCode::NotFound,
    );
    assert!(error.message.contains("Templates/Gone.md"), "{error}");
    assert!(!fx.exists("main", "2026-01-01.md"));
    fx.err(
        "append_to_periodic_note",
        json!({"period": "daily", "content": "x"}),
        ErrorCode::NotFound,
    );
    assert!(!fx.exists("main", "2026-01-01.md"));
}

#[test]
fn bad_dates_and_unusable_formats_are_refused() {
    let fx = fixture(json!({}));
    fx.err(
        "get_periodic_note",
        json!({"period": "daily", "date": "2026-02-30"}),
        ErrorCode::InvalidInput,
    );
    fx.write(
        "main",
        ".obsidian/daily-notes.json",
        r#"{"format": "YYYY-MM-DD X"}"#,
    );
    let error = fx.err(
        "create_periodic_note",
        json!({"period": "daily"}),
        ErrorCode::InvalidInput,
    );
    assert!(error.message.contains("'X'"), "{error}");
    fx.write("main", ".obsidian/daily-notes.json", "{\"format\": ");
    fx.err(
        "get_periodic_note",
        json!({"period": "daily"}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn append_creates_from_the_template_then_appends() {
    let fx = fixture(json!({}));
    fx.write(
        "main",
        ".obsidian/daily-notes.json",
        r#"{"folder": "Journal", "template": "Templates/Day.md"}"#,
    );
    fx.write("main", "Templates/Day.md", "# {{title}}\n");
    let first = fx.ok(
        "append_to_periodic_note",
        json!({"period": "daily", "content": "- first", "idempotency_key": "k1"}),
    );
    assert_eq!(first["created"], true);
    assert_eq!(first["path"], "Journal/2026-01-01.md");
    assert_eq!(
        read(&fx, "Journal/2026-01-01.md"),
        "# 2026-01-01\n- first\n"
    );
    // A retry with the same key replays; a new key appends again.
    let replay = fx.ok(
        "append_to_periodic_note",
        json!({"period": "daily", "content": "- first", "idempotency_key": "k1"}),
    );
    assert_eq!(replay, first);
    let second = fx.ok(
        "append_to_periodic_note",
        json!({"period": "daily", "content": "- second\n", "expected_sha256": first["sha256"]}),
    );
    assert_eq!(second["created"], false);
    assert_eq!(
        read(&fx, "Journal/2026-01-01.md"),
        "# 2026-01-01\n- first\n- second\n"
    );
    fx.err(
        "append_to_periodic_note",
        json!({"period": "daily", "content": "late", "expected_sha256": first["sha256"]}),
        ErrorCode::ConcurrentModification,
    );
    assert_eq!(
        read(&fx, "Journal/2026-01-01.md"),
        "# 2026-01-01\n- first\n- second\n"
    );
}

#[test]
fn append_keeps_a_crlf_note_s_line_endings() {
    let fx = fixture(json!({}));
    fx.write("main", "2026-01-01.md", "a\r\nb\r\n");
    fx.ok(
        "append_to_periodic_note",
        json!({"period": "daily", "content": "c\nd"}),
    );
    assert_eq!(read(&fx, "2026-01-01.md"), "a\r\nb\r\nc\r\nd\r\n");
}

#[test]
fn list_reads_back_only_names_of_the_format_in_range_and_pages() {
    let fx = fixture(json!({}));
    fx.write(
        "main",
        ".obsidian/daily-notes.json",
        r#"{"folder": "Journal"}"#,
    );
    for name in [
        "2026-01-01.md",
        "2026-01-02.md",
        "2026-01-04.md",
        "2026-02-10.md",
        "2026-1-3.md",
        "2026-01-05 copy.md",
        "notes.md",
        "2026-02-30.md",
        "sub/2026-01-06.md",
    ] {
        fx.write("main", &format!("Journal/{name}"), "x\n");
    }
    fx.write("main", "2026-01-07.md", "outside the folder\n");
    let all = fx.ok("list_periodic_notes", json!({"period": "daily"}));
    assert_eq!(
        paths(&all),
        [
            "Journal/2026-01-01.md",
            "Journal/2026-01-02.md",
            "Journal/2026-01-04.md",
            "Journal/2026-02-10.md"
        ]
    );
    assert_eq!(all["items"][0]["date"], "2026-01-01");
    let january = fx.ok(
        "list_periodic_notes",
        json!({"period": "daily", "from": "2026-01-02", "to": "2026-01-31", "limit": 1}),
    );
    assert_eq!(paths(&january), ["Journal/2026-01-02.md"]);
    assert_eq!(january["total_count"], 2);
    let next = fx.ok(
        "list_periodic_notes",
        json!({"period": "daily", "from": "2026-01-02", "to": "2026-01-31", "limit": 1, "cursor": january["cursor"]}),
    );
    assert_eq!(paths(&next), ["Journal/2026-01-04.md"]);
    assert!(next.get("cursor").is_none());
    let newest = fx.ok(
        "list_periodic_notes",
        json!({"period": "daily", "newest_first": true, "limit": 2}),
    );
    assert_eq!(
        paths(&newest),
        ["Journal/2026-02-10.md", "Journal/2026-01-04.md"]
    );
    // Weekly notes: the range's first week is included from its start.
    fx.write("main", "2025-W53.md", "x");
    fx.write("main", "2026-W01.md", "x");
    fx.write("main", "2026-W02.md", "x");
    let weeks = fx.ok(
        "list_periodic_notes",
        json!({"period": "weekly", "from": "2026-01-01", "to": "2026-01-10"}),
    );
    assert_eq!(paths(&weeks), ["2026-W01.md", "2026-W02.md"]);
}

#[test]
fn the_acl_hides_periodic_notes() {
    let fx = fixture(json!({
        "acl": {"readPaths": ["Journal/2026-01-01.md", "Journal/2026-01-02.md"], "writePaths": ["Journal/**"]}
    }));
    fx.write(
        "main",
        ".obsidian/daily-notes.json",
        r#"{"folder": "Journal"}"#,
    );
    for name in ["2026-01-01", "2026-01-02", "2026-01-03"] {
        fx.write("main", &format!("Journal/{name}.md"), "secret\n");
    }
    let agent = caller("a", &["read:periodic", "write:periodic"], None);
    let page = fx.call(&agent, "list_periodic_notes", json!({"period": "daily"}));
    let page = page.result.expect("list");
    assert_eq!(
        paths(&page),
        ["Journal/2026-01-01.md", "Journal/2026-01-02.md"]
    );
    assert_eq!(page["total_count"], 2);
    fx.err_as(
        &agent,
        "get_periodic_note",
        json!({"period": "daily", "date": "2026-01-03"}),
        ErrorCode::AclDenied,
    );
    fx.err_as(
        &agent,
        "append_to_periodic_note",
        json!({"period": "daily", "date": "2026-01-03", "content": "x"}),
        ErrorCode::AclDenied,
    );
    assert_eq!(read(&fx, "Journal/2026-01-03.md"), "secret\n");
    let reader = caller("r", &["read:periodic"], None);
    fx.err_as(
        &reader,
        "create_periodic_note",
        json!({"period": "daily", "date": "2026-01-09"}),
        ErrorCode::Forbidden,
    );
}
