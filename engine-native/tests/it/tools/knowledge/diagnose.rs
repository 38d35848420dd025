//! `diagnose_retrieval` on the real Obsidian help vault (`../shared/vaults/obsidian-help-en`,
//! read in place; skipped when absent): it names the stage that dropped a note hidden by the
//! ACL (to a caller with `admin:acl` only: to others the note is exactly a missing one), a
//! note the query's words miss, and a note ranked past the page, and its ranks are the
//! search's own.

use std::path::Path;

use obsidian_tc::auth::Caller;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

const HELP_VAULT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/vaults/obsidian-help-en"
);

/// The help vault served in place as `main`, `Obsidian Sync/` readable only with
/// `read:secret`, indexed; `None` when the vault is not there.
fn help_vault() -> Option<Fixture> {
    if !Path::new(HELP_VAULT).is_dir() {
        eprintln!("skipped: {HELP_VAULT} is missing");
        return None;
    }
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "vaults": [{"id": "main", "path": HELP_VAULT}],
        "acl": {"rules": [{"glob": "Obsidian Sync/**", "scopes": ["read:secret"]}]}
    }));
    fx.ok("index_vault", json!({}));
    Some(fx)
}

fn diagnose(fx: &Fixture, who: &Caller, args: Value) -> Value {
    match fx.call(who, "diagnose_retrieval", args).result {
        Ok(value) => value,
        Err(error) => panic!("diagnose_retrieval failed: {error}"),
    }
}

/// `search_vault`'s page for `query` in `mode`.
fn search(fx: &Fixture, who: &Caller, query: &str, mode: &str, limit: usize) -> Value {
    fx.call(
        who,
        "search_vault",
        json!({"query": query, "mode": mode, "limit": limit}),
    )
    .result
    .expect("search")
}

fn stage<'a>(found: &'a Value, name: &str) -> &'a Value {
    found["stages"]
        .as_array()
        .and_then(|stages| stages.iter().find(|stage| stage["stage"] == name))
        .unwrap_or_else(|| panic!("no stage {name} in {found}"))
}

const SYNC_NOTE: &str = "Obsidian Sync/Sync regions.md";

#[test]
fn a_note_hidden_by_the_acl_is_dropped_at_acl_for_an_acl_admin_only() {
    let Some(fx) = help_vault() else { return };
    let admin = caller("admin", &["read:notes", "admin:acl"], None);
    let agent = caller("agent", &["read:notes"], None);
    let args = json!({"query": "sync regions", "path": SYNC_NOTE});
    let seen = diagnose(&fx, &admin, args.clone());
    assert_eq!(seen["dropped_at"], "acl", "{seen}");
    assert_eq!(seen["returned"], false);
    assert_eq!(seen["stages"][0]["stage"], "acl");
    assert!(
        stage(&seen, "acl")["chunks_present"].as_u64() > Some(0),
        "{seen}"
    );
    // The reader with the scope sees it returned (the same query, nothing else changed).
    let reader = caller("reader", &["read:notes", "read:secret", "admin:acl"], None);
    let readable = diagnose(&fx, &reader, args.clone());
    assert_eq!(readable["returned"], true, "{readable}");
    assert_eq!(stage(&readable, "acl")["present"], true);
    // To a caller without admin:acl the hidden note is exactly a note that does not exist.
    let hidden = diagnose(&fx, &agent, args);
    let missing = "Obsidian Sync/No such note.md";
    let absent = diagnose(
        &fx,
        &agent,
        json!({"query": "sync regions", "path": missing}),
    );
    assert_eq!(hidden["dropped_at"], "lexical", "{hidden}");
    assert!(hidden["stages"].as_array().is_some_and(|stages| {
        stages
            .iter()
            .all(|stage| stage["stage"] != "acl" && stage["present"] == false)
    }));
    let as_missing = serde_json::to_string(&hidden)
        .expect("json")
        .replace(SYNC_NOTE, missing);
    assert_eq!(as_missing, absent.to_string());
}

#[test]
fn a_note_without_the_querys_words_is_dropped_at_lexical() {
    let Some(fx) = help_vault() else { return };
    let agent = caller("agent", &["read:notes"], None);
    let found = diagnose(
        &fx,
        &agent,
        json!({"query": "callout", "path": "User interface/Ribbon.md"}),
    );
    assert_eq!(found["mode"], "lexical", "no embeddings: auto is lexical");
    assert_eq!(found["dropped_at"], "lexical", "{found}");
    let lexical = stage(&found, "lexical");
    assert_eq!(lexical["chunks_present"], 0);
    assert!(lexical["candidates_out"].as_u64() > Some(0), "{found}");
    assert!(
        found["summary"]
            .as_str()
            .is_some_and(|s| s.contains("no readable indexed chunk")),
        "{found}"
    );
}

#[test]
fn a_note_ranked_past_the_page_is_dropped_at_paging_at_the_searchs_rank() {
    let Some(fx) = help_vault() else { return };
    let agent = caller("agent", &["read:notes"], None);
    let page = search(&fx, &agent, "plugin settings", "lexical", 12);
    let tenth = page["results"][9]["path"].as_str().expect("a tenth result");
    let found = diagnose(
        &fx,
        &agent,
        json!({"query": "plugin settings", "path": tenth, "final_top_k": 5}),
    );
    assert_eq!(found["dropped_at"], "paging", "{found}");
    let paging = stage(&found, "paging");
    assert_eq!(paging["rank"], 10, "the search's own rank: {found}");
    assert_eq!(paging["candidates_out"], 5);
    assert_eq!(stage(&found, "lexical")["present"], true);
    // With a page deep enough it is returned, at the same rank.
    let returned = diagnose(
        &fx,
        &agent,
        json!({"query": "plugin settings", "path": tenth, "final_top_k": 10}),
    );
    assert_eq!(returned["returned"], true, "{returned}");
    assert_eq!(returned["dropped_at"], Value::Null);
}

#[test]
fn graph_mode_ranks_as_search_vaults_graph_mode() {
    let Some(fx) = help_vault() else { return };
    let agent = caller("agent", &["read:notes"], None);
    let page = search(&fx, &agent, "canvas", "graph", 20);
    let results = page["results"].as_array().expect("results");
    assert!(results.len() >= 10, "{page}");
    for (at, hit) in results.iter().enumerate().take(10) {
        let path = hit["path"].as_str().expect("path");
        let found = diagnose(
            &fx,
            &agent,
            json!({"query": "canvas", "path": path, "mode": "graph", "final_top_k": 20}),
        );
        assert_eq!(found["mode"], "graph");
        assert_eq!(found["returned"], true, "{found}");
        assert_eq!(stage(&found, "graph")["rank"], at + 1, "{found}");
        assert_eq!(stage(&found, "graph")["score"], hit["score"], "{found}");
    }
}
