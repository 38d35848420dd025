//! `search_vault`'s modes `text`, `regex`, `jsonlogic`, `graph` and `dql` through the real
//! dispatcher: what each finds and in what order, what `score` means, the routing text,
//! ACL filtering, and the typed errors (invalid rule, over-budget rule, DQL without TC
//! Bridge); DQL against a fake TC Bridge.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::companion::{DQL_TABLE, FakeCompanion, Mode, closed_url, companion_config};
use crate::support::dispatch::{Fixture, caller, result_paths as paths};

fn fixture() -> Fixture {
    Fixture::new(json!({"throttle": {"enabled": false}}))
}

fn search(fx: &Fixture, mode: &str, query: &str) -> Value {
    fx.ok(
        "search_vault",
        json!({"query": query, "mode": mode, "explain": true}),
    )
}

fn seeded() -> Fixture {
    let fx = fixture();
    fx.write(
        "main",
        "Projects/Moon.md",
        "---\nstatus: done\npriority: 3\ntags: [space]\n---\n# Moon\n\n## Lander\n\nThe lander, the LANDER, a lander.\nSee [[Mars]].\n",
    );
    fx.write(
        "main",
        "Projects/Mars.md",
        "---\nstatus: active\n---\n# Mars\n\nOne lander.\n",
    );
    fx.write("main", "Notes/tiny.md", "---\nstatus: done\n---\nx\n");
    fx.ok("index_vault", json!({}));
    fx
}

#[test]
fn text_mode_ranks_by_match_count_with_the_first_matching_line() {
    let fx = seeded();
    let found = search(&fx, "text", "lander");
    assert_eq!(found["mode"], "text");
    assert_eq!(paths(&found), ["Projects/Moon.md", "Projects/Mars.md"]);
    let top = &found["results"][0];
    // The heading `## Lander` and three times in its paragraph.
    assert_eq!(top["score"], 4.0);
    assert_eq!(top["heading"], "Moon > Lander");
    assert_eq!(top["title"], "Moon");
    assert_eq!(top["scores"], json!({"lexical": null, "semantic": null}));
    let text = top["snippet"]["text"].as_str().expect("snippet");
    assert_eq!(text, "## Lander", "the first matching line");
    assert_eq!(top["snippet"]["highlights"], json!([[3, 9]]));
    assert!(
        found["routing"]
            .as_str()
            .expect("routing")
            .contains("score is the match count")
    );
    assert_eq!(search(&fx, "text", "zebra")["results"], json!([]));
}

#[test]
fn regex_mode_finds_by_pattern_and_refuses_a_bad_one() {
    let fx = seeded();
    let found = search(&fx, "regex", r"^status: (done|active)$");
    assert_eq!(
        paths(&found),
        ["Notes/tiny.md", "Projects/Mars.md", "Projects/Moon.md"]
    );
    assert!(
        found["routing"]
            .as_str()
            .expect("routing")
            .contains("regular expression")
    );
    fx.err(
        "search_vault",
        json!({"query": "[a-", "mode": "regex"}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn jsonlogic_filters_on_frontmatter_and_file_facts() {
    let fx = seeded();
    let rule = json!({"and": [{"==": [{"var": "status"}, "done"]}, {">": [{"var": "size"}, 10]}]});
    let found = search(&fx, "jsonlogic", &rule.to_string());
    // tiny.md is done as well, and more than 10 bytes; Mars is active.
    assert_eq!(paths(&found), ["Notes/tiny.md", "Projects/Moon.md"]);
    assert!(
        found["results"]
            .as_array()
            .expect("results")
            .iter()
            .all(|r| r["score"] == 1.0)
    );
    let big =
        json!({"and": [{"==": [{"var": "status"}, "done"]}, {">": [{"var": "file.size"}, 40]}]});
    assert_eq!(
        paths(&search(&fx, "jsonlogic", &big.to_string())),
        ["Projects/Moon.md"]
    );
    for (rule, want) in [
        (
            json!({"in": ["space", {"var": "file.tags"}]}),
            vec!["Projects/Moon.md"],
        ),
        (
            json!({"==": [{"var": "file.folder"}, "Notes"]}),
            vec!["Notes/tiny.md"],
        ),
        (
            json!({">=": [{"var": "file.links"}, 1]}),
            vec!["Projects/Moon.md"],
        ),
        (
            json!({"==": [{"var": "title"}, "Mars"]}),
            vec!["Projects/Mars.md"],
        ),
        (
            json!({">=": [{"var": "priority"}, 2]}),
            vec!["Projects/Moon.md"],
        ),
    ] {
        assert_eq!(
            paths(&search(&fx, "jsonlogic", &rule.to_string())),
            want,
            "{rule}"
        );
    }
    assert!(
        search(&fx, "jsonlogic", "true")["routing"]
            .as_str()
            .expect("routing")
            .contains("jsonlogic")
    );
}

#[test]
fn jsonlogic_pages_and_hides_what_the_caller_may_not_read() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Public/**"]}
    }));
    for i in 0..4 {
        fx.write(
            "main",
            &format!("A/hidden{i}.md"),
            "---\nstatus: done\n---\n",
        );
    }
    for i in 0..3 {
        fx.write(
            "main",
            &format!("Public/v{i}.md"),
            "---\nstatus: done\n---\n",
        );
    }
    fx.ok("index_vault", json!({}));
    let reader = caller("agent", &["read:notes"], None);
    let rule = json!({"==": [{"var": "status"}, "done"]}).to_string();
    let first = fx
        .call(
            &reader,
            "search_vault",
            json!({"query": rule, "mode": "jsonlogic", "limit": 2}),
        )
        .result
        .expect("page 1");
    assert_eq!(paths(&first), ["Public/v0.md", "Public/v1.md"]);
    let next = fx
        .call(
            &reader,
            "search_vault",
            json!({"query": rule, "mode": "jsonlogic", "limit": 2, "cursor": first["cursor"]}),
        )
        .result
        .expect("page 2");
    assert_eq!(paths(&next), ["Public/v2.md"]);
    assert!(next.get("cursor").is_none());
    let text = fx
        .call(
            &reader,
            "search_vault",
            json!({"query": "status", "mode": "text"}),
        )
        .result
        .expect("text");
    assert_eq!(paths(&text).len(), 3, "{text}");
}

#[test]
fn an_invalid_or_over_budget_rule_is_a_typed_error() {
    let fx = seeded();
    let not_json = fx.err(
        "search_vault",
        json!({"query": "{status = done}", "mode": "jsonlogic"}),
        ErrorCode::InvalidInput,
    );
    assert!(
        not_json.message.contains("not a JSON value"),
        "{}",
        not_json.message
    );
    let unknown = fx.err(
        "search_vault",
        json!({"query": "{\"nope\": [1]}", "mode": "jsonlogic"}),
        ErrorCode::InvalidInput,
    );
    assert!(unknown.message.contains("invalid"), "{}", unknown.message);
    // 200 x 200 nested map: 40,000 operations per note, past the 10,000 budget.
    let range: Vec<u32> = (0..200).collect();
    let heavy = json!({"some": [
        {"map": [range, {"map": [range, {"var": ""}]}]},
        {"==": [{"var": ""}, -1]}
    ]});
    let error = fx.err(
        "search_vault",
        json!({"query": heavy.to_string(), "mode": "jsonlogic"}),
        ErrorCode::ComputeBudgetExceeded,
    );
    assert!(error.message.contains("operations"), "{}", error.message);
}

#[test]
fn dql_without_a_companion_is_plugin_missing_with_the_install_hint() {
    let fx = seeded();
    let error = fx.err(
        "search_vault",
        json!({"query": "LIST FROM \"Projects\"", "mode": "dql"}),
        ErrorCode::PluginMissing,
    );
    assert!(error.message.contains("TC Bridge"), "{}", error.message);
    assert_eq!(error.details["plugin"], "tc-bridge");
    assert!(
        error.recovery.contains("obsidian-tc plugin install"),
        "{}",
        error.recovery
    );
    assert!(!error.retryable);
}

#[test]
fn dql_with_a_companion_that_is_down_is_plugin_unreachable() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "vaults": [{"id": "main", "path": "main", "companion": companion_config(&closed_url())}]
    }));
    let error = fx.err(
        "search_vault",
        json!({"query": "LIST", "mode": "dql"}),
        ErrorCode::PluginUnreachable,
    );
    assert!(error.retryable);
}

#[test]
fn dql_gives_the_notes_the_query_names_in_its_order_readable_and_once() {
    let companion = FakeCompanion::start(Mode::Reachable);
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Projects/**", "Notes/**"]},
        "vaults": [{"id": "main", "path": "main", "companion": companion.config()}]
    }));
    fx.write("main", "Projects/Moon.md", "# Moon\n\nThe lander.\n");
    fx.write("main", "Projects/Mars.md", "# Mars\n\nRed.\n");
    fx.write("main", "Private/diary.md", "# Diary\n\nsecret\n");
    fx.write("main", "Notes/tiny.md", "- [ ] a task\n");
    fx.ok("index_vault", json!({}));
    let found = search(&fx, "dql", DQL_TABLE);
    assert_eq!(found["mode"], "dql");
    assert_eq!(
        paths(&found),
        ["Projects/Moon.md", "Projects/Mars.md", "Notes/tiny.md"],
        "the query's order, Private/ left out by the ACL, Mars once"
    );
    assert_eq!(found["results"][0]["title"], "Moon");
    assert_eq!(found["results"][0]["score"], 1.0);
    assert!(
        found["results"][0]["snippet"]["text"]
            .as_str()
            .expect("snippet")
            .contains("lander")
    );
    assert_eq!(
        companion.requests_to("/obsidian-tc/v1/dataview/dql"),
        vec![json!({"query": DQL_TABLE})]
    );
    // paging and folder narrowing apply to the rows
    let first = fx.ok(
        "search_vault",
        json!({"query": DQL_TABLE, "mode": "dql", "limit": 2}),
    );
    assert_eq!(paths(&first), ["Projects/Moon.md", "Projects/Mars.md"]);
    let cursor = first["cursor"].as_str().expect("a next page");
    let second = fx.ok(
        "search_vault",
        json!({"query": DQL_TABLE, "mode": "dql", "limit": 2, "cursor": cursor}),
    );
    assert_eq!(paths(&second), ["Notes/tiny.md"]);
    assert!(second["cursor"].is_null());
    let narrowed = fx.ok(
        "search_vault",
        json!({"query": DQL_TABLE, "mode": "dql", "folder": "Notes"}),
    );
    assert_eq!(paths(&narrowed), ["Notes/tiny.md"]);
}

#[test]
fn graph_mode_raises_the_matches_linked_with_the_best_one_and_lets_in_no_unrelated_note() {
    let fx = fixture();
    fx.write(
        "main",
        "Zeppelin.md",
        "# Zeppelin\n\nA zeppelin over the bay. See [[Hangar]] and [[Log]].\n",
    );
    fx.write(
        "main",
        "Hangar.md",
        "# Hangar\n\nThe zeppelin sleeps now.\n",
    );
    fx.write(
        "main",
        "Other.md",
        "# Other\n\nThe zeppelin zeppelin sleeps.\n",
    );
    fx.write("main", "Log.md", "# Log\n\nFlights of the day.\n");
    fx.write("main", "Unrelated.md", "# Unrelated\n\nNothing here.\n");
    fx.ok("index_vault", json!({}));

    let lexical = paths(&search(&fx, "lexical", "zeppelin"));
    assert_eq!(lexical, ["Zeppelin.md", "Other.md", "Hangar.md"]);

    let graph = search(&fx, "graph", "zeppelin");
    assert_eq!(graph["mode"], "graph");
    // The hangar, linked with the best match, passes the note that only says the word more;
    // the log is linked too but never says the word, so the gate keeps it out.
    assert_eq!(
        paths(&graph),
        ["Zeppelin.md", "Hangar.md", "Other.md"],
        "{graph}"
    );
    let seed = &graph["results"][0];
    assert!(seed["scores"]["lexical"].as_f64().is_some_and(|s| s > 0.0));
    let score = |at: usize| graph["results"][at]["score"].as_f64().expect("score");
    assert!(score(1) <= 1.0 && score(1) > score(2), "{graph}");
    assert!(
        graph["routing"]
            .as_str()
            .expect("routing")
            .starts_with("graph:")
    );
}
