//! `get_backlinks` and `get_outgoing_links` on the Obsidian help vault (copied, indexed by
//! the real indexer) agree with counts the test derives on its own from the files (a plain
//! scan in support::links, not the code under test): outgoing-link counts of the 20 notes
//! with the most links among those without code, comments, math or HTML (where a plain scan
//! is exact), and linking-note counts of the 20 notes the scan finds most linked.

use serde_json::json;

use crate::support::links::*;

/// Whether a plain scan reads `text`'s links exactly: no code, comments, math or HTML.
fn plain(text: &str) -> bool {
    !["`", "%%", "$$", "<"].iter().any(|m| text.contains(m))
}

#[test]
fn outgoing_counts_match_an_independent_scan() {
    let fx = fixture_with_copy(HELP_VAULT);
    let root = fx.vault_dir("main");
    let oracle = Oracle::scan(&root);
    let mut notes: Vec<(&String, usize)> = oracle
        .links
        .iter()
        .filter(|(path, _)| plain(&std::fs::read_to_string(root.join(path)).expect("note")))
        .map(|(path, links)| (path, links.len()))
        .collect();
    notes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    notes.truncate(20);
    assert_eq!(notes.len(), 20);
    assert!(notes[0].1 >= 5, "{notes:?}");
    for (path, expected) in notes {
        let out = fx.ok("get_outgoing_links", json!({"path": path}));
        let links = out["links"].as_array().expect("links");
        assert_eq!(links.len(), expected, "{path}: {out}");
        let resolved = oracle.links[path]
            .iter()
            .filter(|t| oracle.resolve(t, path).is_some())
            .count();
        assert_eq!(
            out["resolved_count"].as_u64(),
            Some(resolved as u64),
            "{path}: {out}"
        );
    }
}

#[test]
fn backlink_counts_match_an_independent_scan() {
    let fx = fixture_with_copy(HELP_VAULT);
    let oracle = Oracle::scan(&fx.vault_dir("main"));
    let mut notes: Vec<(String, usize)> = oracle
        .links
        .keys()
        .map(|path| (path.clone(), oracle.backlinks(path).len()))
        .collect();
    notes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    notes.truncate(20);
    assert!(notes[19].1 >= 2, "{notes:?}");
    for (path, expected) in notes {
        let items = all_items(&fx, "get_backlinks", json!({"path": path, "limit": 7}));
        let sources: std::collections::BTreeSet<String> = items
            .iter()
            .map(|b| b["source"].as_str().expect("source").to_owned())
            .collect();
        assert_eq!(sources, oracle.backlinks(&path), "{path}");
        assert_eq!(sources.len(), expected);
        for item in &items {
            for link in item["links"].as_array().expect("links") {
                let line = link["line"].as_u64().expect("line");
                if line > 0 {
                    assert!(
                        !link["context"].as_str().expect("context").is_empty(),
                        "{item}"
                    );
                }
            }
        }
    }
}

/// The link tools after each of a run of writes (links added to a note, a note rewritten
/// without its links, a note created, one deleted, an attachment appearing) agree with a
/// scan of the files as they are then: the kept link table is brought on, or rebuilt, by
/// every kind of change.
#[test]
fn link_counts_follow_a_run_of_writes() {
    let fx = fixture_with_copy(HELP_VAULT);
    let root = fx.vault_dir("main");
    let check = |path: &str, targets: &[&str]| {
        let oracle = Oracle::scan(&root);
        let out = fx.ok("get_outgoing_links", json!({"path": path}));
        assert_eq!(
            out["links"].as_array().expect("links").len(),
            oracle.links[path].len(),
            "{path}: {out}"
        );
        for target in targets {
            let sources: std::collections::BTreeSet<String> =
                all_items(&fx, "get_backlinks", json!({"path": target}))
                    .iter()
                    .map(|b| b["source"].as_str().expect("source").to_owned())
                    .collect();
            assert_eq!(sources, oracle.backlinks(target), "backlinks of {target}");
        }
    };
    let hub = "Home.md";
    assert!(root.join(hub).is_file(), "the help vault has {hub}");
    check(hub, &["Home.md"]);
    for round in 0..3 {
        fx.ok(
            "append_note",
            json!({"path": hub, "content": format!("\nSee [[Canvas]] and [[New {round}]].\n")}),
        );
        check(hub, &["Plugins/Canvas.md"]);
        fx.ok(
            "write_note",
            json!({"path": format!("New {round}.md"), "content": format!("Back to [[Home]] {round}\n")}),
        );
        check(
            &format!("New {round}.md"),
            &["Home.md", &format!("New {round}.md")],
        );
    }
    confirmed(
        &fx,
        "write_note",
        json!({"path": "New 0.md", "content": "No links now\n", "mode": "overwrite"}),
    )
    .expect("overwritten");
    check("New 0.md", &["Home.md", "New 0.md"]);
    confirmed(&fx, "delete_note", json!({"path": "New 1.md"})).expect("deleted");
    check(hub, &["Home.md"]);
    let out = fx.ok("get_outgoing_links", json!({"path": hub}));
    let to_new_1: Vec<&serde_json::Value> = out["links"]
        .as_array()
        .expect("links")
        .iter()
        .filter(|link| link["target"] == "New 1")
        .collect();
    assert!(
        !to_new_1.is_empty() && to_new_1.iter().all(|l| l["resolved_path"].is_null()),
        "{out}"
    );
    std::fs::write(root.join("diagram.png"), b"png").expect("attachment");
    fx.ok("index_vault", json!({}));
    fx.ok(
        "append_note",
        json!({"path": "New 2.md", "content": "![[diagram.png]]\n"}),
    );
    check("New 2.md", &["diagram.png"]);
}
