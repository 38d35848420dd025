//! Gate 8: the folder ACL on declared path arguments, through real tools and real files.

use engine_core::acl::AclOp;
use obsidian_tc::errors::{ErrorCode, ToolError};
use obsidian_tc::runtime::{PathArg, ToolContext, ToolDef};
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller, path_tool};

fn touch(_ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    Ok(json!({ "touched": args["path"] }))
}

/// A write tool that changes nothing, to test `writePaths` without a write tool yet.
fn touch_tool() -> ToolDef {
    path_tool(
        ("test_touch", "Touch", "Test tool declaring a write path."),
        touch,
    )
    .paths(&[PathArg {
        name: "path",
        op: AclOp::Write,
    }])
}

fn fixture() -> Fixture {
    Fixture::with_tools(
        json!({
            "throttle": {"enabled": false},
            "acl": {"readPaths": ["Public/**"], "writePaths": ["Inbox/**"], "deletePaths": ["Inbox/**"]}
        }),
        vec![touch_tool()],
    )
}

#[test]
fn reads_outside_read_paths_are_denied_with_the_path_and_op() {
    let fx = fixture();
    fx.write("main", "Public/a.md", "open");
    fx.write("main", "Private/b.md", "secret");
    assert_eq!(
        fx.ok("read_note", json!({"path": "Public/a.md"}))["content"],
        "open"
    );
    let error = fx.err(
        "read_note",
        json!({"path": "Private/b.md"}),
        ErrorCode::AclDenied,
    );
    assert_eq!(error.details["path"], "Private/b.md");
    assert_eq!(error.details["op"], "read");
    assert_eq!(error.details["denied_by"], "not_in_read_paths");
    assert!(!error.message.contains("secret"));
    fx.err(
        "note_exists",
        json!({"path": "Private/b.md"}),
        ErrorCode::AclDenied,
    );
}

#[test]
fn writes_outside_write_paths_are_denied() {
    let fx = fixture();
    fx.ok("test_touch", json!({"path": "Inbox/new.md"}));
    let error = fx.err(
        "test_touch",
        json!({"path": "Public/x.md"}),
        ErrorCode::AclDenied,
    );
    assert_eq!(error.details["denied_by"], "not_in_write_paths");
}

#[test]
fn deletes_outside_delete_paths_are_denied_after_approval() {
    let fx = fixture();
    fx.write("main", "Public/a.md", "keep");
    let args = json!({"path": "Public/a.md"});
    let gated = fx.err("delete_note", args.clone(), ErrorCode::ElicitRequired);
    let hash = gated.details["args_hash"].as_str().unwrap().to_owned();
    fx.server
        .runtime()
        .store()
        .elicit()
        .approve(&hash, None, None, 300, fx.now_s())
        .unwrap();
    let error = fx.err("delete_note", args, ErrorCode::AclDenied);
    assert_eq!(error.details["denied_by"], "not_in_delete_paths");
    assert!(fx.exists("main", "Public/a.md"));
}

#[test]
fn control_folders_any_case_and_escapes_are_refused() {
    let fx = Fixture::new(json!({}));
    fx.write("main", ".obsidian/app.json", "{}");
    for path in [".OBSIDIAN/app.json", ".obsidian/app.json", ".Git/config"] {
        let error = fx.err("read_note", json!({"path": path}), ErrorCode::AclDenied);
        assert_eq!(error.details["denied_by"], "hard_deny", "{path}");
    }
    let error = fx.err("read_note", json!({"path": "../x"}), ErrorCode::PathInvalid);
    assert_eq!(error.details["path"], "../x");
    fx.err(
        "read_note",
        json!({"path": "/etc/passwd"}),
        ErrorCode::PathInvalid,
    );
}

#[test]
fn inspect_acl_reports_the_live_decision_for_the_caller() {
    let fx = fixture();
    let report = fx.ok("inspect_acl", json!({"path": "Private/b.md", "op": "read"}));
    assert_eq!(report["vault"], "main");
    assert_eq!(report["decision"]["allowed"], false);
    assert_eq!(report["decision"]["denied_by"], "not_in_read_paths");
    let report = fx.ok("inspect_acl", json!({"path": "Inbox/x.md", "op": "write"}));
    assert_eq!(report["decision"]["allowed"], true);
    assert_eq!(report["decision"]["path_list_entry"], "Inbox/**");
    let reader = caller("carol", &["read:notes"], None);
    fx.err_as(
        &reader,
        "inspect_acl",
        json!({"path": "a.md", "op": "read"}),
        ErrorCode::Forbidden,
    );
}
