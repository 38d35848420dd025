//! `resolve_note` and `get_vault_tree` through the real dispatcher: candidates ranked by
//! exact path, Obsidian's resolution from a given note, title and aliases (each with why it
//! matched); the folder tree's counts against a plain walk of a copy of the Obsidian help
//! vault, with depth, folder and size bounds, dot files never counted.

use std::collections::BTreeMap;

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::links::*;

fn fixture(files: &[(&str, &str)]) -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    for (path, text) in files {
        fx.write("main", path, text);
    }
    fx.ok("index_vault", json!({}));
    fx
}

/// `(path, [reason kinds])` of each candidate, in order.
fn ranked(out: &Value) -> Vec<(String, Vec<String>)> {
    out["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .map(|c| {
            let kinds = c["reasons"]
                .as_array()
                .expect("reasons")
                .iter()
                .map(|r| r["kind"].as_str().expect("kind").to_owned())
                .collect();
            (c["path"].as_str().expect("path").to_owned(), kinds)
        })
        .collect()
}

fn cand(path: &str, kinds: &[&str]) -> (String, Vec<String>) {
    (
        path.to_owned(),
        kinds.iter().map(|k| (*k).to_owned()).collect(),
    )
}

const NOTES: &[(&str, &str)] = &[
    (
        "Projects/Alpha.md",
        "---\naliases: [Project A, alpha one]\n---\n# Alpha\n",
    ),
    ("Projects/Index.md", "[[Alpha]]\n"),
    ("Archive/Alpha.md", "old alpha\n"),
    ("Beta.md", "---\naliases:\n  - alpha\n---\nbeta\n"),
];

#[test]
fn a_name_ranks_link_resolution_then_titles_then_aliases() {
    let fx = fixture(NOTES);
    let out = fx.ok("resolve_note", json!({"query": "Alpha"}));
    assert_eq!(out["linkpath"], "Alpha");
    assert_eq!(out["total_count"], 3);
    // From the root Obsidian opens the shorter path; the other is the ambiguous match.
    assert_eq!(
        ranked(&out),
        [
            cand("Archive/Alpha.md", &["link", "title"]),
            cand("Projects/Alpha.md", &["link_ambiguous", "title"]),
            cand("Beta.md", &["alias_case_insensitive"]),
        ]
    );
    // From a note in Projects/, its own folder comes first, as in Obsidian.
    let out = fx.ok(
        "resolve_note",
        json!({"query": "[[Alpha]]", "from": "Projects/Index.md"}),
    );
    assert_eq!(
        ranked(&out)[0],
        cand("Projects/Alpha.md", &["link", "title"])
    );
    assert_eq!(
        out["candidates"][0]["reasons"][0]["detail"],
        "from Projects/Index.md"
    );
    assert_eq!(out["total_count"], 3);
    let out = fx.ok("resolve_note", json!({"query": "Alpha", "limit": 1}));
    assert_eq!(out["candidates"].as_array().expect("c").len(), 1);
    assert_eq!(out["total_count"], 3);
}

#[test]
fn paths_aliases_and_wikilink_text_resolve() {
    let fx = fixture(NOTES);
    let out = fx.ok("resolve_note", json!({"query": "projects/alpha"}));
    assert_eq!(
        ranked(&out),
        [
            cand(
                "Projects/Alpha.md",
                &["exact_path", "link", "title_case_insensitive"]
            ),
            cand("Archive/Alpha.md", &["title_case_insensitive"]),
        ]
    );
    let out = fx.ok(
        "resolve_note",
        json!({"query": "[[Project A#Goals|the goals]]"}),
    );
    assert_eq!(out["linkpath"], "Project A");
    assert_eq!(out["subpath"], "#Goals");
    assert_eq!(ranked(&out), [cand("Projects/Alpha.md", &["alias"])]);
    assert_eq!(out["candidates"][0]["reasons"][0]["detail"], "Project A");
    let out = fx.ok("resolve_note", json!({"query": "Nothing like it"}));
    assert_eq!(out["total_count"], 0);
    fx.err(
        "resolve_note",
        json!({"query": "Alpha", "from": "No such.md"}),
        ErrorCode::NotFound,
    );
}

/// Per folder of a plain walk: (direct notes, direct attachments) of non-dot files.
fn walk_counts(root: &std::path::Path) -> BTreeMap<String, (u64, u64)> {
    let mut out: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for path in snapshot(root).into_keys() {
        if path.split('/').any(|seg| seg.starts_with('.')) {
            continue;
        }
        let folder = path.rsplit_once('/').map_or("", |(f, _)| f).to_owned();
        let entry = out.entry(folder).or_default();
        if path.ends_with(".md") {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
    }
    out
}

#[test]
fn the_tree_of_the_help_vault_counts_every_visible_file() {
    let fx = fixture_with_copy(HELP_VAULT);
    let root = fx.vault_dir("main");
    fx.write("main", ".hidden/secret.md", "x");
    fx.write("main", "Plugins/.dotfile.md", "x");
    let walked = walk_counts(&root);
    let out = fx.ok("get_vault_tree", json!({"limit": 5000}));
    let folders = out["folders"].as_array().expect("folders");
    assert_eq!(out["truncated"], false);
    let tree: BTreeMap<String, (u64, u64)> = folders
        .iter()
        .filter(|f| f["notes"].as_u64() != Some(0) || f["attachments"].as_u64() != Some(0))
        .map(|f| {
            (
                f["path"].as_str().expect("path").to_owned(),
                (
                    f["notes"].as_u64().expect("notes"),
                    f["attachments"].as_u64().expect("attachments"),
                ),
            )
        })
        .collect();
    assert_eq!(tree, walked);
    let (notes, attachments) = walked
        .values()
        .fold((0, 0), |(n, a), (dn, da)| (n + dn, a + da));
    assert_eq!(folders[0]["path"], "");
    assert_eq!(folders[0]["notes_total"], notes);
    assert_eq!(folders[0]["attachments_total"], attachments);
    // Tree order: every folder comes right after its parent's earlier subtrees.
    for pair in folders.windows(2) {
        let (a, b) = (
            pair[0]["path"].as_str().expect("a"),
            pair[1]["path"].as_str().expect("b"),
        );
        assert!(
            a.split('/').cmp(b.split('/')).is_lt(),
            "{a} listed before {b}"
        );
    }
    // Depth and size bounds.
    let shallow = fx.ok("get_vault_tree", json!({"max_depth": 1, "limit": 5000}));
    let depths: Vec<u64> = shallow["folders"]
        .as_array()
        .expect("folders")
        .iter()
        .map(|f| f["depth"].as_u64().expect("depth"))
        .collect();
    assert!(
        depths.iter().all(|d| *d <= 1) && depths.contains(&1),
        "{depths:?}"
    );
    assert_eq!(shallow["folders"][0]["notes_total"], notes);
    let cut = fx.ok("get_vault_tree", json!({"limit": 2}));
    assert_eq!(cut["folders"].as_array().expect("folders").len(), 2);
    assert_eq!(cut["truncated"], true);
    assert_eq!(cut["folder_count"], out["folder_count"]);
}

#[test]
fn a_start_folder_counts_only_below_it() {
    let fx = fixture(&[
        ("A/one.md", ""),
        ("A/B/two.md", ""),
        ("A/B/pic.png", ""),
        ("A/B/C/three.md", ""),
        ("Z.md", ""),
    ]);
    let out = fx.ok("get_vault_tree", json!({"folder": "A/", "max_depth": 1}));
    assert_eq!(
        out["folders"],
        json!([
            {"path": "A", "depth": 0, "notes": 1, "attachments": 0, "notes_total": 3, "attachments_total": 1},
            {"path": "A/B", "depth": 1, "notes": 1, "attachments": 1, "notes_total": 2, "attachments_total": 1},
        ])
    );
    assert_eq!(out["folder_count"], 2);
    fx.err(
        "get_vault_tree",
        json!({"folder": "Nope"}),
        ErrorCode::NotFound,
    );
}
