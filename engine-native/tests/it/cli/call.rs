//! `obsidian-tc call`, `elicit` and path errors, through the built binary.

use serde_json::json;

use crate::support::mcp::{arg, run, run_call, stdout_json, vault};

#[test]
fn call_prints_the_structured_result_and_exits_zero() {
    let vault = vault();
    let out = run_call(vault.path(), "read_note", r#"{"path": "hello.md"}"#);
    assert_eq!(out.status.code(), Some(0));
    let result = stdout_json(&out);
    assert_eq!(result["content"], json!("# Hello\n"));
    assert_eq!(result["path"], json!("hello.md"));
}

#[test]
fn a_tool_error_prints_the_structured_error_and_exits_one() {
    let vault = vault();
    let out = run_call(vault.path(), "read_note", r#"{"path": "missing.md"}"#);
    assert_eq!(out.status.code(), Some(1));
    let error = stdout_json(&out);
    assert_eq!(error["code"], json!("not_found"));
    assert!(error["recovery"].is_string());

    let unknown = run(&["call", "no_such_tool", &arg(vault.path())]);
    assert_eq!(unknown.status.code(), Some(1));
    assert_eq!(stdout_json(&unknown)["code"], json!("not_found"));
}

#[test]
fn call_gates_destructive_tools_for_the_cli_caller_too() {
    let vault = vault();
    let args = r#"{"path": "gone.md"}"#;
    let out = run_call(vault.path(), "delete_note", args);
    assert_eq!(out.status.code(), Some(1));
    let error = stdout_json(&out);
    assert_eq!(error["code"], json!("elicit_required"));
    let hash = error["details"]["args_hash"].as_str().expect("args_hash");

    let approved = run(&[
        "elicit",
        "approve",
        hash,
        "--caller",
        "cli",
        &arg(vault.path()),
    ]);
    assert_eq!(approved.status.code(), Some(0));
    let done = run_call(vault.path(), "delete_note", args);
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&done.stdout)
    );
    assert!(!vault.path().join("gone.md").exists());
}

#[test]
fn bad_usage_exits_two_and_says_what_to_do() {
    let vault = vault();
    let not_json = run_call(vault.path(), "read_note", "{oops");
    assert_eq!(not_json.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&not_json.stderr).contains("--args"));

    let not_object = run_call(vault.path(), "read_note", "[1]");
    assert_eq!(not_object.status.code(), Some(2));

    let missing = vault.path().join("nowhere");
    let out = run(&["call", "read_note", &arg(&missing)]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("does not exist") && said.contains("vault folder"),
        "{said}"
    );

    let text_file = vault.path().join("hello.md");
    let out = run(&["call", "read_note", &arg(&text_file)]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("neither a folder nor a JSON config file"),
        "{said}"
    );
}

#[test]
fn approve_without_a_pending_request_fails_clearly() {
    let vault = vault();
    let out = run(&["elicit", "approve", &"0".repeat(64), &arg(vault.path())]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no pending elicit request"));
}

#[test]
fn version_and_config_still_work() {
    let out = run(&["version"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains(env!("CARGO_PKG_VERSION")));
    let vault = vault();
    let out = run(&["config", "validate", &arg(vault.path())]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn doctor_reports_ok_lines_and_a_taken_http_port() {
    let vault = vault();
    let out = run(&["doctor", &arg(vault.path())]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("OK   vault main is readable"), "{said}");
    assert!(said.contains("OK   cache folder is writable"), "{said}");
    assert!(said.contains("OK   SQLite 3."), "{said}");
    assert!(said.contains("FTS5 yes, JSON1 yes, RTREE yes"), "{said}");
    assert!(!said.contains("FAIL"), "{said}");

    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("addr").port().to_string();
    let out = run(&["doctor", "--http", "--http-port", &port, &arg(vault.path())]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("FAIL HTTP address") && said.contains("hint:"),
        "{said}"
    );
}
