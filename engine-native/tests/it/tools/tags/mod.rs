//! The tag tools through the real dispatcher: counts with hierarchical rollup, one note's
//! tags with lines, hierarchical search, add/remove keeping every other byte, a vault-wide
//! rename (dry run first, nested tags included), the ACL rule (a hidden note never counts),
//! and `list_tags` on a copy of the kepano vault against an independent count. `cache`: the
//! kept tags of `list_tags` and `find_notes_by_tag` against fresh reads.

mod cache;

use std::collections::BTreeMap;
use std::path::Path;

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

fn fixture(extra: Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    Fixture::new(config)
}

const ONE: &str =
    "---\ntitle: One # kept\ntags: [project/alpha, Idea]\n---\nBody #project and #idea again.\n";
const TWO: &str = "---\ntags: project\n---\n#Project/Beta here\n";

fn tag_vault(fx: &Fixture) {
    fx.write("main", "one.md", ONE);
    fx.write("main", "two.md", TWO);
    fx.write("main", "plain.md", "No tags, #123 is not one.\n");
}

fn read(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("note")
}

fn usage(list: &Value) -> BTreeMap<String, Value> {
    list["tags"]
        .as_array()
        .expect("tags")
        .iter()
        .map(|t| (t["tag"].as_str().unwrap().to_owned(), t.clone()))
        .collect()
}

#[test]
fn tags_are_counted_by_note_and_occurrence_with_a_rollup() {
    let fx = fixture(json!({}));
    tag_vault(&fx);
    let list = fx.ok("list_tags", json!({}));
    let tags = usage(&list);
    assert_eq!(
        tags.keys().collect::<Vec<_>>(),
        ["idea", "project", "project/alpha", "project/beta"]
    );
    assert_eq!(tags["idea"]["notes"], 1);
    assert_eq!(tags["idea"]["occurrences"], 2);
    assert_eq!(tags["idea"]["display"], "Idea");
    assert_eq!(tags["project"]["notes"], 2);
    assert_eq!(tags["project"]["frontmatter_notes"], 1);
    assert_eq!(tags["project"]["inline_notes"], 1);
    assert_eq!(tags["project"]["rollup_notes"], 2);
    assert_eq!(tags["project/beta"]["inline_notes"], 1);
    assert_eq!(list["notes_scanned"], 3);

    let note = fx.ok("get_note_tags", json!({"path": "one.md"}));
    assert_eq!(note["tags"], json!(["idea", "project", "project/alpha"]));
    assert_eq!(
        note["inline"][0],
        json!({"tag": "project", "key": "project", "line": 5})
    );
    assert_eq!(
        note["frontmatter"][1],
        json!({"tag": "Idea", "key": "idea"})
    );

    let found = fx.ok("find_notes_by_tag", json!({"tag": "#Project"}));
    assert_eq!(found["total_count"], 2);
    assert_eq!(
        found["notes"][1]["matched"],
        json!(["project", "project/beta"])
    );
    let exact = fx.ok(
        "find_notes_by_tag",
        json!({"tag": "project/alpha", "exact": true}),
    );
    assert_eq!(
        exact["notes"],
        json!([{"path": "one.md", "matched": ["project/alpha"]}])
    );
    let none = fx.ok("find_notes_by_tag", json!({"tag": "proj"}));
    assert_eq!(none["total_count"], 0, "proj is not a parent of project");
}

#[test]
fn add_and_remove_change_only_the_tags() {
    let fx = fixture(json!({}));
    tag_vault(&fx);
    let dry = fx.ok(
        "add_tag",
        json!({"path": "one.md", "tag": "new", "dry_run": true}),
    );
    assert_eq!(dry["changed"], true);
    assert!(dry["diff"].as_str().unwrap().contains("new"), "{dry}");
    assert_eq!(read(&fx, "one.md"), ONE, "a dry run writes nothing");

    let added = fx.ok("add_tag", json!({"path": "one.md", "tag": "#new"}));
    assert_eq!(added["frontmatter"], 1);
    let text = read(&fx, "one.md");
    assert!(text.starts_with("---\ntitle: One # kept\n"), "{text}");
    assert!(
        text.ends_with("---\nBody #project and #idea again.\n"),
        "{text}"
    );
    let note = fx.ok("get_note_tags", json!({"path": "one.md"}));
    assert_eq!(
        note["tags"],
        json!(["idea", "new", "project", "project/alpha"])
    );
    let again = fx.ok("add_tag", json!({"path": "one.md", "tag": "NEW"}));
    assert_eq!(again["changed"], false);

    let removed = fx.ok("remove_tag", json!({"path": "one.md", "tag": "new"}));
    assert_eq!(removed["frontmatter"], 1);
    let inline = fx.ok(
        "add_tag",
        json!({"path": "two.md", "tag": "later", "location": "inline"}),
    );
    assert_eq!(inline["inline"], 1);
    assert_eq!(read(&fx, "two.md"), format!("{TWO}#later\n"));
    fx.ok(
        "remove_tag",
        json!({"path": "two.md", "tag": "later", "location": "inline"}),
    );
    assert_eq!(read(&fx, "two.md"), format!("{TWO}\n"));

    let idea = fx.ok("remove_tag", json!({"path": "one.md", "tag": "idea"}));
    assert_eq!(
        (idea["frontmatter"].clone(), idea["inline"].clone()),
        (json!(1), json!(1))
    );
    assert!(read(&fx, "one.md").ends_with("---\nBody #project and again.\n"));

    let stale = fx.err(
        "add_tag",
        json!({"path": "two.md", "tag": "x", "expected_sha256": "0".repeat(64)}),
        ErrorCode::ConcurrentModification,
    );
    assert!(!stale.message.is_empty());
    fx.err(
        "add_tag",
        json!({"path": "two.md", "tag": "two words"}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn rename_covers_nested_tags_everywhere_after_a_dry_run() {
    let fx = fixture(json!({}));
    tag_vault(&fx);
    let dry = fx.ok("rename_tag", json!({"from": "project", "to": "work"}));
    assert_eq!(dry["dry_run"], true);
    assert_eq!(
        dry["notes"],
        json!([
            {"path": "one.md", "frontmatter": 1, "inline": 1},
            {"path": "two.md", "frontmatter": 1, "inline": 1}
        ])
    );
    assert_eq!(read(&fx, "one.md"), ONE, "the dry run writes nothing");
    let apply = json!({"from": "project", "to": "work", "dry_run": false});
    let asked = fx.err("rename_tag", apply.clone(), ErrorCode::ElicitRequired);
    assert_eq!(
        read(&fx, "one.md"),
        ONE,
        "nothing is written before the user confirms"
    );
    fx.approve_error(&asked);
    let done = fx.ok("rename_tag", apply);
    assert_eq!(done["tags_renamed"], 4);
    assert!(read(&fx, "two.md").ends_with("---\n#work/Beta here\n"));
    let tags = usage(&fx.ok("list_tags", json!({})));
    assert_eq!(
        tags.keys().collect::<Vec<_>>(),
        ["idea", "work", "work/alpha", "work/beta"]
    );
    let found = fx.ok("find_notes_by_tag", json!({"tag": "work"}));
    assert_eq!(
        found["total_count"], 2,
        "both renamed notes carry it: {found}"
    );
    fx.err(
        "rename_tag",
        json!({"from": "work", "to": "work/sub"}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn a_hidden_note_never_counts_and_blocks_nothing_it_cannot_see() {
    let fx = fixture(json!({"acl": {"readPaths": ["Public/**"], "writePaths": ["Public/**"]}}));
    fx.write("main", "Public/a.md", "#shared #open\n");
    fx.write("main", "Secret/s.md", "#shared #secret\n");
    let tags = usage(&fx.ok("list_tags", json!({})));
    assert_eq!(tags.keys().collect::<Vec<_>>(), ["open", "shared"]);
    assert_eq!(tags["shared"]["notes"], 1);
    let found = fx.ok("find_notes_by_tag", json!({"tag": "secret"}));
    assert_eq!(found["total_count"], 0);
    fx.err(
        "get_note_tags",
        json!({"path": "Secret/s.md"}),
        ErrorCode::AclDenied,
    );
    let apply = json!({"from": "shared", "to": "common", "dry_run": false});
    let asked = fx.err("rename_tag", apply.clone(), ErrorCode::ElicitRequired);
    assert!(
        !asked.details.to_string().contains("Secret"),
        "{}",
        asked.details
    );
    fx.approve_error(&asked);
    fx.ok("rename_tag", apply);
    assert_eq!(read(&fx, "Secret/s.md"), "#shared #secret\n");
    assert_eq!(read(&fx, "Public/a.md"), "#common #open\n");
}

#[test]
fn a_note_that_may_be_read_but_not_written_stops_the_whole_rename() {
    let fx = fixture(json!({"acl": {"writePaths": ["Inbox/**"]}}));
    fx.write("main", "Inbox/a.md", "#old\n");
    fx.write("main", "Archive/b.md", "#old\n");
    let error = fx.err(
        "rename_tag",
        json!({"from": "old", "to": "new", "dry_run": false}),
        ErrorCode::AclDenied,
    );
    assert_eq!(error.details["paths"], json!(["Archive/b.md"]));
    assert_eq!(read(&fx, "Inbox/a.md"), "#old\n", "nothing was renamed");
}

/// The frontmatter tags of a note, read independently: `tags:` followed by `- item` lines,
/// or `tags: [a, b]` / `tags: a`.
fn frontmatter_tags(text: &str) -> Vec<String> {
    let Some(rest) = text.strip_prefix("---\n") else {
        return Vec::new();
    };
    let block = rest.split("\n---").next().unwrap_or("");
    let mut lines = block.lines().peekable();
    let mut out = Vec::new();
    while let Some(line) = lines.next() {
        let Some(value) = line.strip_prefix("tags:") else {
            continue;
        };
        let value = value.trim();
        if value.is_empty() {
            while let Some(item) = lines.peek().and_then(|l| l.trim_start().strip_prefix("- ")) {
                out.push(item.trim().trim_matches('"').to_lowercase());
                lines.next();
            }
        } else {
            out.extend(
                value
                    .trim_matches(|c| c == '[' || c == ']')
                    .split(',')
                    .map(|t| t.trim().trim_matches('"').to_lowercase())
                    .filter(|t| !t.is_empty()),
            );
        }
    }
    out
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

fn md_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            if !entry.file_name().to_string_lossy().starts_with('.') {
                md_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

#[test]
fn kepano_tag_counts_match_an_independent_count() {
    let source = Path::new("/work/shared/vaults/kepano");
    if !source.is_dir() {
        eprintln!("kepano vault absent; skipped");
        return;
    }
    let fx = fixture(json!({}));
    copy_dir(source, &fx.vault_dir("main"));
    let mut files = Vec::new();
    md_files(&fx.vault_dir("main"), &mut files);
    let mut expected: BTreeMap<String, usize> = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("note");
        let mut tags = frontmatter_tags(&text);
        tags.sort();
        tags.dedup();
        for tag in tags {
            *expected.entry(tag).or_default() += 1;
        }
    }
    assert!(
        expected.len() >= 5,
        "kepano has frontmatter tags: {expected:?}"
    );
    let list = fx.ok("list_tags", json!({}));
    assert_eq!(list["notes_scanned"], files.len());
    let got = usage(&list);
    for (tag, notes) in &expected {
        assert_eq!(got[tag]["frontmatter_notes"], *notes, "{tag}");
    }
    let frontmatter_tags: Vec<&String> = got
        .iter()
        .filter(|(_, t)| t["frontmatter_notes"].as_u64() > Some(0))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(frontmatter_tags, expected.keys().collect::<Vec<_>>());
}
