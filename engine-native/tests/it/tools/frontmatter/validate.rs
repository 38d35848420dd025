//! `frontmatter_validate` and `improve_frontmatter` through the real dispatcher, against a
//! `.obsidian/types.json` written into the temp vault: typed issues per note, a folder with
//! an unreadable note and a hidden one, the dry run that changes no byte, the write that
//! produces exactly the previewed note, and bad input refused with nothing changed.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

const TYPES: &str = r#"{"types": {"count": "number", "topics": "multitext", "due": "date", "done": "checkbox", "when": "datetime", "title": "text", "odd": "not-a-type"}}"#;

const MESSY: &str = "---\ntitle: Kept # a comment\ncount: \"3\"\ntopics: single\ndue: 2024/1/5\ndone: yes\nwhen: 2024-01-05\n---\nBody stays.\n";

fn fixture(extra: Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    let fx = Fixture::new(config);
    fx.write("main", ".obsidian/types.json", TYPES);
    fx.write("main", "Inbox/messy.md", MESSY);
    fx.write(
        "main",
        "Inbox/ok.md",
        "---\nid: 1\ntitle: Fine\ncount: 2\ntopics: [a]\ndue:\n---\n",
    );
    fx.write("main", "Inbox/broken.md", "---\ncount: [unclosed\n---\n");
    fx.write("main", "Secret/s.md", "---\ncount: \"9\"\n---\n");
    fx
}

fn read(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("note")
}

/// `(key, kind, fix)` of each issue.
fn issues(note: &Value) -> Vec<(String, String, Value)> {
    note["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .map(|i| {
            (
                i["key"].as_str().unwrap().to_owned(),
                i["kind"].as_str().unwrap().to_owned(),
                i.get("fix").cloned().unwrap_or(json!("<none>")),
            )
        })
        .collect()
}

fn row(key: &str, kind: &str, fix: Value) -> (String, String, Value) {
    (key.to_owned(), kind.to_owned(), fix)
}

#[test]
fn one_note_is_checked_against_the_declared_types_and_required_keys() {
    let fx = fixture(json!({}));
    let out = fx.ok(
        "frontmatter_validate",
        json!({"path": "Inbox/messy.md", "required": ["id", "title"]}),
    );
    assert_eq!(out["checked"], 1);
    assert_eq!(out["total_count"], 1);
    let note = &out["items"][0];
    assert_eq!(note["path"], "Inbox/messy.md");
    assert_eq!(
        issues(note),
        vec![
            row("id", "missing_required", Value::Null),
            row("count", "type_mismatch", json!(3)),
            row("topics", "type_mismatch", json!(["single"])),
            row("due", "type_mismatch", json!("2024-01-05")),
            row("done", "type_mismatch", json!("<none>")),
            row("when", "type_mismatch", json!("2024-01-05T00:00")),
        ],
        "{out}"
    );
    assert_eq!(note["issues"][1]["expected"], "number");
    assert_eq!(note["issues"][1]["found"], "text");
    assert_eq!(out["issue_count"], 6);
    assert_eq!(out["declared_types"]["count"], "number");
    assert!(out["declared_types"].get("odd").is_none());
}

#[test]
fn a_folder_lists_only_notes_with_issues_and_never_a_hidden_one() {
    let fx = fixture(json!({"acl": {"readPaths": ["Inbox/**"], "writePaths": ["Inbox/**"]}}));
    let out = fx.ok("frontmatter_validate", json!({"required": ["id"]}));
    assert_eq!(out["checked"], 2, "messy and ok; broken is invalid: {out}");
    assert_eq!(out["total_count"], 1);
    assert_eq!(out["items"][0]["path"], "Inbox/messy.md");
    assert_eq!(out["invalid_count"], 1);
    assert_eq!(out["invalid"][0]["path"], "Inbox/broken.md");
    assert!(!out.to_string().contains("Secret"), "{out}");
    fx.err(
        "frontmatter_validate",
        json!({"path": "Secret/s.md"}),
        ErrorCode::AclDenied,
    );
}

#[test]
fn the_dry_run_changes_nothing_and_the_write_is_exactly_the_preview() {
    let fx = fixture(json!({}));
    let args = json!({"path": "Inbox/messy.md", "required": ["id"]});
    let preview = fx.ok("improve_frontmatter", args.clone());
    assert_eq!(
        read(&fx, "Inbox/messy.md"),
        MESSY,
        "a dry run writes nothing"
    );
    assert_eq!(preview["dry_run"], true);
    assert_eq!(preview["changed"], true);
    assert_eq!(preview["fixes"].as_array().unwrap().len(), 5);
    assert_eq!(preview["remaining"][0]["key"], "done");
    let diff = preview["diff"].as_str().unwrap();
    assert!(diff.contains("count: 3"), "{diff}");

    let mut apply = args.clone();
    apply["dry_run"] = json!(false);
    apply["expected_sha256"] = preview["previous_sha256"].clone();
    let written = fx.ok("improve_frontmatter", apply.clone());
    assert_eq!(written["sha256"], preview["sha256"], "exactly the preview");
    assert_eq!(written["diff"], preview["diff"]);
    let text = read(&fx, "Inbox/messy.md");
    assert_eq!(
        obsidian_tc_sha(&text),
        preview["sha256"].as_str().unwrap(),
        "the file holds the previewed note"
    );
    assert!(text.starts_with("---\ntitle: Kept # a comment\n"), "{text}");
    assert!(text.contains("\ndone: yes\n"), "{text}");
    assert!(text.ends_with("---\nBody stays.\n"), "{text}");
    let props = fx.ok("read_frontmatter", json!({"path": "Inbox/messy.md"}));
    let p: serde_json::Map<String, Value> = props["properties"]
        .as_array()
        .expect("properties")
        .iter()
        .map(|e| (e["key"].as_str().unwrap().to_owned(), e["value"].clone()))
        .collect();
    assert_eq!(p["count"], 3);
    assert_eq!(p["topics"], json!(["single"]));
    assert_eq!(p["due"], "2024-01-05");
    assert_eq!(p["when"], "2024-01-05T00:00");
    assert_eq!(p["id"], Value::Null);

    let again = fx.ok(
        "frontmatter_validate",
        json!({"path": "Inbox/messy.md", "required": ["id"]}),
    );
    assert_eq!(
        issues(&again["items"][0]),
        vec![row("done", "type_mismatch", json!("<none>"))]
    );
    // The old SHA-256 is stale now: refused, nothing written.
    fx.err(
        "improve_frontmatter",
        apply,
        ErrorCode::ConcurrentModification,
    );
    assert_eq!(read(&fx, "Inbox/messy.md"), text);
}

#[test]
fn bad_input_is_refused_and_nothing_changes() {
    let fx = fixture(json!({}));
    let bad_key = json!({"path": "Inbox/messy.md", "required": ["bad: key"], "dry_run": false});
    let error = fx.err("improve_frontmatter", bad_key, ErrorCode::InvalidInput);
    assert_eq!(error.details["frontmatter_code"], "invalid_key", "{error}");
    assert_eq!(read(&fx, "Inbox/messy.md"), MESSY);
    fx.err(
        "improve_frontmatter",
        json!({"path": "Inbox/broken.md", "dry_run": false}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(read(&fx, "Inbox/broken.md"), "---\ncount: [unclosed\n---\n");
    fx.err(
        "frontmatter_validate",
        json!({"path": "Inbox/messy.md", "folder": "Inbox"}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "improve_frontmatter",
        json!({"path": "Inbox/messy.md", "apply": true}),
        ErrorCode::ValidationError,
    );
    fx.write("main", ".obsidian/types.json", "[1, 2]");
    let error = fx.err(
        "frontmatter_validate",
        json!({"path": "Inbox/messy.md"}),
        ErrorCode::InvalidInput,
    );
    assert!(error.message.contains(".obsidian/types.json"), "{error}");
}

/// The SHA-256 of a note's text, computed with engine-core's hash.
fn obsidian_tc_sha(text: &str) -> String {
    engine_core::hash::sha256_hex(text.as_bytes())
}
