//! `query_audit_log` and `obsidian-tc audit`: the same rows for the same filter, paged alike;
//! a vault-bound caller sees only its vault; rows in folders hidden from the caller are not
//! shown; filters and bad input; never the text of a call.

use std::process::{Command, Output};

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::cache_home::{cache_env, cache_of, test_cache_root};
use crate::support::dispatch::{Fixture, caller};
use crate::support::mcp::{BIN, stdout_json};

/// A fixture whose `Secret/` folder needs `read:secret`, with calls of three callers in two
/// vaults an hour apart: reads, a miss, an append, a write in `Secret/`, a refusal.
fn audited() -> Fixture {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"rules": [{"glob": "Secret/**", "scopes": ["read:secret"]}]}
    }));
    fx.write("main", "Projects/plan.md", "# Plan\n");
    fx.write("main", "notes.md", "# Notes\n");
    fx.write("other", "elsewhere.md", "# Elsewhere\n");
    let stdio = Caller::stdio();
    let agent = caller("agent", &["read:notes", "write:notes"], Some("main"));
    fx.call(&stdio, "read_note", json!({"path": "notes.md"}));
    fx.call(&agent, "read_note", json!({"path": "missing.md"}));
    fx.clock.advance(3_600_000);
    fx.call(
        &agent,
        "append_note",
        json!({"path": "Projects/plan.md", "content": "APPENDED-TEXT-7f3"}),
    );
    fx.call(
        &stdio,
        "write_note",
        json!({"path": "Secret/keys.md", "content": "SECRET-TEXT-91c"}),
    );
    fx.call(&agent, "read_note", json!({"path": "Secret/keys.md"}));
    fx.clock.advance(3_600_000);
    fx.call(
        &stdio,
        "read_note",
        json!({"vault": "other", "path": "elsewhere.md"}),
    );
    fx
}

/// `obsidian-tc audit` on the fixture's config with `flags`.
fn cli(fx: &Fixture, flags: &[&str]) -> Output {
    Command::new(BIN)
        .arg("audit")
        .arg("--config")
        .arg(fx.dir.path().join("config.json"))
        .args(flags)
        .env_remove("OBSIDIAN_TC_CONFIG")
        .output()
        .expect("run obsidian-tc audit")
}

/// `obsidian-tc audit --json` on the fixture's config with `flags`.
fn cli_page(fx: &Fixture, flags: &[&str]) -> Value {
    let out = cli(fx, &[&["--json"], flags].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout_json(&out)
}

/// `query_audit_log` as an unbound admin that may read everything.
fn tool_page(fx: &Fixture, args: Value) -> Value {
    let admin = caller("admin", &["admin:audit", "read:secret"], None);
    fx.call(&admin, "query_audit_log", args)
        .result
        .expect("query_audit_log")
}

fn tools_of(page: &Value) -> Vec<&str> {
    page["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| row["tool"].as_str().expect("tool"))
        .collect()
}

#[test]
fn the_tool_and_the_cli_answer_the_same_rows_for_each_filter() {
    let fx = audited();
    let cases: Vec<(Value, Vec<String>)> = vec![
        (json!({}), vec![]),
        (
            json!({"tool": "read_note"}),
            vec!["--tool".into(), "read_note".into()],
        ),
        (
            json!({"outcome": "not_found"}),
            vec!["--outcome".into(), "not_found".into()],
        ),
        (
            json!({"outcome": "error"}),
            vec!["--outcome".into(), "error".into()],
        ),
        (
            json!({"caller": "agent"}),
            vec!["--caller".into(), "agent".into()],
        ),
        (
            json!({"path_prefix": "Projects/"}),
            vec!["--path".into(), "Projects/".into()],
        ),
        (
            json!({"since": "2026-01-01T01:00:00Z", "until": "2026-01-01T01:00:00Z"}),
            vec![
                "--since".into(),
                "2026-01-01T01:00:00Z".into(),
                "--until".into(),
                "2026-01-01T02:00:00+01:00".into(),
            ],
        ),
    ];
    for (args, flags) in cases {
        let mut flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        flags.extend(["--vault", "main"]);
        // The CLI writes no audit row; the tool's own row comes after its answer.
        let cli = cli_page(&fx, &flags);
        let tool = tool_page(&fx, args.clone());
        assert_eq!(cli, tool, "{args}");
        assert!(!tool["rows"].as_array().unwrap().is_empty(), "{args}");
    }
    let timed = tool_page(
        &fx,
        json!({"since": "2026-01-01T01:00:00Z", "until": "2026-01-01T01:00:00Z"}),
    );
    assert_eq!(tools_of(&timed), ["read_note", "write_note", "append_note"]);
    for row in timed["rows"].as_array().unwrap() {
        assert_eq!(row["time"], "2026-01-01T01:00:00Z");
    }
    let missed = tool_page(&fx, json!({"outcome": "not_found"}));
    assert_eq!(missed["rows"][0]["paths"], json!(["missing.md"]));
    assert_eq!(missed["rows"][0]["caller"], "agent");
    assert_eq!(missed["rows"][0]["code"], "not_found");
    let planned = tool_page(&fx, json!({"path_prefix": "Projects/"}));
    assert_eq!(tools_of(&planned), ["append_note"]);
}

#[test]
fn a_path_prefix_in_nfd_finds_the_calls_on_the_nfc_path() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write("main", "Caf\u{e9}/menu.md", "# Menu\n");
    fx.call(
        &Caller::stdio(),
        "read_note",
        json!({"path": "Cafe\u{301}/menu.md"}),
    );
    let page = tool_page(&fx, json!({"path_prefix": "Cafe\u{301}/"}));
    assert_eq!(tools_of(&page), ["read_note"], "{page}");
    assert_eq!(page["rows"][0]["paths"], json!(["Caf\u{e9}/menu.md"]));
    let cli = cli_page(&fx, &["--vault", "main", "--path", "Caf\u{e9}/"]);
    assert_eq!(cli["rows"], page["rows"]);
}

#[test]
fn pages_follow_the_cursor_to_the_end_alike() {
    let fx = audited();
    let (mut cli_cursor, mut tool_cursor) = (None::<String>, None::<String>);
    let mut seen = Vec::new();
    loop {
        let mut flags = vec!["--vault", "main", "--tool", "read_note", "--limit", "1"];
        if let Some(cursor) = cli_cursor.as_deref() {
            flags.extend(["--cursor", cursor]);
        }
        let cli = cli_page(&fx, &flags);
        let mut args = json!({"tool": "read_note", "limit": 1});
        if let Some(cursor) = &tool_cursor {
            args["cursor"] = json!(cursor);
        }
        let tool = tool_page(&fx, args);
        assert_eq!(cli, tool);
        seen.push(tool["rows"][0]["id"].as_i64().expect("id"));
        cli_cursor = cli["cursor"].as_str().map(str::to_owned);
        tool_cursor = tool["cursor"].as_str().map(str::to_owned);
        if tool_cursor.is_none() {
            break;
        }
    }
    assert_eq!(seen.len(), 3, "three read_note calls in main: {seen:?}");
    assert!(
        seen.windows(2).all(|pair| pair[0] > pair[1]),
        "newest first: {seen:?}"
    );
}

#[test]
fn a_vault_bound_caller_sees_only_its_vaults_rows() {
    let fx = audited();
    let bound = caller("tenant", &["admin:audit"], Some("other"));
    let page = fx
        .call(&bound, "query_audit_log", json!({}))
        .result
        .expect("query_audit_log");
    let rows = page["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 1, "{page}");
    assert_eq!(rows[0]["vault"], "other");
    assert_eq!(rows[0]["paths"], json!(["elsewhere.md"]));
    let error = fx.err_as(
        &bound,
        "query_audit_log",
        json!({"vault": "main"}),
        ErrorCode::Forbidden,
    );
    assert_eq!(error.details["bound_vault"], "other", "{error}");
    // An unbound caller asking for main never gets other's row.
    let main = tool_page(&fx, json!({"limit": 500}));
    assert!(
        main["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|row| row["vault"] == "main")
    );
    // The operator's CLI sees both vaults without --vault (and the refused call above, which
    // failed before it was bound to a vault).
    let all = cli_page(&fx, &["--limit", "500"]);
    let vaults: std::collections::BTreeSet<&str> = all["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["vault"].as_str().unwrap())
        .collect();
    assert_eq!(vaults, ["", "main", "other"].into());
}

#[test]
fn rows_of_a_folder_hidden_from_the_caller_are_not_shown() {
    let fx = audited();
    let without = caller("auditor", &["admin:audit"], None);
    let page = fx
        .call(&without, "query_audit_log", json!({"limit": 500}))
        .result
        .expect("query_audit_log");
    let text = page.to_string();
    assert!(!text.contains("Secret/"), "{page}");
    assert!(text.contains("Projects/plan.md"), "{page}");
    let with = tool_page(&fx, json!({"path_prefix": "Secret/"}));
    assert_eq!(tools_of(&with), ["read_note", "write_note"], "{with}");
    // A hidden row is skipped, never counted: a page of one still finds a visible row.
    let first = fx
        .call(
            &without,
            "query_audit_log",
            json!({"limit": 1, "until": "2026-01-01T01:00:00Z"}),
        )
        .result
        .expect("query_audit_log");
    assert_eq!(tools_of(&first), ["append_note"], "{first}");
}

#[test]
fn a_row_never_holds_what_a_call_wrote() {
    let fx = audited();
    let page = cli_page(&fx, &["--limit", "500"]);
    let text = page.to_string();
    for secret in ["APPENDED-TEXT-7f3", "SECRET-TEXT-91c"] {
        assert!(!text.contains(secret), "{secret} in {page}");
    }
    let written = page["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["tool"] == "write_note")
        .expect("write_note row");
    assert_eq!(written["paths"], json!(["Secret/keys.md"]));
    assert_eq!(written["args_hash"].as_str().map(str::len), Some(32));
}

#[test]
fn bad_filters_are_typed_errors_that_name_the_field() {
    let fx = audited();
    let admin = caller("admin", &["admin:audit"], None);
    let error = fx.err_as(
        &admin,
        "query_audit_log",
        json!({"since": "yesterday"}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(error.details["field"], "since");
    assert!(error.message.contains("RFC 3339"), "{error}");
    let error = fx.err_as(
        &admin,
        "query_audit_log",
        json!({"cursor": "abc"}),
        ErrorCode::InvalidInput,
    );
    assert!(error.message.contains("start without it"), "{error}");
    fx.err_as(
        &admin,
        "query_audit_log",
        json!({"limit": 501}),
        ErrorCode::ValidationError,
    );
    let out = cli(&fx, &["--since", "yesterday"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--since"));
    let no_scope = caller("reader", &["read:notes"], None);
    fx.err_as(
        &no_scope,
        "query_audit_log",
        json!({}),
        ErrorCode::Forbidden,
    );
}

#[test]
fn the_table_shows_one_line_per_row_and_the_next_cursor() {
    let fx = audited();
    let out = cli(&fx, &["--vault", "main", "--limit", "2"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("TIME"), "{text}");
    assert!(
        lines[1].contains("read_note") && lines[1].contains("acl_denied"),
        "{text}"
    );
    assert!(
        lines[2].contains("write_note") && lines[2].contains("Secret/keys.md"),
        "{text}"
    );
    assert!(lines[3].starts_with("more: --cursor "), "{text}");
}

#[test]
fn a_vault_never_served_has_no_audit_log_and_gets_no_cache() {
    let vault = tempfile::tempdir().expect("vault");
    std::fs::write(vault.path().join("a.md"), "# A\n").expect("note");
    let out = Command::new(BIN)
        .arg("audit")
        .arg(vault.path())
        .env_remove("OBSIDIAN_TC_CONFIG")
        .envs(cache_env(&test_cache_root()))
        .output()
        .expect("run obsidian-tc audit");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no cache database"), "{stderr}");
    assert!(
        !vault.path().join(".obsidian-tc").exists(),
        "reading the audit log wrote into the vault"
    );
    assert!(
        !cache_of(vault.path()).exists(),
        "reading the audit log created a cache folder"
    );
}
