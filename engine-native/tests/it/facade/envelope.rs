//! The envelopes themselves: `call_capability {name, arguments}` and `<domain> {action,
//! args}` refuse anything else, are audited under their own name when refused, and are
//! unwrapped once only.

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
