//! The search index through the real tools (`index_vault`, `search_vault`,
//! `get_index_status`) on a real vault folder and a real `cache.db`: what a scan stores,
//! incremental rescans, pruning, recorded failures, the reopened snapshot, the writer lock
//! (refused while held, waited for when it ends soon), and ACL-filtered ranking without
//! under-fill.

use std::time::{Duration, Instant};

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::index::lock::WriterLock;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller, result_paths as paths};

fn fixture() -> Fixture {
    Fixture::new(json!({"throttle": {"enabled": false}}))
}

fn index(fx: &Fixture) -> Value {
    fx.ok("index_vault", json!({}))
}

fn search(fx: &Fixture, query: &str) -> Vec<String> {
    paths(&fx.ok("search_vault", json!({"query": query})))
}

const PROJECT: &str = "---\naliases: [Apollo]\ntags: [space, rocket]\nup: \"[[Index]]\"\n---\n# Moon program\n\nThe lunar lander needs [[Engines#Thrust]] and ![[diagram.png]].\n\n## Tasks\n\n- [ ] order fuel\n- [x] hire crew\n";

#[test]
fn a_scan_stores_every_note_and_search_finds_it_by_each_field() {
    let fx = fixture();
    fx.write("main", "Projects/Moon.md", PROJECT);
    fx.write("main", "Engines.md", "# Thrust\n\nKerosene burns hot.\n");
    fx.write("main", "Index.md", "Start here.\n");
    fx.write("main", "diagram.png", "not a note");
    let report = index(&fx);
    assert_eq!(report["added"], 3, "{report}");
    assert_eq!(report["failed"], 0);
    // body, title, alias, heading, tag
    for (query, want) in [
        ("lunar lander", "Projects/Moon.md"),
        ("moon", "Projects/Moon.md"),
        ("apollo", "Projects/Moon.md"),
        ("kerosene", "Engines.md"),
        ("rocket", "Projects/Moon.md"),
    ] {
        assert_eq!(
            search(&fx, query).first().map(String::as_str),
            Some(want),
            "{query}"
        );
    }
    let found = fx.ok(
        "search_vault",
        json!({"query": "lunar lander", "explain": true}),
    );
    let top = &found["results"][0];
    assert_eq!(top["title"], "Moon");
    assert_eq!(top["heading"], "Moon program");
    let snippet = top["snippet"]["text"].as_str().expect("snippet");
    let [start, end] =
        [0, 1].map(|i| top["snippet"]["highlights"][0][i].as_u64().unwrap() as usize);
    assert_eq!(&snippet[start..end], "lunar");
    assert!(
        found["routing"]
            .as_str()
            .expect("routing")
            .contains("lexical")
    );
    assert_eq!(found["coverage"]["scanning"], false);
}

#[test]
fn rescans_are_incremental_and_deleted_notes_are_pruned() {
    let fx = fixture();
    fx.write("main", "a.md", "alpha words\n");
    fx.write("main", "b.md", "bravo words\n");
    fx.write("main", "c.md", "charlie words\n");
    assert_eq!(index(&fx)["added"], 3);
    let again = index(&fx);
    assert_eq!(
        (again["unchanged"].as_u64(), again["added"].as_u64()),
        (Some(3), Some(0))
    );

    fx.write("main", "a.md", "alpha words\n"); // same bytes, new mtime
    fx.write("main", "b.md", "bravo zulu\n");
    std::fs::remove_file(fx.vault_dir("main").join("c.md")).expect("delete");
    fx.write("main", "d.md", "delta words\n");
    let report = index(&fx);
    assert_eq!(
        [
            &report["unchanged"],
            &report["updated"],
            &report["removed"],
            &report["added"]
        ],
        [&json!(1), &json!(1), &json!(1), &json!(1)],
        "{report}"
    );
    assert_eq!(search(&fx, "zulu"), ["b.md"]);
    assert!(search(&fx, "bravo words").iter().all(|p| p != "c.md"));
    assert!(
        search(&fx, "charlie").is_empty(),
        "a deleted note is never returned"
    );
}

#[test]
fn unreadable_notes_are_recorded_retried_and_reported() {
    let fx = fixture();
    std::fs::write(
        fx.vault_dir("main").join("binary.md"),
        [0xff, 0xfe, 0x00, 0x41],
    )
    .unwrap();
    fx.write(
        "main",
        "yaml.md",
        "---\nbad: [unclosed\n---\nbody about pelicans\n",
    );
    let report = index(&fx);
    assert_eq!(
        (report["failed"].as_u64(), report["added"].as_u64()),
        (Some(1), Some(1))
    );
    let status = fx.ok("get_index_status", json!({}));
    let failures = status["failures"].as_array().expect("failures");
    let stages: Vec<(&str, &str)> = failures
        .iter()
        .map(|f| (f["path"].as_str().unwrap(), f["stage"].as_str().unwrap()))
        .collect();
    assert_eq!(stages, [("binary.md", "read"), ("yaml.md", "frontmatter")]);
    // The note with broken frontmatter is still searchable by its body.
    assert_eq!(search(&fx, "pelicans"), ["yaml.md"]);
    // Retried on the next scan even though the file did not change.
    index(&fx);
    let status = fx.ok("get_index_status", json!({}));
    assert_eq!(status["failures"][0]["attempts"], 2, "{status}");
    // Fixed: indexed, failure cleared.
    fx.write("main", "binary.md", "now text about herons\n");
    fx.write(
        "main",
        "yaml.md",
        "---\nok: yes\n---\nbody about pelicans\n",
    );
    index(&fx);
    let status = fx.ok("get_index_status", json!({}));
    assert_eq!(status["failures"], json!([]));
    assert_eq!(search(&fx, "herons"), ["binary.md"]);
}

#[test]
fn a_reopened_cache_is_searchable_without_a_scan() {
    let fx = fixture();
    for i in 0..30 {
        fx.write(
            "main",
            &format!("n{i}.md"),
            &format!("# Note {i}\nword{i} shared text\n"),
        );
    }
    index(&fx);
    let before = search(&fx, "shared text");
    // A second server on the same config and cache: no index_vault call.
    let second = fx.reopen();
    let on_second = |query: &str| {
        let outcome = second.call(&Caller::stdio(), "search_vault", json!({"query": query}));
        paths(&outcome.result.expect("search on the reopened server"))
    };
    assert_eq!(on_second("shared text"), before);
    assert_eq!(on_second("word7"), ["n7.md"]);
}

#[test]
fn a_cache_of_an_older_build_reads_its_notes_without_chunks_again() {
    let fx = fixture();
    fx.write("main", "Kyoto.md", "---\ncountry: Japan\n---\n");
    fx.write("main", "Body.md", "# Body\n\nSome text.\n");
    index(&fx);
    assert_eq!(
        search(&fx, "kyoto"),
        ["Kyoto.md"],
        "a note without a body has a chunk"
    );
    // As a build from before note cards left the cache: no chunk for that note, schema 6.
    let db = fx
        .dir
        .path()
        .join(obsidian_tc::config::CACHE_DIR_NAME)
        .join("cache.db");
    let conn = rusqlite::Connection::open(&db).expect("cache.db");
    conn.execute("DELETE FROM chunks WHERE path = 'Kyoto.md'", [])
        .expect("delete");
    conn.pragma_update(None, "user_version", 6)
        .expect("version");
    drop(conn);
    let second = fx.reopen();
    let call = |tool: &str, args: Value| {
        second
            .call(&Caller::stdio(), tool, args)
            .result
            .expect(tool)
    };
    let report = call("index_vault", json!({}));
    assert_eq!(
        report["updated"], 1,
        "only the note without chunks is read: {report}"
    );
    assert_eq!(
        paths(&call("search_vault", json!({"query": "japan"}))),
        ["Kyoto.md"]
    );
}

/// A vault of one unindexed note, and its writer lock held as another process's scan would.
fn one_note_with_the_lock_held() -> (Fixture, WriterLock) {
    let fx = fixture();
    fx.write("main", "a.md", "alpha\n");
    let cache = fx.dir.path().join(".obsidian-tc");
    let held = WriterLock::try_acquire(&cache, "main")
        .expect("lock file")
        .expect("free");
    (fx, held)
}

#[test]
fn a_second_writer_is_refused_while_the_lock_is_held() {
    let (fx, held) = one_note_with_the_lock_held();
    let error = fx.err("index_vault", json!({}), ErrorCode::IndexBusy);
    assert!(error.message.contains("being indexed"), "{}", error.message);
    assert!(error.retryable, "{error}");
    assert!(error.recovery.contains("get_index_status"), "{error}");
    drop(held);
    assert_eq!(index(&fx)["added"], 1);
}

#[test]
fn index_vault_waits_for_a_scan_that_ends_soon() {
    let (fx, held) = one_note_with_the_lock_held();
    // Another process's scan (or this one's refresh after a write) ends within the wait.
    let release = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(400));
        drop(held);
    });
    let started = Instant::now();
    assert_eq!(
        index(&fx)["added"],
        1,
        "the scan ran once the lock was free"
    );
    assert!(
        started.elapsed() >= Duration::from_millis(300),
        "it waited for the lock: {:?}",
        started.elapsed()
    );
    release.join().expect("release");
}

#[test]
fn hidden_notes_never_show_and_never_shorten_the_page() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Public/**"]}
    }));
    // The hidden notes match best (the query words many times), the visible ones less.
    for i in 0..8 {
        fx.write(
            "main",
            &format!("Private/p{i}.md"),
            "comet comet comet comet tail\n",
        );
    }
    for i in 0..5 {
        fx.write(
            "main",
            &format!("Public/v{i}.md"),
            &format!("a comet {i}\n"),
        );
    }
    index(&fx);
    let reader = caller("agent", &["read:notes"], None);
    let found = fx.call(
        &reader,
        "search_vault",
        json!({"query": "comet", "limit": 3}),
    );
    let found = found.result.expect("search");
    let first = paths(&found);
    assert_eq!(first.len(), 3, "{found}");
    assert!(first.iter().all(|p| p.starts_with("Public/")), "{first:?}");
    let next = fx.call(
        &reader,
        "search_vault",
        json!({"query": "comet", "limit": 3, "cursor": found["cursor"]}),
    );
    let rest = paths(&next.result.expect("page 2"));
    assert_eq!(rest.len(), 2);
    let mut all: Vec<String> = first.into_iter().chain(rest).collect();
    all.sort();
    assert_eq!(
        all,
        (0..5)
            .map(|i| format!("Public/v{i}.md"))
            .collect::<Vec<_>>()
    );
}

#[test]
fn folder_narrows_and_a_bad_cursor_is_refused() {
    let fx = fixture();
    fx.write("main", "A/x.md", "kiwi\n");
    fx.write("main", "B/y.md", "kiwi\n");
    index(&fx);
    let found = fx.ok("search_vault", json!({"query": "kiwi", "folder": "B"}));
    assert_eq!(paths(&found), ["B/y.md"]);
    fx.err(
        "search_vault",
        json!({"query": "kiwi", "cursor": "zz"}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn reset_vault_cache_drops_the_index_and_the_next_scan_rebuilds_it() {
    let fx = fixture();
    fx.write("main", "a.md", "# Alpha\nwalrus\n");
    index(&fx);
    assert_eq!(search(&fx, "walrus"), ["a.md"]);
    let refused = fx.err("reset_vault_cache", json!({}), ErrorCode::ElicitRequired);
    fx.approve_error(&refused);
    let reset = fx.ok("reset_vault_cache", json!({}));
    // one chunk and the vault's index state
    assert_eq!(reset["deleted"]["search_index"], 2, "{reset}");
    assert!(
        search(&fx, "walrus").is_empty(),
        "the live index is dropped too"
    );
    assert_eq!(index(&fx)["added"], 1);
    assert_eq!(search(&fx, "walrus"), ["a.md"]);
}

#[test]
fn writes_through_the_tools_reach_the_index_at_once() {
    let fx = fixture();
    fx.write("main", "old.md", "# Old\nplatypus\n");
    index(&fx);
    fx.ok(
        "write_note",
        json!({"path": "new.md", "content": "echidna facts\n"}),
    );
    assert_eq!(search(&fx, "echidna"), ["new.md"]);
    fx.ok(
        "append_note",
        json!({"path": "new.md", "content": "\nwombat too\n"}),
    );
    assert_eq!(search(&fx, "wombat"), ["new.md"]);
    fx.ok("move_note", json!({"from": "old.md", "to": "renamed.md"}));
    assert_eq!(search(&fx, "platypus"), ["renamed.md"]);
    let refused = fx.err(
        "delete_note",
        json!({"path": "new.md"}),
        ErrorCode::ElicitRequired,
    );
    fx.approve_error(&refused);
    fx.ok("delete_note", json!({"path": "new.md"}));
    assert!(
        search(&fx, "echidna").is_empty(),
        "a deleted note is never returned"
    );
}
