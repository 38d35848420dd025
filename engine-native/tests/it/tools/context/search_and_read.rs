//! `search_and_read`, the original obsidian-tc's search-then-read: exact items on a small
//! vault (`vault_graph_search`'s order, each note's frontmatter, body, hash and size), heading
//! sections in mode `section`, the shared byte budget (a note over its share cut on a line
//! break and marked `truncated`), paging with a cursor bound to the caller and the arguments
//! (round trip equal to one big page), a vanished note as `note_not_found`, hidden notes never
//! ranked, walked or read, and hostile arguments refused.

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller, result_paths};

/// The byte governor's limit that leaves `room` bytes to the items (the context tools keep
/// 64 KiB back, `search_and_read` 1 KiB more for its frame).
fn limit_for(room: usize) -> usize {
    64 * 1024 + 1024 + room
}

fn fixture(extra: Value) -> Fixture {
    let mut config = json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Public/**"]}
    });
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    Fixture::new(config)
}

/// A note of `lines` lines of about 40 bytes, each mentioning `word`.
fn long(title: &str, word: &str, lines: usize) -> String {
    let mut text = format!("---\ntitle: {title}\n---\n# {title}\n\n");
    for i in 0..lines {
        text.push_str(&format!("The {word} line {i:03} with some filler text.\n"));
    }
    text
}

/// Public notes about zeppelins (one linking a hidden one), a note only a link reaches, a
/// bread note, hidden notes.
fn vault(fx: &Fixture, lines: usize) {
    fx.write(
        "main",
        "Public/Zeppelin.md",
        &(long("Zeppelin", "zeppelin zeppelin", lines) + "See [[Hangar]] and [[Plan]].\n"),
    );
    fx.write(
        "main",
        "Public/Hangar.md",
        &long("Hangar", "zeppelin", lines),
    );
    fx.write("main", "Public/Bread.md", "Sourdough bread and yeast.\n");
    fx.write("main", "Public/Dock.md", "Moored near the [[Hangar]].\n");
    fx.write(
        "main",
        "Secret/Plan.md",
        &long("Plan", "zeppelin zeppelin zeppelin", 5),
    );
    fx.write(
        "main",
        "Secret/Other.md",
        "Links [[Bread]] with zeppelin.\n",
    );
    fx.ok("index_vault", json!({}));
}

fn reader() -> Caller {
    caller("agent", &["read:notes"], None)
}

fn read(fx: &Fixture, args: Value) -> Value {
    fx.call(&reader(), "search_and_read", args)
        .result
        .expect("search_and_read")
}

fn file(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("read")
}

fn paths(found: &Value) -> Vec<String> {
    found["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .map(|note| note["path"].as_str().expect("path").to_owned())
        .collect()
}

#[test]
fn the_best_notes_are_read_whole_in_vault_graph_search_order() {
    let fx = fixture(json!({}));
    vault(&fx, 20);
    let got = read(&fx, json!({"query": "zeppelin", "k": 3}));
    let graph = fx
        .call(
            &reader(),
            "vault_graph_search",
            json!({"query": "zeppelin", "limit": 3}),
        )
        .result
        .expect("vault_graph_search");
    assert_eq!(paths(&got), result_paths(&graph), "{got}");
    assert_eq!(paths(&got)[..2], ["Public/Zeppelin.md", "Public/Hangar.md"]);
    assert_eq!(got["mode"], "note");
    assert_eq!(got["errors"], json!([]));
    assert_eq!(got["next_cursor"], Value::Null);
    let first = &got["notes"][0];
    let text = file(&fx, "Public/Zeppelin.md");
    let body = text
        .split_once("---\n# ")
        .map(|(_, rest)| format!("# {rest}"))
        .expect("body");
    assert_eq!(first["rank"], 1);
    assert_eq!(first["frontmatter"], json!({"title": "Zeppelin"}));
    assert_eq!(first["body"], body);
    assert_eq!(first["size_bytes"], body.len());
    assert_eq!(first["truncated"], false);
    assert_eq!(
        first["content_hash"],
        engine_core::hash::sha256_hex(text.as_bytes())
    );
    assert_eq!(first["score"], graph["results"][0]["score"]);
    assert_eq!(got["notes"][1]["rank"], 2);
    assert!(!got.to_string().contains("Secret"), "{got}");
}

#[test]
fn mode_section_reads_the_heading_section_each_hit_matched() {
    let fx = fixture(json!({}));
    let mut text = String::from(
        "# Intro\n\nNothing here.\n\n# Airships\n\nThe zeppelin flew.\n\n## Engines\n\nFour engines.\n\n# Bread\n\nYeast.\n",
    );
    text.push_str("\n# Hangars\n\nA zeppelin hangar, zeppelin sheds.\n");
    fx.write("main", "Public/Sections.md", &text);
    fx.write("main", "Public/Other.md", "Plain words.\n");
    fx.ok("index_vault", json!({}));
    let got = read(&fx, json!({"query": "zeppelin", "k": 2, "mode": "section"}));
    assert_eq!(got["mode"], "section");
    let notes = got["notes"].as_array().expect("notes");
    assert_eq!(notes.len(), 2, "{got}");
    let mut sections: Vec<(String, String)> = notes
        .iter()
        .map(|n| {
            (
                n["heading"].as_str().unwrap().to_owned(),
                n["body"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    sections.sort();
    assert_eq!(
        sections,
        [
            (
                "Airships".to_owned(),
                "# Airships\n\nThe zeppelin flew.\n\n## Engines\n\nFour engines.\n\n".to_owned()
            ),
            (
                "Hangars".to_owned(),
                "# Hangars\n\nA zeppelin hangar, zeppelin sheds.\n".to_owned()
            ),
        ]
    );
    assert!(
        notes
            .iter()
            .all(|n| n["path"] == "Public/Sections.md" && n["truncated"] == false)
    );
    assert_eq!(notes[0]["rank"], 1);
}

#[test]
fn a_note_over_its_share_of_the_budget_is_cut_on_a_line_and_marked() {
    let room = 6000;
    let fx = fixture(json!({"governor": {"maxResponseBytes": limit_for(room)}}));
    vault(&fx, 200);
    let got = read(&fx, json!({"query": "zeppelin", "k": 2}));
    assert_eq!(paths(&got), ["Public/Zeppelin.md", "Public/Hangar.md"]);
    assert_eq!(got["next_cursor"], Value::Null, "both fit, cut");
    for note in got["notes"].as_array().expect("notes") {
        let path = note["path"].as_str().expect("path");
        let text = file(&fx, path);
        let body = note["body"].as_str().expect("body");
        assert_eq!(note["truncated"], true, "{path}");
        let frontmatter = text.find("---\n# ").expect("frontmatter") + 4;
        assert_eq!(note["size_bytes"], text.len() - frontmatter, "{path}");
        assert!(
            text.contains(body) && body.ends_with('\n'),
            "{path}: cut on a line"
        );
        let bytes = serde_json::to_vec(note).expect("json").len();
        assert!(
            bytes <= room / 2 && bytes > room / 2 - 100,
            "{path}: {bytes} bytes"
        );
    }
    assert!(serde_json::to_vec(&got).expect("json").len() < limit_for(room));
}

#[test]
fn what_does_not_fit_pages_with_a_cursor_bound_to_the_caller_and_the_arguments() {
    let fx = fixture(json!({"governor": {"maxResponseBytes": limit_for(6000)}}));
    vault(&fx, 80);
    let args = json!({"query": "zeppelin", "k": 3, "max_bytes_per_item": 20000});
    let first = read(&fx, args.clone());
    assert_eq!(paths(&first), ["Public/Zeppelin.md"]);
    let cursor = first["next_cursor"]
        .as_str()
        .expect("a next page")
        .to_owned();
    let mut all = first["notes"].as_array().expect("notes").clone();
    let mut next = Some(cursor.clone());
    while let Some(cursor) = next {
        let mut paged = args.clone();
        paged["cursor"] = json!(cursor);
        let page = read(&fx, paged);
        all.extend(page["notes"].as_array().expect("notes").iter().cloned());
        next = page["next_cursor"].as_str().map(str::to_owned);
    }
    assert!(all.iter().all(|note| note["truncated"] == false));
    // The pages together are the one page a larger budget gives.
    let big = fixture(json!({}));
    vault(&big, 80);
    let whole = read(&big, args.clone());
    let strip = |notes: &[Value]| -> Vec<Value> {
        notes
            .iter()
            .map(|n| json!([n["path"], n["rank"], n["body"]]))
            .collect()
    };
    assert_eq!(
        strip(&all),
        strip(whole["notes"].as_array().expect("notes"))
    );
    assert_eq!(all.len(), 3);

    // The cursor serves only the same call of the same caller.
    let mut other = json!({"query": "zeppelin", "k": 2, "max_bytes_per_item": 20000});
    other["cursor"] = json!(cursor);
    fx.err_as(&reader(), "search_and_read", other, ErrorCode::InvalidInput);
    let mut same = args.clone();
    same["cursor"] = json!(cursor);
    let someone = caller("someone", &["read:notes"], None);
    fx.err_as(&someone, "search_and_read", same, ErrorCode::InvalidInput);
    for forged in ["1", "1.0000000000000000", "x.y"] {
        let mut forged_args = args.clone();
        forged_args["cursor"] = json!(forged);
        fx.err_as(
            &reader(),
            "search_and_read",
            forged_args,
            ErrorCode::InvalidInput,
        );
    }
}

#[test]
fn a_vanished_note_is_note_not_found_in_errors_with_its_rank() {
    let fx = fixture(json!({}));
    vault(&fx, 10);
    std::fs::remove_file(fx.vault_dir("main").join("Public/Zeppelin.md")).expect("remove");
    let got = read(&fx, json!({"query": "zeppelin", "k": 2}));
    assert_eq!(
        got["errors"],
        json!([{"rank": 1, "code": "note_not_found", "message": "note not found"}])
    );
    assert_eq!(paths(&got), ["Public/Hangar.md"]);
    assert_eq!(got["notes"][0]["rank"], 2);
}

#[test]
fn hidden_notes_are_never_ranked_walked_or_read() {
    let fx = fixture(json!({}));
    vault(&fx, 10);
    for mode in ["note", "section"] {
        let got = read(
            &fx,
            json!({"query": "zeppelin plan bread", "k": 20, "mode": mode}),
        );
        let text = got.to_string();
        assert!(
            !text.contains("Secret") && !text.contains("Plan.md"),
            "{mode}: {got}"
        );
        assert!(
            paths(&got).iter().all(|p| p.starts_with("Public/")),
            "{mode}"
        );
        assert_eq!(got["errors"], json!([]), "{mode}");
    }
}

#[test]
fn hostile_arguments_are_refused() {
    let fx = fixture(json!({}));
    vault(&fx, 5);
    for args in [
        json!({"query": ""}),
        json!({"query": "zeppelin", "k": 0}),
        json!({"query": "zeppelin", "k": 21}),
        json!({"query": "zeppelin", "max_bytes_per_item": 100}),
        json!({"query": "zeppelin", "mode": "chapter"}),
        json!({"query": "zeppelin", "cursor": ""}),
        json!({"query": "zeppelin", "path": "Secret/Plan.md"}),
        json!({"query": "x".repeat(2001)}),
    ] {
        fx.err_as(
            &reader(),
            "search_and_read",
            args.clone(),
            ErrorCode::ValidationError,
        );
    }
    let nothing = read(
        &fx,
        json!({"query": "\u{0}\u{202e}quasar ../../etc/passwd"}),
    );
    assert_eq!(nothing["notes"], json!([]));
    assert_eq!(nothing["next_cursor"], Value::Null);
}
