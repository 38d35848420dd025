//! `read_note` ranges, `read_notes` per-path results and `list_notes` paging and ACL
//! filtering, through the dispatcher on real temp vaults.

use engine_core::hash::sha256_hex;
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

const NOTE: &str = "# Guide\nintro\n## Install\nstep one\nstep two ^steps\n## Use\nrun it\n";

fn fixture() -> Fixture {
    Fixture::new(json!({"throttle": {"enabled": false}}))
}

fn acl_fixture() -> Fixture {
    Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Public/**"]}
    }))
}

#[test]
fn read_note_returns_the_whole_note_with_its_hash_and_size() {
    let fx = fixture();
    fx.write("main", "Guide.md", NOTE);
    let read = fx.ok("read_note", json!({"path": "Guide.md"}));
    assert_eq!(read["content"], NOTE);
    assert_eq!(read["sha256"], sha256_hex(NOTE.as_bytes()));
    assert_eq!(read["size"], NOTE.len());
    assert_eq!(read["line_ending"], "lf");
    assert!(read.get("lines").is_none());
}

#[test]
fn read_note_selects_lines_heading_and_block_but_hashes_the_whole_note() {
    let fx = fixture();
    fx.write("main", "Guide.md", NOTE);
    let whole = sha256_hex(NOTE.as_bytes());

    let lines = fx.ok(
        "read_note",
        json!({"path": "Guide.md", "lines": {"start": 2, "end": 3}}),
    );
    assert_eq!(lines["content"], "intro\n## Install\n");
    assert_eq!(lines["lines"], json!({"start": 2, "end": 3}));
    assert_eq!(lines["bytes"], json!({"start": 8, "end": 25}));
    assert_eq!(lines["sha256"], whole);
    assert_eq!(lines["size"], NOTE.len());

    let section = fx.ok(
        "read_note",
        json!({"path": "Guide.md", "heading": "Guide#Install"}),
    );
    assert_eq!(
        section["content"],
        "## Install\nstep one\nstep two ^steps\n"
    );
    assert_eq!(section["lines"], json!({"start": 3, "end": 5}));
    assert_eq!(section["sha256"], whole);

    let block = fx.ok("read_note", json!({"path": "Guide.md", "block": "^steps"}));
    // A block is its whole paragraph.
    assert_eq!(block["content"], "step one\nstep two ^steps\n");
    assert_eq!(block["sha256"], whole);
}

#[test]
fn read_note_range_errors_are_typed() {
    let fx = fixture();
    fx.write("main", "Guide.md", NOTE);
    let error = fx.err(
        "read_note",
        json!({"path": "Guide.md", "lines": {"start": 40, "end": 50}}),
        ErrorCode::InvalidRange,
    );
    assert_eq!(error.details["line_count"], 7);
    assert_eq!(error.details["path"], "Guide.md");
    fx.err(
        "read_note",
        json!({"path": "Guide.md", "heading": "Nope"}),
        ErrorCode::NotFound,
    );
    fx.write("main", "Twice.md", "# A\n## X\n# B\n## X\n");
    let error = fx.err(
        "read_note",
        json!({"path": "Twice.md", "heading": "X"}),
        ErrorCode::Ambiguous,
    );
    assert_eq!(error.details["count"], 2);
    fx.err(
        "read_note",
        json!({"path": "Guide.md", "heading": "Use", "block": "steps"}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "read_note",
        json!({"path": "Missing.md"}),
        ErrorCode::NotFound,
    );
}

#[test]
fn read_note_hands_out_lf_text_of_a_crlf_bom_note() {
    let fx = fixture();
    let bytes = "\u{feff}# T\r\nbody\r\n";
    fx.write("main", "Win.md", bytes);
    let read = fx.ok("read_note", json!({"path": "Win.md"}));
    assert_eq!(read["content"], "# T\nbody\n");
    assert_eq!(read["bom"], true);
    assert_eq!(read["line_ending"], "crlf");
    assert_eq!(read["sha256"], sha256_hex(bytes.as_bytes()));
}

#[test]
fn read_notes_reports_each_path_on_its_own() {
    let fx = acl_fixture();
    fx.write("main", "Public/a.md", "alpha");
    fx.write("main", "Private/secret.md", "hidden");
    let result = fx.ok(
        "read_notes",
        json!({"paths": ["Public/a.md", "Public/missing.md", "Private/secret.md", "../escape.md"]}),
    );
    let items = result["items"].as_array().expect("items");
    assert_eq!(items.len(), 4);
    assert_eq!(result["failed_count"], 3);
    assert_eq!(items[0]["ok"], true);
    assert_eq!(items[0]["content"], "alpha");
    assert_eq!(items[0]["sha256"], sha256_hex(b"alpha"));
    let code = |item: &Value| {
        item["error"]["code"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(code(&items[1]), "not_found");
    assert_eq!(code(&items[2]), "acl_denied");
    assert_eq!(items[2]["path"], "Private/secret.md");
    assert!(items[2].get("content").is_none());
    assert_eq!(code(&items[3]), "path_invalid");
}

#[test]
fn read_notes_takes_at_most_fifty_paths() {
    let fx = fixture();
    let paths: Vec<String> = (0..51).map(|i| format!("n{i}.md")).collect();
    fx.err(
        "read_notes",
        json!({"paths": paths}),
        ErrorCode::ValidationError,
    );
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
fn list_notes_pages_with_a_cursor_until_the_last_page() {
    let fx = fixture();
    for name in ["a.md", "b.md", "c.md", "d.md", "e.md"] {
        fx.write("main", &format!("Notes/{name}"), "x");
    }
    fx.write("main", "Notes/image.png", "png");
    let first = fx.ok("list_notes", json!({"folder": "Notes", "limit": 2}));
    assert_eq!(paths(&first), ["Notes/a.md", "Notes/b.md"]);
    assert_eq!(first["total_count"], 5);
    assert_eq!(first["items"][0]["size"], 1);
    let second = fx.ok(
        "list_notes",
        json!({"folder": "Notes", "limit": 2, "cursor": first["cursor"]}),
    );
    assert_eq!(paths(&second), ["Notes/c.md", "Notes/d.md"]);
    let last = fx.ok(
        "list_notes",
        json!({"folder": "Notes", "limit": 2, "cursor": second["cursor"]}),
    );
    assert_eq!(paths(&last), ["Notes/e.md"]);
    assert!(last.get("cursor").is_none());
    let all = fx.ok(
        "list_notes",
        json!({"folder": "Notes", "include_attachments": true}),
    );
    assert_eq!(all["total_count"], 6);
    fx.err(
        "list_notes",
        json!({"limit": 1001}),
        ErrorCode::ValidationError,
    );
    fx.err("list_notes", json!({"folder": "Nope"}), ErrorCode::NotFound);
}

#[test]
fn list_notes_non_recursive_stays_in_the_folder() {
    let fx = fixture();
    fx.write("main", "top.md", "x");
    fx.write("main", "Notes/a.md", "x");
    fx.write("main", "Notes/Deep/b.md", "x");
    let root = fx.ok("list_notes", json!({"recursive": false}));
    assert_eq!(paths(&root), ["top.md"]);
    let notes = fx.ok(
        "list_notes",
        json!({"folder": "Notes/", "recursive": false}),
    );
    assert_eq!(paths(&notes), ["Notes/a.md"]);
    let everything = fx.ok("list_notes", json!({}));
    assert_eq!(
        paths(&everything),
        ["Notes/Deep/b.md", "Notes/a.md", "top.md"]
    );
}

#[test]
fn list_notes_shows_and_counts_only_readable_notes() {
    let fx = acl_fixture();
    fx.write("main", "Public/a.md", "x");
    fx.write("main", "Public/b.md", "x");
    fx.write("main", "Private/secret.md", "x");
    let alice = caller("alice", &["read:notes"], None);
    let outcome = fx.call(&alice, "list_notes", json!({"limit": 1}));
    let page = outcome.result.expect("list");
    assert_eq!(paths(&page), ["Public/a.md"]);
    assert_eq!(page["total_count"], 2);
    let rest = fx
        .call(&alice, "list_notes", json!({"cursor": page["cursor"]}))
        .result
        .expect("list");
    assert_eq!(paths(&rest), ["Public/b.md"]);
    assert!(!rest.to_string().contains("secret"));
}

#[test]
fn output_schemas_require_only_the_fields_every_result_has() {
    let fx = fixture();
    fx.write("main", "Guide.md", NOTE);
    let registry = fx.server.runtime().registry();
    let whole = fx.ok("read_note", json!({"path": "Guide.md"}));
    let page = fx.ok("list_notes", json!({}));
    for (tool, result) in [("read_note", &whole), ("list_notes", &page)] {
        let schema = registry
            .get(tool)
            .and_then(|tool| tool.def.output_schema.clone())
            .expect("output schema");
        assert_eq!(schema["type"], "object", "{tool}");
        for field in schema["required"].as_array().expect("required") {
            let field = field.as_str().expect("name");
            assert!(result.get(field).is_some(), "{tool} lacks required {field}");
        }
    }
}
