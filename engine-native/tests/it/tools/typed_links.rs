//! The typed-link tools through the real dispatcher: a note's frontmatter relations with
//! every resolution status (resolved, ambiguous, unresolved, hidden by the ACL), backrefs
//! by key with a hidden note that never appears or counts, and deterministic suggestions
//! with their rules.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

const TASK: &str = "---\npart_of: \"[[Alpha]]\"\ndepends_on:\n  - Parser\n  - \"[[Missing]]\"\nrelated: \"[[Dup]]\"\ncites: \"[[secret]]\"\nstatus: draft\ntags: [\"[[Parser]]\"]\n---\nSee [[Alpha]], [[Lexer]], [[Lexer#Tokens]], [[Parser]] and [[Helper]].\n";

/// A vault with relations of every kind, indexed.
fn vault(extra: Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    let fx = Fixture::new(config);
    fx.write("main", "Projects/Alpha.md", "# Alpha\n");
    fx.write("main", "Projects/Alpha/task.md", TASK);
    fx.write(
        "main",
        "Projects/Alpha/other.md",
        "---\nuses: \"[[Helper]]\"\ndepends_on: \"[[Parser]]\"\n---\n",
    );
    fx.write(
        "main",
        "Projects/Alpha/loose.md",
        "Belongs to [[Alpha]], mentions [[Lexer]].\n",
    );
    fx.write("main", "Parser.md", "# Parser\n");
    fx.write("main", "Lexer.md", "# Lexer\n");
    fx.write("main", "Helper.md", "# Helper\n");
    fx.write("main", "a/Dup.md", "a\n");
    fx.write("main", "b/Dup.md", "b\n");
    fx.write(
        "main",
        "Private/secret.md",
        "---\ndepends_on: \"[[Parser]]\"\n---\n",
    );
    fx.write("main", "notes/ref.md", "---\npart_of: \"[[Alpha]]\"\n---\n");
    fx.ok("index_vault", json!({}));
    fx
}

/// Everything but `Private/`.
fn hiding_private() -> Value {
    let visible = [
        "Projects/**",
        "Parser.md",
        "Lexer.md",
        "Helper.md",
        "a/**",
        "b/**",
        "notes/**",
    ];
    json!({"acl": {"readPaths": visible, "writePaths": visible}})
}

/// `key -> (status, resolved_path)` of each link, in order.
fn statuses(out: &Value) -> Vec<(String, String, String, Value)> {
    out["links"]
        .as_array()
        .expect("links")
        .iter()
        .map(|l| {
            (
                l["key"].as_str().unwrap().to_owned(),
                l["target"].as_str().unwrap().to_owned(),
                l["status"].as_str().unwrap().to_owned(),
                l["resolved_path"].clone(),
            )
        })
        .collect()
}

#[test]
fn relations_resolve_like_obsidian_with_every_status() {
    let fx = vault(json!({}));
    let out = fx.ok("get_typed_links", json!({"path": "Projects/Alpha/task.md"}));
    let s = |k: &str, t: &str, st: &str, p: Value| (k.to_owned(), t.to_owned(), st.to_owned(), p);
    assert_eq!(
        statuses(&out),
        vec![
            s("part_of", "Alpha", "resolved", json!("Projects/Alpha.md")),
            s("depends_on", "Parser", "resolved", json!("Parser.md")),
            s("depends_on", "Missing", "unresolved", Value::Null),
            s("related", "Dup", "ambiguous", json!("a/Dup.md")),
            s("cites", "secret", "resolved", json!("Private/secret.md")),
        ],
        "{out}"
    );
    assert_eq!(out["links"][1]["value"], "Parser");
    assert_eq!(
        out["links"][3]["candidates"],
        json!(["a/Dup.md", "b/Dup.md"])
    );
    assert_eq!(out["resolved_count"], 3);
    assert_eq!(out["ambiguous_count"], 1);
    assert_eq!(out["unresolved_count"], 1);
    let only = fx.ok(
        "get_typed_links",
        json!({"path": "Projects/Alpha/task.md", "key": "depends_on"}),
    );
    assert_eq!(only["links"].as_array().unwrap().len(), 2);
}

#[test]
fn a_hidden_target_is_unresolved_and_a_hidden_note_never_refers() {
    let fx = vault(hiding_private());
    let out = fx.ok("get_typed_links", json!({"path": "Projects/Alpha/task.md"}));
    let cites = &out["links"][4];
    assert_eq!(cites["key"], "cites");
    assert_eq!(cites["status"], "unresolved");
    assert!(cites.get("resolved_path").is_none(), "{out}");
    assert!(!out.to_string().contains("Private"), "{out}");

    let back = fx.ok("find_typed_link_backrefs", json!({"path": "Parser.md"}));
    let sources: Vec<&str> = back["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["source"].as_str().unwrap())
        .collect();
    assert_eq!(
        sources,
        ["Projects/Alpha/other.md", "Projects/Alpha/task.md"]
    );
    assert_eq!(back["total_count"], 2);
    assert!(!back.to_string().contains("Private"), "{back}");
    fx.err(
        "find_typed_link_backrefs",
        json!({"path": "Private/secret.md"}),
        ErrorCode::AclDenied,
    );
}

#[test]
fn backrefs_count_every_readable_referrer_filter_by_key_and_page() {
    let fx = vault(json!({}));
    let back = fx.ok("find_typed_link_backrefs", json!({"path": "Parser.md"}));
    assert_eq!(back["total_count"], 3, "{back}");
    assert_eq!(back["items"][0]["source"], "Private/secret.md");
    let task = &back["items"][2];
    assert_eq!(task["source"], "Projects/Alpha/task.md");
    assert_eq!(
        task["relations"],
        json!([{"key": "depends_on", "value": "Parser"}]),
        "a tags value is never a relation"
    );

    let alpha = fx.ok(
        "find_typed_link_backrefs",
        json!({"path": "Projects/Alpha.md", "key": "part_of", "limit": 1}),
    );
    assert_eq!(alpha["total_count"], 2);
    assert_eq!(alpha["items"][0]["source"], "Projects/Alpha/task.md");
    let next = fx.ok(
        "find_typed_link_backrefs",
        json!({"path": "Projects/Alpha.md", "key": "part_of", "cursor": alpha["cursor"]}),
    );
    assert_eq!(next["items"][0]["source"], "notes/ref.md");
    assert!(next.get("cursor").is_none());
    let none = fx.ok(
        "find_typed_link_backrefs",
        json!({"path": "Projects/Alpha.md", "key": "uses"}),
    );
    assert_eq!(none["total_count"], 0);
    fx.err(
        "find_typed_link_backrefs",
        json!({"path": "Nowhere.md"}),
        ErrorCode::NotFound,
    );
}

#[test]
fn suggestions_explain_their_rule_and_skip_existing_relations() {
    let fx = vault(json!({}));
    let out = fx.ok(
        "suggest_typed_links",
        json!({"path": "Projects/Alpha/task.md"}),
    );
    let got: Vec<(String, String, String, u64)> = out["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["target_path"].as_str().unwrap().to_owned(),
                s["key"].as_str().unwrap().to_owned(),
                s["rule"].as_str().unwrap().to_owned(),
                s["mentions"].as_u64().unwrap(),
            )
        })
        .collect();
    let row = |t: &str, k: &str, r: &str, m: u64| (t.to_owned(), k.to_owned(), r.to_owned(), m);
    assert_eq!(
        got,
        vec![
            row("Lexer.md", "see_also", "body_link", 2),
            row("Helper.md", "uses", "peer_relation", 1),
        ],
        "{out}"
    );
    assert_eq!(out["suggestions"][0]["value"], "[[Lexer]]");
    assert!(
        out["suggestions"][1]["reason"]
            .as_str()
            .unwrap()
            .contains("1 other note(s)"),
        "{out}"
    );
    assert_eq!(out["already_related"], 2, "Alpha and Parser");

    let loose = fx.ok(
        "suggest_typed_links",
        json!({"path": "Projects/Alpha/loose.md", "limit": 1}),
    );
    assert_eq!(loose["total_count"], 2);
    let first = &loose["suggestions"][0];
    assert_eq!(first["target_path"], "Lexer.md", "ties by path: L before P");
    let all = fx.ok(
        "suggest_typed_links",
        json!({"path": "Projects/Alpha/loose.md"}),
    );
    let alpha = &all["suggestions"][1];
    assert_eq!(alpha["target_path"], "Projects/Alpha.md");
    assert_eq!(alpha["key"], "part_of");
    assert_eq!(alpha["rule"], "folder_note");
    assert_eq!(
        std::fs::read_to_string(fx.vault_dir("main").join("Projects/Alpha/loose.md")).unwrap(),
        "Belongs to [[Alpha]], mentions [[Lexer]].\n",
        "read-only"
    );
}

#[test]
fn bad_input_is_a_typed_error() {
    let fx = vault(json!({}));
    fx.err(
        "get_typed_links",
        json!({"path": "Projects/Alpha/task.md", "depth": 2}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "get_typed_links",
        json!({"path": "Nowhere.md"}),
        ErrorCode::NotFound,
    );
    fx.write("main", "broken.md", "---\nkey: [unclosed\n---\n");
    let error = fx.err(
        "get_typed_links",
        json!({"path": "broken.md"}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(error.details["frontmatter_code"], "invalid_yaml");
}
