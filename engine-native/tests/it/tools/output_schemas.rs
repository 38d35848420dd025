//! The results of the note, frontmatter and URI tools validate against the output schemas
//! they declare, with the same validator that checks arguments; and every such tool declares
//! one.

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::schema::validate::schema_problems;
use obsidian_tc::tools::all_tools;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, assert_known_keywords};

const NOTE: &str = "---\ntitle: Alpha\ntags: [a, b]\n---\n# Alpha\nbody ^intro\n";

fn fixture() -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write("main", "alpha.md", NOTE);
    fx.write("main", "broken.md", "---\ntitle: [unclosed\n---\n");
    fx
}

/// Calls `tool` as the stdio caller, expects success, and asserts the result satisfies the
/// tool's declared output schema (which must use only keywords the validator applies).
fn call_checked(fx: &Fixture, tool: &str, args: Value) -> Value {
    let result = fx.ok(tool, args);
    assert_fits_output_schema(fx, tool, &result);
    result
}

fn assert_fits_output_schema(fx: &Fixture, tool: &str, result: &Value) {
    let schema = fx
        .server
        .runtime()
        .registry()
        .get(tool)
        .and_then(|tool| tool.def.output_schema.clone())
        .unwrap_or_else(|| panic!("{tool} declares no output schema"));
    assert_known_keywords(&schema);
    let problems = schema_problems(result, &schema);
    assert!(
        problems.is_empty(),
        "{tool}: {result} breaks its output schema: {problems:?}"
    );
}

#[test]
fn note_exists_fits_its_schema_for_a_file_a_folder_and_nothing() {
    let fx = fixture();
    fx.write("main", "Folder/inner.md", "x");
    for (path, kind) in [
        ("alpha.md", json!("file")),
        ("Folder", json!("folder")),
        ("nope.md", Value::Null),
    ] {
        let out = call_checked(&fx, "note_exists", json!({"path": path}));
        assert_eq!(out["kind"], kind, "{path}");
    }
}

#[test]
fn read_notes_fits_its_schema_with_read_and_failed_items() {
    let fx = fixture();
    let out = call_checked(
        &fx,
        "read_notes",
        json!({"paths": ["alpha.md", "missing.md", "../escape.md"]}),
    );
    assert_eq!(out["total_count"], 3);
    assert_eq!(out["failed_count"], 2);
    assert_eq!(out["items"][0]["ok"], true);
    assert_eq!(out["items"][0]["content"], NOTE);
    assert_eq!(out["items"][1]["ok"], false);
    assert_eq!(out["items"][1]["error"]["code"], "not_found");
    assert_eq!(out["items"][2]["error"]["code"], "path_invalid");
}

#[test]
fn a_result_that_breaks_the_schema_is_caught() {
    let fx = fixture();
    let schema = fx
        .server
        .runtime()
        .registry()
        .get("read_notes")
        .and_then(|tool| tool.def.output_schema.clone())
        .expect("schema");
    let lying = json!({
        "items": [{"path": "a.md", "ok": true, "error": {"code": "not_found"}}],
        "total_count": 1,
        "failed_count": 0
    });
    assert!(!schema_problems(&lying, &schema).is_empty());
}

#[test]
fn delete_note_fits_its_schema_after_approval() {
    let fx = fixture();
    let args = json!({"path": "alpha.md"});
    let gated = fx.err("delete_note", args.clone(), ErrorCode::ElicitRequired);
    let hash = gated.details["args_hash"].as_str().expect("args hash");
    let now = fx.now_s();
    fx.server
        .runtime()
        .store()
        .elicit()
        .approve(hash, Some("main"), Some(&Caller::stdio().id), 300, now)
        .expect("approve");
    let out = call_checked(&fx, "delete_note", args);
    assert_eq!(out["deleted"], true);
    assert!(
        out["trashed_to"]
            .as_str()
            .expect("trash path")
            .starts_with(".trash/")
    );
}

#[test]
fn read_frontmatter_and_read_property_fit_their_schemas() {
    let fx = fixture();
    let fm = call_checked(&fx, "read_frontmatter", json!({"path": "alpha.md"}));
    assert_eq!(fm["properties"][1]["type"], "list");
    let present = call_checked(
        &fx,
        "read_property",
        json!({"path": "alpha.md", "key": "title"}),
    );
    assert_eq!(present["type"], "text");
    let absent = call_checked(
        &fx,
        "read_property",
        json!({"path": "alpha.md", "key": "status"}),
    );
    assert_eq!(absent["exists"], false);
    assert_eq!(absent["type"], Value::Null);
}

#[test]
fn update_frontmatter_fits_its_schema_as_preview_no_op_write_and_creation() {
    let fx = fixture();
    let set = json!({"path": "alpha.md", "mode": "set", "key": "status", "value": "done"});
    let mut preview = set.clone();
    preview["dry_run"] = json!(true);
    let previewed = call_checked(&fx, "update_frontmatter", preview);
    assert_eq!(previewed["dry_run"], true);
    assert!(previewed["diff"].as_str().expect("diff").contains("status"));
    let written = call_checked(&fx, "update_frontmatter", set.clone());
    assert_eq!(written["changed"], true);
    assert!(written["previous_sha256"].is_string());
    let again = call_checked(&fx, "update_frontmatter", set);
    assert_eq!(again["changed"], false);
    let created = call_checked(
        &fx,
        "update_frontmatter",
        json!({"path": "new.md", "mode": "set", "key": "a", "value": 1, "create": true}),
    );
    assert_eq!(created["created"], true);
    assert_eq!(created["mode_used"], "set");
}

#[test]
fn list_properties_and_find_notes_by_property_fit_their_schemas_with_invalid_notes() {
    let fx = fixture();
    let listed = call_checked(&fx, "list_properties", json!({"limit": 1}));
    assert_eq!(listed["invalid_count"], 1);
    assert_eq!(listed["invalid"][0]["code"], "invalid_yaml");
    assert!(listed["invalid"][0]["line"].is_u64());
    assert!(listed["cursor"].is_string());
    let found = call_checked(
        &fx,
        "find_notes_by_property",
        json!({"key": "tags", "op": "contains", "value": "a"}),
    );
    assert_eq!(
        found["items"],
        json!([{"path": "alpha.md", "value": ["a", "b"]}])
    );
}

#[test]
fn generate_uri_fits_its_schema() {
    let fx = fixture();
    let out = call_checked(
        &fx,
        "generate_uri",
        json!({"action": "command", "command_id": "app:reload"}),
    );
    assert_eq!(out["requires_plugin"], "obsidian-advanced-uri");
}

#[test]
fn every_note_frontmatter_and_uri_tool_declares_an_output_schema() {
    let mine: Vec<_> = all_tools()
        .into_iter()
        .filter(|tool| ["notes", "frontmatter", "workspace"].contains(&tool.domain))
        .collect();
    for name in [
        "note_exists",
        "read_notes",
        "delete_note",
        "read_frontmatter",
        "read_property",
        "update_frontmatter",
        "list_properties",
        "find_notes_by_property",
        "generate_uri",
    ] {
        assert!(mine.iter().any(|tool| tool.name == name), "{name} missing");
    }
    for tool in &mine {
        let schema = tool
            .output_schema
            .as_ref()
            .unwrap_or_else(|| panic!("{} has no output schema", tool.name));
        assert_eq!(schema["type"], "object", "{}", tool.name);
    }
}
