//! `list_properties` and `find_notes_by_property` through the dispatcher on a real temp
//! vault: counts and types, pagination, folder scoping, ACL filtering, invalid notes.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

fn vault(fx: &Fixture) {
    fx.write("main", "a.md", "---\nstatus: open\ntags: [x, y]\n---\n");
    fx.write(
        "main",
        "b.md",
        "---\nstatus: done\ntags: x\npriority: 2\n---\n",
    );
    fx.write("main", "Sub/c.md", "---\nstatus: 2024-01-05\n---\n");
    fx.write("main", "plain.md", "no properties\n");
    fx.write("main", "broken.md", "---\nstatus: [open\n---\n");
    fx.write("main", "data.txt", "---\nignored: true\n---\n");
}

fn fixture() -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    vault(&fx);
    fx
}

fn names(out: &Value) -> Vec<String> {
    out["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["name"].as_str().expect("name").to_owned())
        .collect()
}

fn paths(out: &Value) -> Vec<String> {
    out["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["path"].as_str().expect("path").to_owned())
        .collect()
}

#[test]
fn list_properties_counts_notes_and_types_and_reports_invalid_notes() {
    let fx = fixture();
    let out = fx.ok("list_properties", json!({}));
    assert_eq!(
        out["items"],
        json!([
            {"name": "priority", "note_count": 1, "types": ["number"]},
            {"name": "status", "note_count": 3, "types": ["text", "date"]},
            {"name": "tags", "note_count": 2, "types": ["text", "list"]},
        ])
    );
    assert_eq!(out["total_count"], 3);
    assert_eq!(out["notes_scanned"], 5);
    assert_eq!(out["invalid_count"], 1);
    assert_eq!(out["invalid"][0]["path"], "broken.md");
    assert_eq!(out["invalid"][0]["code"], "invalid_yaml");
    assert!(out["invalid"][0]["line"].is_u64());
    assert!(out.get("cursor").is_none());

    let sub = fx.ok("list_properties", json!({"folder": "Sub"}));
    assert_eq!(names(&sub), ["status"]);
    assert_eq!(sub["items"][0]["types"], json!(["date"]));
}

#[test]
fn list_properties_pages_with_limit_and_cursor() {
    let fx = fixture();
    let first = fx.ok("list_properties", json!({"limit": 2}));
    assert_eq!(names(&first), ["priority", "status"]);
    assert_eq!(first["total_count"], 3);
    let cursor = first["cursor"].as_str().expect("cursor");
    let second = fx.ok("list_properties", json!({"limit": 2, "cursor": cursor}));
    assert_eq!(names(&second), ["tags"]);
    assert!(second.get("cursor").is_none());
    fx.err(
        "list_properties",
        json!({"limit": 1001}),
        ErrorCode::ValidationError,
    );
}

#[test]
fn find_notes_by_property_exists_equals_contains() {
    let fx = fixture();
    let exists = fx.ok(
        "find_notes_by_property",
        json!({"key": "status", "op": "exists"}),
    );
    assert_eq!(paths(&exists), ["Sub/c.md", "a.md", "b.md"]);
    assert_eq!(exists["total_count"], 3);
    assert_eq!(exists["invalid_count"], 1);
    assert_eq!(exists["items"][0]["value"], "2024-01-05");

    let equals = fx.ok(
        "find_notes_by_property",
        json!({"key": "status", "op": "equals", "value": "done"}),
    );
    assert_eq!(equals["items"], json!([{"path": "b.md", "value": "done"}]));

    let contains = fx.ok(
        "find_notes_by_property",
        json!({"key": "tags", "op": "contains", "value": "x"}),
    );
    assert_eq!(
        contains["items"],
        json!([{"path": "a.md", "value": ["x", "y"]}, {"path": "b.md", "value": "x"}])
    );

    let in_folder = fx.ok(
        "find_notes_by_property",
        json!({"key": "status", "op": "exists", "folder": "Sub"}),
    );
    assert_eq!(paths(&in_folder), ["Sub/c.md"]);

    fx.err(
        "find_notes_by_property",
        json!({"key": "status", "op": "equals"}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "find_notes_by_property",
        json!({"key": "status", "op": "exists", "value": 1}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn find_notes_by_property_pages_with_limit_and_cursor() {
    let fx = fixture();
    let query = json!({"key": "status", "op": "exists", "limit": 2});
    let first = fx.ok("find_notes_by_property", query.clone());
    assert_eq!(paths(&first), ["Sub/c.md", "a.md"]);
    assert_eq!(first["total_count"], 3);
    let mut next = query;
    next["cursor"] = first["cursor"].clone();
    let second = fx.ok("find_notes_by_property", next);
    assert_eq!(paths(&second), ["b.md"]);
    assert!(second.get("cursor").is_none());
}

#[test]
fn notes_outside_read_paths_never_appear() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Public/**"]}
    }));
    fx.write("main", "Public/a.md", "---\nstatus: open\nshared: 1\n---\n");
    fx.write(
        "main",
        "Private/b.md",
        "---\nstatus: open\nsecret: 1\n---\n",
    );
    fx.write("main", "Private/broken.md", "---\nstatus: [open\n---\n");
    let reader = caller("reader", &["read:notes"], None);

    let listed = fx
        .call(&reader, "list_properties", json!({}))
        .result
        .expect("list");
    assert_eq!(names(&listed), ["shared", "status"]);
    assert_eq!(listed["items"][1]["note_count"], 1);
    assert_eq!(
        listed["invalid_count"], 0,
        "an unreadable note is not even named"
    );
    assert_eq!(listed["notes_scanned"], 1);

    let found = fx
        .call(
            &reader,
            "find_notes_by_property",
            json!({"key": "status", "op": "exists"}),
        )
        .result
        .expect("find");
    assert_eq!(paths(&found), ["Public/a.md"]);
    assert_eq!(found["total_count"], 1);

    let in_private = fx
        .call(
            &reader,
            "find_notes_by_property",
            json!({"key": "status", "op": "exists", "folder": "Private"}),
        )
        .result
        .expect("find in private");
    assert_eq!(in_private["total_count"], 0);

    fx.err_as(
        &reader,
        "read_frontmatter",
        json!({"path": "Private/b.md"}),
        ErrorCode::AclDenied,
    );
}

#[test]
fn update_frontmatter_needs_read_and_write_access_to_the_note() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Public/**"], "writePaths": ["Public/**", "Drop/**"]}
    }));
    fx.write("main", "Drop/a.md", "---\nx: 1\n---\n");
    let writer = caller("writer", &["read:notes", "write:notes"], None);
    fx.err_as(
        &writer,
        "update_frontmatter",
        json!({"path": "Drop/a.md", "mode": "set", "key": "x", "value": 2, "dry_run": true}),
        ErrorCode::AclDenied,
    );
}
