//! `rewrite_link` and `prune_hub_links` through the real dispatcher on small vaults: a dry
//! run leaves every byte as it was and shows each changed line; the confirmed run changes
//! exactly those lines (aliases, subpaths, embeds, markdown style and frontmatter links
//! kept); a real run without the human's approval changes nothing; a stale `expected_sha256`
//! leaves every file byte-identical. A write failing part-way (an immutable note), and
//! `prune_hub_links` on a note changed since its preview: `faults`' `tools::links::rewrite`.

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::links::rewrite::{LINKING, POLICY, fixture, hub_fixture};
use crate::support::links::*;

fn read(fx: &Fixture, path: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(path)).expect("note")
}

/// One shown line: number, text now, text after (`None`: the line is removed).
type Line = (u64, String, Option<String>);

/// `(path, [line])` of a result's `files` (or one `change`).
fn shown(files: &Value) -> Vec<(String, Vec<Line>)> {
    files
        .as_array()
        .expect("files")
        .iter()
        .map(|file| {
            let lines = file["lines"]
                .as_array()
                .expect("lines")
                .iter()
                .map(|l| {
                    (
                        l["line"].as_u64().expect("line"),
                        l["old"].as_str().expect("old").to_owned(),
                        l["new"].as_str().map(str::to_owned),
                    )
                })
                .collect();
            (file["path"].as_str().expect("path").to_owned(), lines)
        })
        .collect()
}

fn line(n: u64, old: &str, new: &str) -> Line {
    (n, old.to_owned(), Some(new.to_owned()))
}

#[test]
fn rewrite_link_dry_run_shows_lines_and_the_confirmed_run_changes_exactly_them() {
    let fx = fixture(LINKING);
    let root = fx.vault_dir("main");
    let before = snapshot(&root);
    let args = json!({"from": "[[Target]]", "to": "New/Dest.md"});
    let preview = fx.ok("rewrite_link", args.clone());
    assert_eq!(snapshot(&root), before, "a dry run changed the vault");
    assert_eq!(preview["mode"], "note");
    assert_eq!(preview["from"], "Target.md");
    assert_eq!(preview["to"], "New/Dest.md");
    assert_eq!(preview["dry_run"], true);
    assert_eq!(preview["applied"], false);
    assert_eq!(preview["links_rewritten"], 6);
    assert_eq!(preview["skipped_links"], 0);
    assert_eq!(
        shown(&preview["files"]),
        vec![
            (
                "a.md".to_owned(),
                vec![
                    line(
                        1,
                        "See [[Target]] and [[Target#Intro|the intro]].",
                        "See [[Dest]] and [[Dest#Intro|the intro]]."
                    ),
                    line(3, "![[Target#^blk]]", "![[Dest#^blk]]"),
                ]
            ),
            (
                "b/c.md".to_owned(),
                vec![line(
                    1,
                    "[md](../Target.md#Part) and [[target]]",
                    "[md](../New/Dest.md#Part) and [[Dest]]"
                )]
            ),
            (
                "d.md".to_owned(),
                vec![line(2, "up: \"[[Target]]\"", "up: \"[[Dest]]\"")]
            ),
        ]
    );
    // Not a dry run: the human is asked first, and until then nothing changes.
    let mut real = args.clone();
    real["dry_run"] = json!(false);
    let asked = fx
        .call(&Caller::stdio(), "rewrite_link", real.clone())
        .result;
    assert_eq!(
        asked.expect_err("needs confirmation").code,
        ErrorCode::ElicitRequired
    );
    assert_eq!(snapshot(&root), before);
    let done = confirmed(&fx, "rewrite_link", real).expect("rewrite");
    assert_eq!(done["applied"], true);
    assert_eq!(
        read(&fx, "a.md"),
        "See [[Dest]] and [[Dest#Intro|the intro]].\nUnrelated [[Other]]\n![[Dest#^blk]]\n"
    );
    assert_eq!(
        read(&fx, "b/c.md"),
        "[md](../New/Dest.md#Part) and [[Dest]]\n"
    );
    assert_eq!(
        read(&fx, "d.md"),
        "---\nup: \"[[Dest]]\"\n---\nno body link\n"
    );
    let after = snapshot(&root);
    for (path, bytes) in &before {
        if !["a.md", "b/c.md", "d.md"].contains(&path.as_str()) {
            assert!(after[path] == *bytes, "{path} changed");
        }
    }
    // The index follows: Target has no backlinks left, Dest has all three notes.
    assert_eq!(
        fx.ok("get_backlinks", json!({"path": "Target.md"}))["total_count"],
        0
    );
    assert_eq!(
        fx.ok("get_backlinks", json!({"path": "New/Dest.md"}))["total_count"],
        3
    );
}

#[test]
fn unresolved_text_is_retargeted_keeping_aliases_and_subpaths() {
    let fx = fixture(&[
        (
            "e.md",
            "[[Old idea]], [[old idea|alias]], [[Old idea#H]] and [[Old ideas]]\n",
        ),
        ("f.md", "[x](Old%20idea.md) [[Kept]]\n"),
    ]);
    let out = confirmed(
        &fx,
        "rewrite_link",
        json!({"from": "Old idea", "to": "Ideas/New idea", "dry_run": false}),
    )
    .expect("rewrite");
    assert_eq!(out["mode"], "unresolved_text");
    assert_eq!(out["to"], "Ideas/New idea.md");
    assert_eq!(out["links_rewritten"], 4);
    assert_eq!(
        read(&fx, "e.md"),
        "[[New idea]], [[New idea|alias]], [[New idea#H]] and [[Old ideas]]\n"
    );
    assert_eq!(read(&fx, "f.md"), "[x](New%20idea.md) [[Kept]]\n");
}

#[test]
fn prune_hub_links_dry_run_then_applies_exactly_the_shown_removals() {
    let fx = hub_fixture();
    let root = fx.vault_dir("main");
    let before = snapshot(&root);
    let policy: Value = serde_json::from_str(POLICY).expect("policy");
    let preview = fx.ok(
        "prune_hub_links",
        json!({"path": "Hub.md", "policy": policy}),
    );
    assert_eq!(snapshot(&root), before, "a dry run changed the vault");
    let pruned: Vec<(u64, &str, &str, &str)> = preview["pruned"]
        .as_array()
        .expect("pruned")
        .iter()
        .map(|p| {
            (
                p["line"].as_u64().expect("line"),
                p["target"].as_str().expect("target"),
                p["reason"].as_str().expect("reason"),
                p["action"].as_str().expect("action"),
            )
        })
        .collect();
    assert_eq!(
        pruned,
        [
            (2, "Popular.md", "max_backlinks", "line_removed"),
            (3, "Missing", "unresolved", "line_removed"),
            (4, "Archive/Old.md", "folder", "unlinked"),
            (5, "Quiet.md", "duplicate", "unlinked"),
            (6, "Popular.md", "max_backlinks", "line_removed"),
        ]
    );
    let change = shown(&json!([preview["change"].clone()]));
    assert_eq!(
        change[0].1,
        [
            (2, "- [[Popular]]".to_owned(), None),
            (3, "- [[Missing]]".to_owned(), None),
            line(
                4,
                "- See [[Archive/Old|old stuff]] here",
                "- See old stuff here"
            ),
            line(5, "- [[Quiet]] and [[Quiet]]", "- [[Quiet]] and Quiet"),
            (6, "1. [md link](Popular.md)".to_owned(), None),
        ]
    );
    let sha = preview["change"]["sha256"]
        .as_str()
        .expect("sha")
        .to_owned();
    // A stale expected_sha256 is refused before anything is asked or written.
    let stale = "0".repeat(64);
    fx.err(
        "prune_hub_links",
        json!({"path": "Hub.md", "policy": policy, "dry_run": false, "expected_sha256": stale}),
        ErrorCode::ConcurrentModification,
    );
    assert_eq!(snapshot(&root), before);
    let done = confirmed(
        &fx,
        "prune_hub_links",
        json!({"path": "Hub.md", "policy": policy, "dry_run": false, "expected_sha256": sha}),
    )
    .expect("prune");
    assert_eq!(done["applied"], true);
    assert_eq!(
        read(&fx, "Hub.md"),
        "# Hub\n- See old stuff here\n- [[Quiet]] and Quiet\n![[Popular]]\n"
    );
    let after = snapshot(&root);
    for (path, bytes) in &before {
        if path != "Hub.md" {
            assert!(after[path] == *bytes, "{path} changed");
        }
    }
}
