//! The note-quality pass and its report through the dispatcher: nothing before the pass; the
//! pass measures chunks, duplicated passages, links in and out, retrievals, age and open
//! contradictions, and flags and scores each note; the flag filter and the limit; a caller
//! under the folder ACL gets the notes it may read measured over those notes only (the same
//! whatever the hidden notes hold) and may not run the pass; the command line's pass (for the
//! server itself) is the same pass.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, START_MS, caller};

const DAY_S: u64 = 86_400;
const SHARED: &str =
    "This paragraph is copied word for word into two different notes of the vault.";

fn report(fx: &Fixture, args: Value) -> Value {
    fx.ok("note_quality_report", args)
}

fn row<'a>(report: &'a Value, path: &str) -> &'a Value {
    report["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .find(|row| row["path"] == path)
        .unwrap_or_else(|| panic!("{path} not in {report}"))
}

fn paths(report: &Value) -> Vec<&str> {
    report["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .map(|row| row["path"].as_str().expect("path"))
        .collect()
}

/// Sets the modification time of every file of `vault` to `days` before the clock's start.
fn age_files(fx: &Fixture, vault: &str, days: u64) {
    let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(START_MS / 1000 - days * DAY_S);
    for entry in walk(&fx.vault_dir(vault)) {
        let file = std::fs::File::options()
            .write(true)
            .open(&entry)
            .expect("open");
        file.set_modified(at).expect("mtime");
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

fn seed(fx: &Fixture, vault: &str) {
    fx.write(
        vault,
        "Public/Hub.md",
        "# Hub\nSee [[Public/Copy]] and [[Public/Lone]].\n",
    );
    fx.write(vault, "Public/Copy.md", &format!("# Copy\n{SHARED}\n"));
    fx.write(
        vault,
        "Public/Lone.md",
        "# Lone\nNothing links here but the hub.\n",
    );
    fx.write(vault, "Public/Island.md", "# Island\nNo links at all.\n");
}

#[test]
fn the_pass_measures_flags_and_scores_each_note() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    seed(&fx, "main");
    // Copy's section, word for word, and a section of its own.
    fx.write(
        "main",
        "Other.md",
        &format!("# Copy\n{SHARED}\n\n## See\n[[Public/Island]]\n"),
    );
    age_files(&fx, "main", 400);
    fx.ok("index_vault", json!({}));
    // Nothing measured yet: an empty report, not an error.
    let empty = report(&fx, json!({}));
    assert_eq!(empty["total"], 0, "{empty}");
    assert_eq!(empty["view"], "stored");
    // A search returns notes: the retrieval log.
    fx.ok("search_vault", json!({"query": "hub"}));
    fx.clock.advance(100 * DAY_S * 1000);
    let pass = fx.ok("compute_note_quality", json!({}));
    assert_eq!(pass["notes"], 5, "{pass}");
    assert_eq!(pass["measured"], 5);
    assert_eq!(pass["complete"], true);
    let all = report(&fx, json!({}));
    assert_eq!(all["total"], 5, "{all}");
    assert_eq!(
        paths(&all),
        [
            "Other.md",
            "Public/Copy.md",
            "Public/Hub.md",
            "Public/Island.md",
            "Public/Lone.md"
        ]
    );
    let copy = row(&all, "Public/Copy.md");
    assert_eq!(copy["chunk_count"], 1, "{copy}");
    assert_eq!(copy["dup_chunk_count"], 1);
    assert_eq!(copy["dup_ratio"], 1.0);
    assert_eq!(copy["in_degree"], 1);
    assert_eq!(copy["out_degree"], 0);
    assert_eq!(copy["age_days"], 500);
    let hub = row(&all, "Public/Hub.md");
    assert_eq!(hub["out_degree"], 2, "{hub}");
    assert_eq!(hub["in_degree"], 0);
    assert_eq!(hub["retrievals"], 1);
    assert!(hub["last_retrieved_at"].is_i64());
    // The hub: orphan, not edited for 500 days, retrieved 100 days ago.
    assert_eq!(
        hub["flags"],
        json!(["orphan", "stale_edit", "stale_access"])
    );
    assert_eq!(hub["quality_score"], 0.55);
    assert_eq!(
        copy["flags"],
        json!(["duplicate", "stale_edit", "stale_access"])
    );
    assert_eq!(copy["quality_score"], 0.5);
    // The flag filter and the limit.
    let dups = report(&fx, json!({"flags": ["duplicate"]}));
    assert_eq!(paths(&dups), ["Other.md", "Public/Copy.md"]);
    let one = report(&fx, json!({"flags": ["orphan", "duplicate"], "limit": 1}));
    assert_eq!(one["total"], 3, "{one}");
    assert_eq!(paths(&one), ["Other.md"]);
    // A deleted note leaves the report at the next pass.
    std::fs::remove_file(fx.vault_dir("main").join("Other.md")).expect("delete");
    fx.ok("index_vault", json!({}));
    fx.ok("compute_note_quality", json!({}));
    let after = report(&fx, json!({}));
    assert_eq!(after["total"], 4, "{after}");
    assert_eq!(row(&after, "Public/Copy.md")["dup_chunk_count"], 0);
    // Bad input changes nothing.
    fx.err(
        "note_quality_report",
        json!({"limit": 501}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "note_quality_report",
        json!({"flags": ["tombstoned"]}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "compute_note_quality",
        json!({"budget_ms": 5}),
        ErrorCode::ValidationError,
    );
}

/// The report a caller under `readPaths: Public/**` gets after an operator's pass, with
/// `secret` in `Secret/` (hidden notes linking to and copying public ones, or not).
fn restricted_report(secret: bool) -> Value {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Public/**"]}
    }));
    seed(&fx, "main");
    if secret {
        fx.write(
            "main",
            "Secret/Spy.md",
            &format!("# Copy\n{SHARED}\n\n## See\n[[Public/Island]] [[Public/Hub]]\n"),
        );
    }
    let reader = caller("reader", &["read:notes", "admin:vault"], None);
    fx.err_as(
        &reader,
        "compute_note_quality",
        json!({}),
        ErrorCode::AclDenied,
    );
    // The operator's pass (the command line's, for the server itself).
    let server = fx.server.runtime();
    let served = server.served();
    let entry = &served.vaults()[0];
    server
        .indexes()
        .scan(
            server.store(),
            "main",
            &entry.vault,
            fx.now_s(),
            &mut |_, _| {},
            &|_| true,
        )
        .expect("scan");
    let far = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let pass = server
        .measure_notes(entry, far, &mut |_, _| {})
        .expect("pass");
    assert_eq!(pass.notes, if secret { 5 } else { 4 });
    // The stored rows count every note: the hidden copy and links are in them.
    let stored = server.store().note_quality().rows("main").expect("rows");
    let copy = stored
        .iter()
        .find(|row| row.path == "Public/Copy.md")
        .expect("copy");
    let island = stored
        .iter()
        .find(|row| row.path == "Public/Island.md")
        .expect("island");
    assert_eq!(
        (copy.dup_chunk_count, island.in_degree),
        if secret { (1, 1) } else { (0, 0) }
    );
    match fx.call(&reader, "note_quality_report", json!({})).result {
        Ok(value) => value,
        Err(error) => panic!("note_quality_report failed: {error}"),
    }
}

#[test]
fn a_restricted_caller_sees_its_notes_measured_over_what_it_may_read() {
    let without = restricted_report(false);
    let with = restricted_report(true);
    assert_eq!(with["view"], "caller", "{with}");
    assert_eq!(
        paths(&with),
        [
            "Public/Copy.md",
            "Public/Hub.md",
            "Public/Island.md",
            "Public/Lone.md"
        ]
    );
    // The hidden note's links and copied paragraph count for nothing.
    assert_eq!(row(&with, "Public/Island.md")["in_degree"], 0);
    assert_eq!(row(&with, "Public/Copy.md")["dup_chunk_count"], 0);
    assert_eq!(with, without);
}
