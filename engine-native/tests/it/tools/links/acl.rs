//! The link tools under a folder ACL hiding `Secret/`: exact results show that a hidden
//! note is never shown, never counted and never walked through (its links rescue no orphan,
//! reach no backlink list, resolve nothing, make nothing unresolved, add nothing to the
//! tree, and are not planned for rewriting), and every tool asked about a hidden note by
//! path answers `acl_denied`.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::links::*;

fn fixture() -> Fixture {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["**", "!Secret/**"], "writePaths": ["**", "!Secret/**"]}
    }));
    for (path, text) in [
        ("Public/Hub.md", "[[Secret Plan]] [[Open]] [[Ghost]]\n"),
        ("Public/Open.md", "[[Hub]]\n"),
        (
            "Secret/Secret Plan.md",
            "---\naliases: [Plan]\n---\n[[Open]] [[Lonely]] [[Ghost]] [[Also missing]]\n",
        ),
        ("Secret/Notes.md", "[[Hub]] [[Lonely]]\n"),
        ("Lonely.md", "only secret notes link here\n"),
    ] {
        fx.write("main", path, text);
    }
    fx.ok("index_vault", json!({}));
    fx
}

fn paths(items: &Value, key: &str) -> Vec<String> {
    items
        .as_array()
        .expect("array")
        .iter()
        .map(|item| item[key].as_str().expect("text").to_owned())
        .collect()
}

#[test]
fn link_reads_never_show_count_or_walk_through_a_hidden_note() {
    let fx = fixture();
    let out = fx.ok("get_outgoing_links", json!({"path": "Public/Hub.md"}));
    let links: Vec<(String, String, Option<String>)> = out["links"]
        .as_array()
        .expect("links")
        .iter()
        .map(|l| {
            (
                l["target"].as_str().expect("target").to_owned(),
                l["status"].as_str().expect("status").to_owned(),
                l["resolved_path"].as_str().map(str::to_owned),
            )
        })
        .collect();
    assert_eq!(
        links,
        [
            ("Secret Plan".to_owned(), "unresolved".to_owned(), None),
            (
                "Open".to_owned(),
                "resolved".to_owned(),
                Some("Public/Open.md".to_owned())
            ),
            ("Ghost".to_owned(), "unresolved".to_owned(), None),
        ]
    );
    assert_eq!(
        (
            out["resolved_count"].clone(),
            out["unresolved_count"].clone()
        ),
        (json!(1), json!(2))
    );

    for (note, source) in [
        ("Public/Open.md", "Public/Hub.md"),
        ("Public/Hub.md", "Public/Open.md"),
    ] {
        let back = fx.ok("get_backlinks", json!({"path": note}));
        assert_eq!(back["total_count"], 1, "{back}");
        assert_eq!(paths(&back["items"], "source"), [source]);
    }
    let back = fx.ok("get_backlinks", json!({"path": "Lonely.md"}));
    assert_eq!(
        (back["total_count"].clone(), back["items"].clone()),
        (json!(0), json!([]))
    );

    let orphans = fx.ok("find_orphans", json!({}));
    assert_eq!(orphans["items"], json!(["Lonely.md"]));
    assert_eq!(orphans["total_count"], 1);

    let unresolved = fx.ok("find_unresolved_links", json!({}));
    assert_eq!(unresolved["total_count"], 2);
    assert_eq!(
        paths(&unresolved["items"], "source"),
        ["Public/Hub.md", "Public/Hub.md"]
    );
    assert_eq!(
        paths(&unresolved["items"], "target"),
        ["Secret Plan", "Ghost"]
    );
}

#[test]
fn resolving_the_tree_and_rewrites_leave_hidden_notes_out() {
    let fx = fixture();
    for query in ["Plan", "Secret Plan", "[[Secret/Secret Plan]]", "Notes"] {
        let out = fx.ok("resolve_note", json!({"query": query}));
        assert_eq!(out["total_count"], 0, "{query}: {out}");
    }
    let out = fx.ok("resolve_note", json!({"query": "Open"}));
    assert_eq!(paths(&out["candidates"], "path"), ["Public/Open.md"]);

    let tree = fx.ok("get_vault_tree", json!({}));
    assert_eq!(
        tree["folders"],
        json!([
            {"path": "", "depth": 0, "notes": 1, "attachments": 0, "notes_total": 3, "attachments_total": 0},
            {"path": "Public", "depth": 1, "notes": 2, "attachments": 0, "notes_total": 2, "attachments_total": 0},
        ])
    );
    fx.err(
        "get_vault_tree",
        json!({"folder": "Secret"}),
        ErrorCode::NotFound,
    );

    let root = fx.vault_dir("main");
    let before = snapshot(&root);
    let out = fx.ok(
        "rewrite_link",
        json!({"from": "Public/Open.md", "to": "Public/New.md"}),
    );
    assert_eq!(paths(&out["files"], "path"), ["Public/Hub.md"]);
    assert_eq!(out["links_rewritten"], 1);
    assert_eq!(out["skipped_notes"], Value::Null);
    let out = fx.ok(
        "rewrite_link",
        json!({"from": "Lonely", "to": "Public/New.md"}),
    );
    assert_eq!(
        (out["files"].clone(), out["links_rewritten"].clone()),
        (json!([]), json!(0))
    );
    let out = fx.ok(
        "rewrite_link",
        json!({"from": "Ghost", "to": "Public/New.md"}),
    );
    assert_eq!(out["mode"], "unresolved_text");
    assert_eq!(paths(&out["files"], "path"), ["Public/Hub.md"]);
    assert_eq!(out["links_rewritten"], 1);
    // A link to a hidden note is not unresolved text the caller may retarget.
    let out = fx.ok(
        "rewrite_link",
        json!({"from": "Secret Plan", "to": "Public/New.md"}),
    );
    assert_eq!(out["links_rewritten"], 0);
    assert_eq!(snapshot(&root), before);
}

#[test]
fn asking_about_a_hidden_note_is_acl_denied() {
    let fx = fixture();
    let hidden = "Secret/Secret Plan.md";
    for (tool, args) in [
        ("get_outgoing_links", json!({"path": hidden})),
        ("get_backlinks", json!({"path": hidden})),
        ("resolve_note", json!({"query": "Open", "from": hidden})),
        (
            "prune_hub_links",
            json!({"path": hidden, "policy": {"unresolved": true}}),
        ),
    ] {
        let error = fx.err(tool, args, ErrorCode::AclDenied);
        assert!(!error.message.contains("Lonely"), "{tool}: {error}");
    }
}
