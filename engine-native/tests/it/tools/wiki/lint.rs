//! `lint_wiki`: each check's proposals on the fixture wiki (orphans, unresolved links,
//! stale pages, missing sources, the generated index, uncovered raw sources), the checks
//! whose data another tool owns listed in `skipped`, near-duplicates by note vectors with
//! the test model (skipped without embeddings), the per-check limit, and nothing written.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use super::{wiki, with_model};
use crate::support::dispatch::snapshot;

fn subjects(linted: &Value, kind: &str) -> Vec<String> {
    linted["proposals"]
        .as_array()
        .expect("proposals")
        .iter()
        .filter(|p| p["kind"] == kind)
        .map(|p| p["subject"].as_str().expect("subject").to_owned())
        .collect()
}

#[test]
fn each_check_proposes_what_its_data_shows() {
    let fx = wiki(json!({}));
    fx.write("main", "raw/uncited.md", "# Uncited\n");
    fx.write("main", "Wiki/Lonely.md", "---\ntype: concept\nsources: [\"[[raw/bakery-visit]]\"]\n---\n# Lonely\n\nSee [[Missing Topic]].\n");
    // The bakery visit changes after the Lonely page: stale.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(fx.vault_dir("main").join("raw/bakery-visit.md"))
        .expect("open")
        .set_modified(later)
        .expect("touch");
    fx.ok("index_vault", json!({}));
    let before = snapshot(&fx.vault_dir("main"));
    let linted = fx.ok("lint_wiki", json!({"limit_per_check": 50}));
    assert_eq!(
        snapshot(&fx.vault_dir("main")),
        before,
        "lint writes nothing"
    );
    assert_eq!(linted["read_only"], true);
    let orphans = subjects(&linted, "orphan");
    assert!(
        orphans.contains(&"Wiki/Lonely.md".to_owned()),
        "{orphans:?}"
    );
    assert!(
        !orphans.contains(&"Wiki/Fermentation.md".to_owned()),
        "linked from the journal"
    );
    assert!(
        !orphans.contains(&"Wiki/Sourdough Bread.md".to_owned()),
        "linked from Fermentation"
    );
    assert_eq!(subjects(&linted, "unresolved_link"), vec!["Wiki/Lonely.md"]);
    // Both pages citing the bakery visit are older than it now.
    assert_eq!(
        subjects(&linted, "stale"),
        vec!["Wiki/Lonely.md", "Wiki/Sourdough Bread.md"]
    );
    let missing = subjects(&linted, "missing_sources");
    assert!(
        missing.contains(&"Wiki/Ada Lovelace.md".to_owned()),
        "{missing:?}"
    );
    assert!(
        missing.contains(&"Wiki/Tide.md".to_owned()),
        "sources: [] is missing"
    );
    assert!(!missing.contains(&"Wiki/Photosynthesis.md".to_owned()));
    assert_eq!(subjects(&linted, "generated_page"), vec!["Wiki/index.md"]);
    assert_eq!(subjects(&linted, "coverage_gap"), vec!["raw/uncited.md"]);
    let skipped: Vec<&str> = linted["skipped"]
        .as_array()
        .expect("skipped")
        .iter()
        .map(|s| s["check"].as_str().expect("check"))
        .collect();
    assert_eq!(
        skipped,
        vec!["near_duplicates", "contradictions", "note_quality", "gaps"]
    );
    assert_eq!(
        linted["summary"]["total"],
        linted["proposals"].as_array().expect("p").len()
    );
    assert_eq!(linted["summary"]["by_kind"]["stale"], 2);
}

#[test]
fn the_limit_per_check_truncates_and_unknown_checks_are_refused() {
    let fx = wiki(json!({}));
    let linted = fx.ok(
        "lint_wiki",
        json!({"checks": ["missing_sources"], "limit_per_check": 2}),
    );
    assert_eq!(linted["checks_run"], json!(["missing_sources"]));
    assert_eq!(linted["proposals"].as_array().expect("p").len(), 2);
    assert_eq!(linted["truncated"], true);
    fx.err(
        "lint_wiki",
        json!({"checks": ["spelling"]}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn near_duplicates_come_from_note_vectors() {
    let fx = wiki(with_model());
    fx.write(
        "main",
        "Wiki/Tides.md",
        "---\ntype: concept\nsources: []\n---\n# Tides\n\nThe rise and fall of sea levels caused by the gravity of the Moon and the Sun acting on the\noceans, usually twice a day.\n",
    );
    fx.ok("index_vault", json!({}));
    let linted = fx.ok("lint_wiki", json!({"checks": ["near_duplicates"]}));
    let pairs: Vec<(String, String)> = linted["proposals"]
        .as_array()
        .expect("p")
        .iter()
        .map(|p| {
            (
                p["subject"].as_str().expect("s").to_owned(),
                p["related"][0].as_str().expect("r").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        pairs,
        vec![("Wiki/Tide.md".to_owned(), "Wiki/Tides.md".to_owned())],
        "{linted}"
    );
    assert!(
        linted["proposals"][0]["evidence"]["cosine"]
            .as_f64()
            .expect("cos")
            >= 0.92
    );
    assert_eq!(linted["judge"]["used"], false);
    let bounded = fx.ok(
        "lint_wiki",
        json!({"checks": ["near_duplicates"], "max_notes": 3}),
    );
    assert_eq!(bounded["truncated"], true);
    assert!(
        bounded["notes"][0]
            .as_str()
            .expect("note")
            .contains("first 3 of")
    );
}
