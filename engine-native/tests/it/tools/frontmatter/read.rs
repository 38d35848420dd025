//! `read_frontmatter` and `read_property` through the dispatcher on a real temp vault.

use engine_core::hash::sha256_hex;
use obsidian_tc::errors::ErrorCode;
use serde_json::json;

use crate::support::dispatch::Fixture;

const NOTE: &str =
    "---\ntitle: Alpha\nzip: 01234\ntags: [a, b]\ndue: 2024-01-05\ndone: false\n---\nBody\n";

fn fixture() -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write("main", "Projects/alpha.md", NOTE);
    fx
}

#[test]
fn read_frontmatter_lists_properties_in_note_order_with_types_and_the_sha256() {
    let fx = fixture();
    let out = fx.ok("read_frontmatter", json!({"path": "Projects/alpha.md"}));
    assert_eq!(out["path"], "Projects/alpha.md");
    assert_eq!(out["has_frontmatter"], true);
    assert_eq!(out["sha256"], sha256_hex(NOTE.as_bytes()));
    assert_eq!(
        out["properties"],
        json!([
            {"key": "title", "value": "Alpha", "type": "text"},
            {"key": "zip", "value": 1234, "type": "number"},
            {"key": "tags", "value": ["a", "b"], "type": "list"},
            {"key": "due", "value": "2024-01-05", "type": "date"},
            {"key": "done", "value": false, "type": "checkbox"},
        ])
    );
}

#[test]
fn a_note_without_frontmatter_has_no_properties() {
    let fx = fixture();
    fx.write("main", "plain.md", "just text\n");
    let out = fx.ok("read_frontmatter", json!({"path": "plain.md"}));
    assert_eq!(out["has_frontmatter"], false);
    assert_eq!(out["properties"], json!([]));
}

#[test]
fn read_property_gives_the_value_or_null_with_an_exists_flag() {
    let fx = fixture();
    let tags = fx.ok(
        "read_property",
        json!({"path": "Projects/alpha.md", "key": "tags"}),
    );
    assert_eq!(tags["exists"], true);
    assert_eq!(tags["value"], json!(["a", "b"]));
    assert_eq!(tags["type"], "list");
    let missing = fx.ok(
        "read_property",
        json!({"path": "Projects/alpha.md", "key": "status"}),
    );
    assert_eq!(missing["exists"], false);
    assert_eq!(missing["value"], json!(null));
}

#[test]
fn invalid_yaml_is_invalid_input_naming_the_line() {
    let fx = fixture();
    fx.write(
        "main",
        "broken.md",
        "---\ntitle: ok\ntags: [a, b\n---\nBody\n",
    );
    let error = fx.err(
        "read_frontmatter",
        json!({"path": "broken.md"}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(error.details["frontmatter_code"], "invalid_yaml");
    assert_eq!(error.details["path"], "broken.md");
    assert!(error.details["line"].as_u64().is_some_and(|line| line >= 2));
    fx.err(
        "read_property",
        json!({"path": "broken.md", "key": "title"}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn a_missing_note_is_not_found() {
    let fx = fixture();
    fx.err(
        "read_frontmatter",
        json!({"path": "nope.md"}),
        ErrorCode::NotFound,
    );
    fx.err(
        "read_property",
        json!({"path": "nope.md", "key": "x"}),
        ErrorCode::NotFound,
    );
}
