//! The retrieval log (step 14): every ranked search tool logs once per call, with the chunks
//! it returned (their keys are the `chunk_id`s its results show), the caller, the caller's
//! open session and the tool; unranked modes and failed calls log nothing;
//! `retrievalLog.enabled: false` logs nothing; the rows survive a reset of the vault's cache
//! rows and go with the event log's retention.

use obsidian_tc::auth::Caller;
use obsidian_tc::store::LoggedRetrieval;
use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

const DAY_MS: u64 = 86_400_000;

/// A vault whose notes share the word `merger`, linked, with a memory entity; indexed.
fn seeded(extra: Value) -> Fixture {
    let fx = Fixture::new(extra);
    fx.write(
        "main",
        "alpha.md",
        "# Alpha\nThe merger of two clubs.\n\n## Later\nMore merger talk. See [[beta]].\n",
    );
    fx.write("main", "beta.md", "# Beta\nA merger, again. [[gamma]]\n");
    fx.write("main", "gamma.md", "# Gamma\nBread, linked from beta.\n");
    fx.write(
        "main",
        "Memory/merger.md",
        "---\ntype: concept\n---\n# merger\n\n## Observations\n\n- A merger of clubs\n",
    );
    fx.ok("index_vault", json!({}));
    fx
}

/// The stdio caller's logged searches in vault `main`, newest first.
fn logged(fx: &Fixture) -> Vec<LoggedRetrieval> {
    fx.server
        .runtime()
        .store()
        .retrievals()
        .recent("main", Caller::STDIO_ID, 1000)
        .expect("log")
}

/// The chunk ids (`None` where a result shows none) and paths a tool's answer shows, in its
/// order: the objects holding a `path` or `id`, at the nesting where each tool puts them.
fn shown(tool: &str, answer: &Value) -> Vec<(Option<String>, String)> {
    let list = |items: &Value, path_key: &str| -> Vec<(Option<String>, String)> {
        items
            .as_array()
            .expect("items")
            .iter()
            .map(|item| {
                (
                    item["chunk_id"].as_str().map(str::to_owned),
                    item[path_key].as_str().expect("path").to_owned(),
                )
            })
            .collect()
    };
    match tool {
        "get_context" | "vault_context" => answer["notes"]
            .as_array()
            .expect("notes")
            .iter()
            .flat_map(|note| {
                let path = note["path"].as_str().expect("path").to_owned();
                note["chunks"]
                    .as_array()
                    .expect("chunks")
                    .iter()
                    .map(move |chunk| (chunk["chunk_id"].as_str().map(str::to_owned), path.clone()))
            })
            .collect(),
        "search_and_read" => list(&answer["notes"], "path"),
        "search" => list(&answer["results"], "id"),
        "search_entities" => list(&answer["entities"], "path"),
        _ => list(&answer["results"], "path"),
    }
}

#[test]
fn each_ranked_tool_logs_once_per_call_with_the_chunks_it_returned() {
    let fx = seeded(json!({}));
    let calls = [
        ("search_vault", json!({"query": "merger"})),
        (
            "search_vault",
            json!({"query": "merger", "mode": "lexical", "limit": 1}),
        ),
        ("search_vault", json!({"query": "merger", "mode": "graph"})),
        ("search_entities", json!({"query": "merger"})),
        ("vault_graph_search", json!({"query": "merger"})),
        ("get_context", json!({"query": "merger"})),
        ("vault_context", json!({"query": "merger"})),
        ("search_and_read", json!({"query": "merger"})),
        (
            "search_and_read",
            json!({"query": "merger", "mode": "section"}),
        ),
        ("search", json!({"query": "merger"})),
    ];
    for (tool, args) in calls {
        let before = logged(&fx).len();
        fx.clock.advance(1000);
        let outcome = fx.call(&Caller::stdio(), tool, args.clone());
        let answer = outcome.result.expect("answer");
        let log = logged(&fx);
        assert_eq!(log.len(), before + 1, "{tool} {args}: one row per call");
        let row = &log[0];
        assert_eq!(row.surface, tool);
        assert_eq!(row.retrieval.query, "merger");
        assert_eq!(row.ts, fx.now_s());
        assert_eq!(row.session_id, None);
        let hits: Vec<(Option<String>, String)> = row
            .retrieval
            .hits
            .iter()
            .map(|hit| (hit.chunk_key.clone(), hit.path.clone()))
            .collect();
        let shown = shown(tool, &answer);
        assert!(!shown.is_empty(), "{tool} {args}: {answer}");
        assert_eq!(
            hits, shown,
            "{tool} {args}: the log is what the answer showed"
        );
        assert!(
            shown.iter().any(|(chunk, _)| chunk.is_some()),
            "{tool} {args}: chunk ids are shown"
        );
        for hit in &row.retrieval.hits {
            assert_eq!(hit.chunk_key.is_some(), hit.ordinal.is_some());
            assert_eq!(hit.chunk_key.is_some(), hit.chunk_row.is_some());
        }
        assert_eq!(row.feedback, vec![None; row.retrieval.hits.len()]);
    }
    // The same chunk has the same key whichever tool returned it.
    let first = fx.ok("search_vault", json!({"query": "clubs", "limit": 1}));
    let context = fx.ok("get_context", json!({"query": "clubs", "notes": 1}));
    assert_eq!(
        first["results"][0]["chunk_id"],
        context["notes"][0]["chunks"][0]["chunk_id"]
    );
}

#[test]
fn unranked_modes_failed_calls_and_other_tools_log_nothing() {
    let fx = seeded(json!({}));
    for (tool, args) in [
        ("search_vault", json!({"query": "merger", "mode": "text"})),
        ("search_vault", json!({"query": "mer+ger", "mode": "regex"})),
        ("search_text", json!({"query": "merger"})),
        ("read_note", json!({"path": "alpha.md"})),
    ] {
        assert!(
            fx.call(&Caller::stdio(), tool, args).result.is_ok(),
            "{tool}"
        );
    }
    // No embeddings: semantic search fails, and logs nothing.
    assert!(
        fx.call(
            &Caller::stdio(),
            "search_semantic",
            json!({"query": "merger"})
        )
        .result
        .is_err()
    );
    assert!(
        fx.call(
            &Caller::stdio(),
            "search_vault",
            json!({"query": "merger", "cursor": "x"})
        )
        .result
        .is_err()
    );
    assert!(logged(&fx).is_empty());
}

#[test]
fn the_callers_open_session_is_logged_with_the_search() {
    let fx = seeded(json!({}));
    let session = fx.ok("start_session", json!({"label": "work"}))["session_id"].clone();
    fx.ok("search_vault", json!({"query": "merger"}));
    fx.ok("end_session", json!({}));
    fx.ok("search_vault", json!({"query": "bread"}));
    let log = logged(&fx);
    assert_eq!(log[1].session_id.as_deref(), session.as_str());
    assert_eq!(log[0].session_id, None);
    // Another caller's search is its own row, never in the stdio caller's log.
    let other = crate::support::dispatch::caller("other", &["read:notes"], None);
    assert!(
        fx.call(&other, "search_vault", json!({"query": "merger"}))
            .result
            .is_ok()
    );
    assert_eq!(logged(&fx).len(), 2);
    let theirs = fx
        .server
        .runtime()
        .store()
        .retrievals()
        .recent("main", "other", 10)
        .expect("log");
    assert_eq!(theirs.len(), 1);
}

#[test]
fn with_the_setting_off_nothing_is_logged() {
    let fx = seeded(json!({"retrievalLog": {"enabled": false}}));
    for tool in [
        "search_vault",
        "vault_graph_search",
        "get_context",
        "search_and_read",
        "search",
    ] {
        fx.ok(tool, json!({"query": "merger"}));
    }
    assert!(logged(&fx).is_empty());
    // The answers still show chunk ids.
    let found = fx.ok("search_vault", json!({"query": "merger"}));
    assert!(found["results"][0]["chunk_id"].is_string(), "{found}");
}

#[test]
fn rows_survive_a_vault_cache_reset_and_go_with_the_event_logs_retention() {
    let fx = seeded(json!({"maintenance": {"eventLogRetentionDays": 2}}));
    fx.ok("search_vault", json!({"query": "merger"}));
    let store = fx.server.runtime().store();
    store.delete_vault_rows("main").expect("reset");
    let kept = logged(&fx);
    assert_eq!(kept.len(), 1);
    assert!(
        kept[0]
            .retrieval
            .hits
            .iter()
            .all(|hit| !hit.path.is_empty())
    );
    fx.clock.advance(DAY_MS);
    assert_eq!(
        fx.server.runtime().sweep_cache().expect("sweep").retrievals,
        0
    );
    fx.clock.advance(DAY_MS + 1000);
    assert_eq!(
        fx.server.runtime().sweep_cache().expect("sweep").retrievals,
        1
    );
    assert!(logged(&fx).is_empty());
}
