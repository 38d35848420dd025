//! The envelopes themselves: `call_capability {name, arguments}`, `call_read_capability`
//! (the same, read-only tools only) and `<domain> {action, args}` refuse anything else, are
//! audited under their own name when refused, and are unwrapped once only.

use obsidian_tc::errors::ErrorCode;
use serde_json::json;

use crate::support::dispatch::Fixture;

#[test]
fn unknown_envelope_keys_are_refused_and_nothing_runs() {
    let fx = Fixture::new(json!({}));
    fx.write("main", "a.md", "keep\n");
    for (name, args) in [
        (
            "call_capability",
            json!({"name": "delete_note", "args": {"path": "a.md"}}),
        ),
        (
            "call_capability",
            json!({"name": "read_note", "arguments": {"path": "a.md"}, "elicit_token": "x"}),
        ),
        ("call_capability", json!({"arguments": {"path": "a.md"}})),
        ("call_capability", json!({"name": 7})),
        (
            "call_capability",
            json!({"name": "read_note", "arguments": "a.md"}),
        ),
        ("call_capability", json!(["read_note"])),
        (
            "notes",
            json!({"action": "read_note", "arguments": {"path": "a.md"}}),
        ),
        ("notes", json!({"args": {"path": "a.md"}})),
    ] {
        let error = fx.err(name, args.clone(), ErrorCode::ValidationError);
        assert!(error.details["issues"].is_array(), "{name} {args}: {error}");
    }
    assert!(fx.exists("main", "a.md"));
    let rows = fx.events();
    assert_eq!(rows.len(), 8);
    assert!(
        rows.iter()
            .all(|row| row.event.tool == "call_capability" || row.event.tool == "notes")
    );
}

/// `call_read_capability` refuses every tool that is not read-only, before any gate and
/// with nothing changed, and runs a read-only one like a call by name.
#[test]
fn the_read_only_envelope_refuses_a_write_tool_and_changes_nothing() {
    let fx = Fixture::new(json!({}));
    fx.write("main", "a.md", "keep\n");
    for (tool, args) in [
        ("delete_note", json!({"path": "a.md"})),
        ("write_note", json!({"path": "b.md", "content": "new"})),
        ("append_note", json!({"path": "a.md", "content": "more"})),
        ("move_note", json!({"from_path": "a.md", "to_path": "c.md"})),
        // Changes no note, but drops cache rows: destructive, so not through this envelope.
        ("reset_vault_cache", json!({})),
    ] {
        let error = fx.err(
            "call_read_capability",
            json!({"name": tool, "arguments": args}),
            ErrorCode::ValidationError,
        );
        assert!(error.message.contains("not read-only"), "{error}");
        assert_eq!(error.details["name"], tool);
        assert_eq!(error.details["call_with"], "call_capability");
        assert!(error.recovery.contains("call_capability"), "{error}");
    }
    assert_eq!(
        std::fs::read_to_string(fx.vault_dir("main").join("a.md")).expect("a.md"),
        "keep\n"
    );
    assert!(!fx.exists("main", "b.md") && !fx.exists("main", "c.md"));
    let rows = fx.events();
    assert_eq!(rows.len(), 5);
    assert!(
        rows.iter()
            .all(|row| row.event.tool == "call_read_capability")
    );
    // A read-only tool runs, audited under its own name; an unknown one is not_found.
    let read = fx.ok(
        "call_read_capability",
        json!({"name": "read_note", "arguments": {"path": "a.md"}}),
    );
    assert_eq!(read["content"], "keep\n");
    assert_eq!(
        fx.events().last().map(|row| row.event.tool.clone()),
        Some("read_note".to_owned())
    );
    fx.err(
        "call_read_capability",
        json!({"name": "no_such_tool"}),
        ErrorCode::NotFound,
    );
    // Its envelope is checked like call_capability's.
    fx.err(
        "call_read_capability",
        json!({"name": "read_note", "args": {}}),
        ErrorCode::ValidationError,
    );
}

/// find_capability and describe_capability say which envelope calls a tool.
#[test]
fn results_name_the_envelope_to_call_with() {
    let fx = Fixture::new(json!({}));
    let found = fx.ok(
        "find_capability",
        json!({"query": "read or delete a note", "limit": 50}),
    );
    let call_with = |name: &str| {
        found["results"]
            .as_array()
            .expect("results")
            .iter()
            .find(|item| item["name"] == name)
            .map(|item| item["call_with"].clone())
            .unwrap_or_else(|| panic!("{name} in {found}"))
    };
    assert_eq!(call_with("read_note"), "call_read_capability");
    assert_eq!(call_with("delete_note"), "call_capability");
    let read = fx.ok("describe_capability", json!({"name": "read_note"}));
    assert_eq!(read["call_with"], "call_read_capability");
    assert!(
        read["help"]
            .as_str()
            .unwrap()
            .contains("call_read_capability")
    );
    let delete = fx.ok("describe_capability", json!({"name": "delete_note"}));
    assert_eq!(delete["call_with"], "call_capability");
}

#[test]
fn a_domain_runs_only_its_own_actions() {
    let fx = Fixture::new(json!({}));
    let error = fx.err(
        "notes",
        json!({"action": "server_health"}),
        ErrorCode::ValidationError,
    );
    assert_eq!(error.details["belongs_to"], "admin");
    assert!(fx.ok("admin", json!({"action": "server_health"}))["version"].is_string());
    // The facade's own tools are not a domain's actions, nor a domain.
    fx.err(
        "admin",
        json!({"action": "find_capability", "args": {"query": "x"}}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "facade",
        json!({"action": "find_capability"}),
        ErrorCode::NotFound,
    );
}

#[test]
fn envelopes_unwrap_once_and_missing_arguments_are_empty() {
    let fx = Fixture::new(json!({}));
    fx.err(
        "call_capability",
        json!({"name": "call_capability", "arguments": {"name": "server_health"}}),
        ErrorCode::NotFound,
    );
    fx.err(
        "call_capability",
        json!({"name": "notes", "arguments": {"action": "read_note"}}),
        ErrorCode::NotFound,
    );
    fx.err("call_capability", json!(null), ErrorCode::ValidationError);
    assert!(fx.ok("call_capability", json!({"name": "server_health"}))["version"].is_string());
    assert_eq!(
        fx.events().last().map(|row| row.event.tool.clone()),
        Some("server_health".to_owned())
    );
}

#[test]
fn describe_capability_gives_schemas_annotations_and_help() {
    let fx = Fixture::new(json!({"toolVisibility": {"hide": ["list_vaults"]}}));
    let described = fx.ok("describe_capability", json!({"name": "delete_note"}));
    assert_eq!(described["domain"], "notes");
    assert_eq!(described["scopes"], json!(["delete:notes"]));
    assert_eq!(described["annotations"]["destructiveHint"], true);
    assert!(described["input_schema"]["properties"]["path"].is_object());
    assert!(described["output_schema"].is_object());
    let help = described["help"].as_str().unwrap();
    assert!(
        help.contains("elicit approve") && help.contains("call_capability"),
        "{help}"
    );
    fx.err(
        "describe_capability",
        json!({"name": "list_vaults"}),
        ErrorCode::NotFound,
    );
    fx.err(
        "describe_capability",
        json!({"name": "nope"}),
        ErrorCode::NotFound,
    );
}
