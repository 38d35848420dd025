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
