//! `session_bootstrap` through the dispatcher: each row of the triage table (no routing
//! table, no match, one domain, a deep phrase, three domains, an asked mode), the hand-off
//! note first, folders newest first, repeats loaded once, the `maxPaths` cap, content cut per
//! note and to the governor's limit, and hidden paths skipped with the words a missing one
//! gets.

use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

/// The routing table of the tests: three domains, one deep path.
fn routing(extra: Value) -> Value {
    let mut bootstrap = json!({
        "domains": [
            {"name": "garden", "signals": ["garden", "irrigation"], "paths": ["Garden/plan.md", "Garden/log"]},
            {"name": "tax", "signals": ["tax return"], "paths": ["Tax/2026.md", "Garden/plan.md"]},
            {"name": "cooking", "signals": ["recipe"], "paths": ["Kitchen/recipes.md"]}
        ],
        "deepPaths": ["Projects/overview.md"]
    });
    if let (Some(into), Value::Object(extra)) = (bootstrap.as_object_mut(), extra) {
        into.extend(extra);
    }
    bootstrap
}

/// A server whose vault `main` has `bootstrap`, with `root` merged into the config root.
fn fixture(bootstrap: Option<Value>, root: Value) -> Fixture {
    let mut main = json!({"id": "main", "path": "main"});
    if let Some(bootstrap) = bootstrap {
        main["bootstrap"] = bootstrap;
    }
    let mut config = json!({
        "throttle": {"enabled": false},
        "vaults": [main, {"id": "other", "path": "other"}]
    });
    if let (Some(into), Value::Object(root)) = (config.as_object_mut(), root) {
        into.extend(root);
    }
    let fx = Fixture::new(config);
    fx.write(
        "main",
        "_next-session.md",
        "---\nstatus: open\n---\nNext: water the tomatoes.\n",
    );
    fx.write("main", "Garden/plan.md", "# Plan\nBeds and paths.\n");
    fx.write("main", "Tax/2026.md", "# Tax 2026\n");
    fx.write("main", "Kitchen/recipes.md", "# Recipes\n");
    fx.write("main", "Projects/overview.md", "# Overview\n");
    for (at, name) in ["old", "middle", "new"].iter().enumerate() {
        let path = format!("Garden/log/{name}.md");
        fx.write("main", &path, &format!("# {name}\n"));
        let when = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000 + at as u64 * 60);
        std::fs::File::options()
            .write(true)
            .open(fx.vault_dir("main").join(&path))
            .expect("open")
            .set_modified(when)
            .expect("mtime");
    }
    fx
}

fn boot(fx: &Fixture, args: Value) -> Value {
    fx.ok("session_bootstrap", args)
}

fn loaded(answer: &Value) -> Vec<&str> {
    answer["loaded"]
        .as_array()
        .expect("loaded")
        .iter()
        .map(|note| note["path"].as_str().expect("path"))
        .collect()
}

fn skipped(answer: &Value) -> Vec<(String, String)> {
    answer["skipped"]
        .as_array()
        .expect("skipped")
        .iter()
        .map(|skip| {
            (
                skip["path"].as_str().expect("path").to_owned(),
                skip["reason"].as_str().expect("reason").to_owned(),
            )
        })
        .collect()
}

#[test]
fn without_a_routing_table_every_start_is_lightweight_with_the_handoff_note() {
    let fx = fixture(None, json!({}));
    for message in ["", "catch me up on the garden", "where did we leave off?"] {
        let got = boot(&fx, json!({"message": message}));
        assert_eq!(got["mode"], "lightweight", "{message}: {got}");
        assert_eq!(loaded(&got), ["_next-session.md"], "{got}");
        assert_eq!(got["matched_domains"], json!([]));
        assert_eq!(got["truncated"], false);
    }
    let got = boot(&fx, json!({}));
    let note = &got["loaded"][0];
    assert_eq!(note["content"], "Next: water the tomatoes.\n");
    assert_eq!(note["frontmatter"], json!({"status": "open"}));
    let read = fx.ok("read_note", json!({"path": "_next-session.md"}));
    assert_eq!(note["content_hash"], read["sha256"]);
    assert_eq!(note["truncated"], false);
}

#[test]
fn each_row_of_the_triage_table() {
    let fx = fixture(Some(routing(json!({}))), json!({}));
    // no domain's signal: lightweight
    let got = boot(&fx, json!({"message": "hello there"}));
    assert_eq!(got["mode"], "lightweight");
    assert_eq!(loaded(&got), ["_next-session.md"]);
    // signals match whole words only
    let got = boot(&fx, json!({"message": "my gardens and taxes"}));
    assert_eq!(got["mode"], "lightweight", "{got}");
    // one domain: standard, its notes, then its folder newest first
    let got = boot(&fx, json!({"message": "Fix the IRRIGATION please"}));
    assert_eq!(got["mode"], "standard");
    assert_eq!(got["matched_domains"], json!(["garden"]));
    assert_eq!(
        loaded(&got),
        [
            "_next-session.md",
            "Garden/plan.md",
            "Garden/log/new.md",
            "Garden/log/middle.md",
            "Garden/log/old.md"
        ]
    );
    // two domains: still standard, a path two domains share loaded once
    let got = boot(&fx, json!({"message": "garden and tax return"}));
    assert_eq!(got["mode"], "standard");
    assert_eq!(got["matched_domains"], json!(["garden", "tax"]));
    let paths = loaded(&got);
    assert_eq!(paths.len(), 6, "{paths:?}");
    assert_eq!(paths.iter().filter(|p| **p == "Garden/plan.md").count(), 1);
    assert!(paths.contains(&"Tax/2026.md"));
    // a deep phrase, case aside: the deep paths
    let got = boot(&fx, json!({"message": "OK, where did we LEAVE OFF?"}));
    assert_eq!(got["mode"], "deep");
    assert_eq!(got["matched_domains"], json!([]));
    assert_eq!(loaded(&got), ["_next-session.md", "Projects/overview.md"]);
    // three domains: deep, the deep paths then the domains' paths
    let got = boot(
        &fx,
        json!({"message": "garden, my tax return and a recipe"}),
    );
    assert_eq!(got["mode"], "deep");
    assert_eq!(got["matched_domains"], json!(["garden", "tax", "cooking"]));
    let paths = loaded(&got);
    assert_eq!(
        &paths[..3],
        ["_next-session.md", "Projects/overview.md", "Garden/plan.md"]
    );
    assert!(paths.contains(&"Kitchen/recipes.md"), "{paths:?}");
    // an asked mode overrides the triage
    let got = boot(&fx, json!({"message": "garden", "mode": "lightweight"}));
    assert_eq!(got["mode"], "lightweight");
    assert_eq!(got["matched_domains"], json!(["garden"]));
    assert_eq!(loaded(&got), ["_next-session.md"]);
    let got = boot(&fx, json!({"message": "hello", "mode": "deep"}));
    assert_eq!(loaded(&got), ["_next-session.md", "Projects/overview.md"]);
    let got = boot(&fx, json!({"message": "hello", "mode": "standard"}));
    assert_eq!(got["mode"], "standard");
    assert_eq!(loaded(&got), ["_next-session.md"]);
    // configured deep phrases replace the defaults
    let fx = fixture(
        Some(routing(json!({"deepPhrases": ["status report"]}))),
        json!({}),
    );
    assert_eq!(
        boot(&fx, json!({"message": "catch me up"}))["mode"],
        "lightweight"
    );
    assert_eq!(
        boot(&fx, json!({"message": "A status report"}))["mode"],
        "deep"
    );
}

#[test]
fn max_paths_caps_the_notes_loaded() {
    let fx = fixture(Some(routing(json!({"maxPaths": 3}))), json!({}));
    let got = boot(&fx, json!({"message": "garden tax return"}));
    assert_eq!(
        loaded(&got),
        ["_next-session.md", "Garden/plan.md", "Garden/log/new.md"]
    );
    assert_eq!(
        skipped(&got),
        [("Tax/2026.md".to_owned(), "max_paths".to_owned())]
    );
    assert_eq!(got["truncated"], false);
}

#[test]
fn content_is_cut_per_note_and_to_the_governor_limit() {
    // one note over the per-note cap
    let fx = fixture(Some(routing(json!({}))), json!({}));
    let long = "A line of the plan that goes on.\n".repeat(2000);
    fx.write("main", "Garden/plan.md", &long);
    let got = boot(&fx, json!({"message": "garden"}));
    let plan = &got["loaded"][1];
    assert_eq!(plan["path"], "Garden/plan.md");
    assert_eq!(plan["truncated"], true);
    let content = plan["content"].as_str().expect("content");
    assert!(
        content.len() <= 32 * 1024 && content.len() > 16 * 1024,
        "{}",
        content.len()
    );
    assert!(long.starts_with(content));
    assert_eq!(got["truncated"], true);
    let read = fx.ok("read_note", json!({"path": "Garden/plan.md"}));
    assert_eq!(
        plan["content_hash"], read["sha256"],
        "the whole note's hash"
    );

    // several notes against a small governor limit: the answer stays under it
    let limit = 64 * 1024 + 40_000;
    let fx = fixture(
        Some(routing(json!({}))),
        json!({"governor": {"maxResponseBytes": limit}}),
    );
    for name in ["old", "middle", "new"] {
        fx.write(
            "main",
            &format!("Garden/log/{name}.md"),
            &"x ".repeat(12_000),
        );
    }
    let call = fx.call(
        &obsidian_tc::auth::Caller::stdio(),
        "session_bootstrap",
        json!({"message": "garden"}),
    );
    let got = call.result.expect("no overflow");
    assert!(serde_json::to_vec(&got).expect("json").len() <= limit);
    assert_eq!(got["truncated"], true, "{got}");
    let kept: usize = got["loaded"]
        .as_array()
        .expect("loaded")
        .iter()
        .map(|note| note["content"].as_str().expect("content").len())
        .sum();
    assert!(kept > 30_000, "{kept}");
}

#[test]
fn hidden_and_missing_paths_are_skipped_alike() {
    let bootstrap = json!({
        "domains": [{"name": "all", "signals": ["all"], "paths": [
            "Secret/plan.md", "Secret/none.md", "Garden/none.md", "Secret", "Nowhere", "Garden/plan.md"
        ]}],
        "handoffNote": "Secret/_next-session.md"
    });
    let root = json!({"acl": {"readPaths": ["Garden/**"]}});
    let fx = fixture(Some(bootstrap.clone()), root.clone());
    fx.write("main", "Secret/plan.md", "# the secret plan\n");
    fx.write("main", "Secret/_next-session.md", "secret hand-off\n");
    let got = boot(&fx, json!({"message": "all"}));
    assert_eq!(loaded(&got), ["Garden/plan.md"]);
    let reasons = skipped(&got);
    let expected: Vec<(String, String)> = [
        "Secret/_next-session.md",
        "Secret/plan.md",
        "Secret/none.md",
        "Garden/none.md",
        "Secret",
        "Nowhere",
    ]
    .iter()
    .map(|path| ((*path).to_owned(), "not_found".to_owned()))
    .collect();
    assert_eq!(reasons, expected);
    // the same answer when nothing is in Secret/
    let empty = fixture(Some(bootstrap), root);
    assert_eq!(boot(&empty, json!({"message": "all"})), got);
    assert!(!got.to_string().contains("secret plan"));
}

#[test]
fn a_binary_note_is_not_text() {
    let fx = fixture(Some(json!({"deepPaths": ["Bin/blob.md"]})), json!({}));
    std::fs::create_dir_all(fx.vault_dir("main").join("Bin")).expect("dir");
    std::fs::write(
        fx.vault_dir("main").join("Bin/blob.md"),
        [0xff, 0xfe, 0x00, 0x80],
    )
    .expect("blob");
    let got = boot(&fx, json!({"mode": "deep"}));
    assert_eq!(
        skipped(&got),
        [("Bin/blob.md".to_owned(), "not_text".to_owned())]
    );
}
