//! Excluded files (`vault/excluded.rs`) through the real dispatcher: Obsidian's "Excluded
//! files" (`userIgnoreFilters` in `.obsidian/app.json`) and `index.exclude` leave notes out
//! of search, listings, tags, tasks, graph, link and context tools, while `read_note` still
//! opens them and links to them still resolve; the setting off brings them back; a change to
//! `app.json` applies to the next call; a malformed file or entry is a warning, never a
//! failure.

use serde_json::{Value, json};

use crate::support::dispatch::Fixture;
use crate::support::logs::logged;

/// Text in the excluded notes only: a result that shows any of it shows an excluded note.
const MARKERS: [&str; 5] = [
    "Archive/",
    "Scratch draft",
    "archived-only",
    "draft-only",
    "hidden task",
];

fn fixture(index: Value) -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}, "index": index}));
    fx.write(
        "main",
        "Keep.md",
        "# Keep\n\nThe zeppelin keep note. #shared\n\n- [ ] visible task\n",
    );
    fx.write("main", "Linker.md", "Points to [[Old]] and [[Keep]].\n");
    fx.write(
        "main",
        "Archive/Old.md",
        "# Old\n\nThe zeppelin archived note. #shared #archived-only\n\n- [ ] hidden task one\n\n[[Keep]]\n",
    );
    fx.write(
        "main",
        "Scratch draft.md",
        "# Draft\n\nThe zeppelin draft note. #shared #draft-only\n\n- [ ] hidden task two\n\n[[Keep]]\n",
    );
    fx
}

fn set_filters(fx: &Fixture, app_json: &str) {
    fx.write("main", ".obsidian/app.json", app_json);
}

/// Every listing, search, tag, task, graph, link and context tool's answer on the fixture.
fn answers(fx: &Fixture) -> Vec<(&'static str, Value)> {
    fx.ok("index_vault", json!({}));
    let calls: [(&'static str, Value); 20] = [
        ("list_notes", json!({})),
        ("get_vault_tree", json!({})),
        ("search_vault", json!({"query": "zeppelin"})),
        ("search_vault", json!({"query": "zeppelin", "mode": "text"})),
        (
            "search_vault",
            json!({"query": "zeppel+in", "mode": "regex"}),
        ),
        (
            "search_vault",
            json!({"query": "zeppelin", "mode": "graph"}),
        ),
        ("search", json!({"query": "zeppelin"})),
        ("search_text", json!({"query": "zeppelin"})),
        ("search_regex", json!({"pattern": "zeppel+in"})),
        ("list_tags", json!({})),
        ("find_notes_by_tag", json!({"tag": "shared"})),
        ("list_tasks", json!({})),
        ("get_backlinks", json!({"path": "Keep.md"})),
        ("graph_centrality", json!({})),
        ("graph_neighbors", json!({"path": "Keep.md"})),
        ("get_context", json!({"query": "zeppelin"})),
        ("vault_context", json!({"query": "zeppelin"})),
        ("vault_graph_search", json!({"query": "zeppelin"})),
        ("find_orphans", json!({})),
        ("get_index_status", json!({})),
    ];
    calls
        .into_iter()
        .map(|(tool, args)| (tool, fx.ok(tool, args)))
        .collect()
}

fn shows_excluded(answer: &Value) -> Option<&'static str> {
    let text = answer.to_string();
    MARKERS.into_iter().find(|marker| text.contains(marker))
}

fn assert_hidden(fx: &Fixture) {
    for (tool, answer) in answers(fx) {
        assert_eq!(
            shows_excluded(&answer),
            None,
            "{tool} shows an excluded note: {answer}"
        );
    }
    let keep = fx
        .ok("search_vault", json!({"query": "zeppelin"}))
        .to_string();
    assert!(
        keep.contains("Keep.md"),
        "the other notes still show: {keep}"
    );
}

#[test]
fn excluded_folder_and_regex_are_left_out_of_every_listed_result() {
    let fx = fixture(json!({}));
    set_filters(
        &fx,
        r#"{"userIgnoreFilters": ["Archive/", "/ draft\\.md$/"]}"#,
    );
    assert_hidden(&fx);
    let tags = fx.ok("list_tags", json!({})).to_string();
    assert!(tags.contains("shared"), "{tags}");
    // Not an access control: a path named directly is read.
    let old = fx.ok("read_note", json!({"path": "Archive/Old.md"}));
    assert!(old["content"].as_str().unwrap().contains("archived note"));
    // An excluded note is still a link target: the link resolves, it is not broken.
    let outgoing = fx
        .ok("get_outgoing_links", json!({"path": "Linker.md"}))
        .to_string();
    assert!(outgoing.contains("Archive/Old.md"), "{outgoing}");
    let unresolved = fx.ok("find_unresolved_links", json!({})).to_string();
    assert!(!unresolved.contains("Old"), "{unresolved}");
}

#[test]
fn with_the_setting_off_excluded_notes_come_back() {
    let fx = fixture(json!({"obsidianExcludedFiles": false}));
    set_filters(
        &fx,
        r#"{"userIgnoreFilters": ["Archive/", "/ draft\\.md$/"]}"#,
    );
    for (tool, answer) in answers(&fx) {
        if ["list_notes", "search_vault", "search_text", "list_tasks"].contains(&tool) {
            let text = answer.to_string();
            assert!(
                text.contains("Archive/Old.md") && text.contains("Scratch draft.md"),
                "{tool} without the setting: {text}"
            );
        }
    }
}

#[test]
fn index_exclude_globs_leave_notes_out_the_same_way() {
    let fx =
        fixture(json!({"obsidianExcludedFiles": false, "exclude": ["Archive", "**/*draft.md"]}));
    assert_hidden(&fx);
}

#[test]
fn a_change_to_app_json_applies_to_the_next_call() {
    let fx = fixture(json!({}));
    let listed = |fx: &Fixture| fx.ok("list_notes", json!({})).to_string();
    let searched = |fx: &Fixture| {
        fx.ok("search_vault", json!({"query": "zeppelin"}))
            .to_string()
    };
    fx.ok("index_vault", json!({}));
    assert!(listed(&fx).contains("Archive/Old.md"));
    assert!(searched(&fx).contains("Archive/Old.md"));
    set_filters(
        &fx,
        r#"{"userIgnoreFilters": ["Archive/", "/ draft\\.md$/"]}"#,
    );
    assert_hidden(&fx);
    set_filters(&fx, r#"{"userIgnoreFilters": ["/ draft\\.md$/"]}"#);
    assert!(listed(&fx).contains("Archive/Old.md"));
    assert!(searched(&fx).contains("Archive/Old.md"));
    assert!(!searched(&fx).contains("Scratch draft"));
}

/// The settings file is read again only when its stamp changed, and a stamp within the
/// file system's clock tick proves nothing: two writes of the same length, one right after
/// the other, both apply.
#[test]
fn a_rewrite_of_the_same_length_right_away_still_applies() {
    let fx = fixture(json!({}));
    let listed = |fx: &Fixture| fx.ok("list_notes", json!({})).to_string();
    set_filters(&fx, r#"{"userIgnoreFilters": ["Archive/"]}"#);
    assert!(!listed(&fx).contains("Archive/Old.md"));
    set_filters(&fx, r#"{"userIgnoreFilters": ["Xrchive/"]}"#);
    assert!(listed(&fx).contains("Archive/Old.md"));
    set_filters(&fx, r#"{"userIgnoreFilters": ["Archive/"]}"#);
    assert!(!listed(&fx).contains("Archive/Old.md"));
}

#[test]
fn a_malformed_app_json_or_entry_is_a_warning_and_the_rest_applies() {
    let fx = fixture(json!({"exclude": ["Archive"]}));
    set_filters(&fx, "{\"userIgnoreFilters\": [");
    let (listed, logs) = logged(|| fx.ok("list_notes", json!({})).to_string());
    assert!(logs.contains("WARN") && logs.contains("app.json"), "{logs}");
    assert!(
        !listed.contains("Archive/"),
        "index.exclude still applies: {listed}"
    );
    assert!(listed.contains("Scratch draft.md"), "{listed}");
    // An entry this server cannot read is skipped; the others apply.
    set_filters(
        &fx,
        r#"{"userIgnoreFilters": ["/(?<=x)y/", "/ draft\\.md$/", 7]}"#,
    );
    let (listed, logs) = logged(|| fx.ok("list_notes", json!({})).to_string());
    assert!(logs.contains("(?<=x)y"), "{logs}");
    assert!(
        !listed.contains("Scratch draft") && !listed.contains("Archive/"),
        "{listed}"
    );
    assert!(listed.contains("Keep.md"), "{listed}");
    // Logged once per change, not on every call.
    let (_, again) = logged(|| fx.ok("list_notes", json!({})));
    assert!(!again.contains("(?<=x)y"), "{again}");
}
