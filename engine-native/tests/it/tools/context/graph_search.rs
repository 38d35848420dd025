//! `vault_graph_search` through the real dispatcher on a real vault and `cache.db`: links
//! expand the seeds both ways (a linked note lexical search ranks nowhere is found), `hops`
//! bounds the walk, each result says how it was reached, paging works, and a note the
//! caller may not read is never returned and never connects two notes it links.

use obsidian_tc::auth::Caller;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller, result_paths as paths};

fn fixture(extra: Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    Fixture::new(config)
}

/// Alpha matches the query; Beta (linked from Alpha), Delta (links to Alpha) and Gamma (two
/// links away) do not mention it.
fn chain(fx: &Fixture, folder: &str) {
    fx.write(
        "main",
        &format!("{folder}Alpha.md"),
        "Zeppelin airships crossed the ocean. See [[Beta]].\n",
    );
    fx.write(
        "main",
        &format!("{folder}Beta.md"),
        "Hydrogen is flammable; read [[Gamma|the helium note]].\n",
    );
    fx.write(
        "main",
        &format!("{folder}Gamma.md"),
        "Helium comes from gas wells.\n",
    );
    fx.write(
        "main",
        &format!("{folder}Delta.md"),
        "Museum visit notes, about [[Alpha]].\n",
    );
    fx.write(
        "main",
        &format!("{folder}Unrelated.md"),
        "Sourdough bread and yeast.\n",
    );
}

fn graph(fx: &Fixture, caller: &Caller, args: Value) -> Value {
    fx.call(caller, "vault_graph_search", args)
        .result
        .expect("vault_graph_search")
}

fn result<'a>(found: &'a Value, path: &str) -> &'a Value {
    found["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| r["path"] == path)
        .unwrap_or_else(|| panic!("{path} not in {found}"))
}

#[test]
fn links_reach_notes_lexical_search_ranks_nowhere_in_both_directions() {
    let fx = fixture(json!({}));
    chain(&fx, "");
    fx.ok("index_vault", json!({}));
    let lexical = paths(&fx.ok(
        "search_vault",
        json!({"query": "zeppelin", "mode": "lexical"}),
    ));
    assert_eq!(lexical, ["Alpha.md"], "only Alpha mentions the word");

    let found = graph(&fx, &Caller::stdio(), json!({"query": "zeppelin"}));
    assert_eq!(found["seeded_by"], "lexical");
    let mut got = paths(&found);
    assert_eq!(got[0], "Alpha.md", "{found}");
    got.sort();
    assert_eq!(got, ["Alpha.md", "Beta.md", "Delta.md"], "{found}");
    let alpha = result(&found, "Alpha.md");
    assert_eq!(alpha["hop"], 0);
    assert_eq!(alpha["scores"]["seed_rank"], 1);
    assert!(alpha["scores"]["lexical"].as_f64().expect("bm25") > 0.0);
    let beta = result(&found, "Beta.md");
    assert_eq!(beta["hop"], 1);
    assert_eq!(beta["title"], "Beta");
    assert_eq!(
        beta["via"],
        json!([{"seed": "Alpha.md", "path": ["Alpha.md", "Beta.md"]}])
    );
    assert!(beta["scores"]["seed_rank"].is_null());
    assert!(beta["scores"]["proximity"].as_f64().expect("mass") > 0.0);
    let delta = result(&found, "Delta.md");
    assert_eq!(
        delta["via"][0]["path"],
        json!(["Alpha.md", "Delta.md"]),
        "a backlink is followed too"
    );
}

#[test]
fn hops_bound_the_walk_and_farther_notes_rank_lower() {
    let fx = fixture(json!({}));
    chain(&fx, "");
    fx.ok("index_vault", json!({}));
    let one = paths(&graph(
        &fx,
        &Caller::stdio(),
        json!({"query": "zeppelin", "hops": 1}),
    ));
    assert!(!one.contains(&"Gamma.md".to_owned()), "{one:?}");
    let two = graph(
        &fx,
        &Caller::stdio(),
        json!({"query": "zeppelin", "hops": 2}),
    );
    let gamma = result(&two, "Gamma.md");
    assert_eq!(gamma["hop"], 2);
    assert_eq!(
        gamma["via"][0]["path"],
        json!(["Alpha.md", "Beta.md", "Gamma.md"])
    );
    let mass = |path: &str| {
        result(&two, path)["scores"]["proximity"]
            .as_f64()
            .expect(path)
    };
    assert!(
        mass("Gamma.md") > 0.0 && mass("Gamma.md") < mass("Beta.md"),
        "a farther note receives less: {two}"
    );
    let order = paths(&two);
    let at = |p: &str| order.iter().position(|x| x == p).expect(p);
    assert!(at("Beta.md") < at("Gamma.md"), "{order:?}");
    assert!(!order.contains(&"Unrelated.md".to_owned()));
    let refused = fx.call(
        &Caller::stdio(),
        "vault_graph_search",
        json!({"query": "zeppelin", "hops": 4}),
    );
    assert!(refused.result.is_err(), "hops above 3 are refused");
}

#[test]
fn results_page_with_the_cursor() {
    let fx = fixture(json!({}));
    chain(&fx, "");
    fx.ok("index_vault", json!({}));
    let args = json!({"query": "zeppelin", "hops": 2, "limit": 2});
    let first = graph(&fx, &Caller::stdio(), args.clone());
    assert_eq!(paths(&first).len(), 2);
    let mut next_args = args;
    next_args["cursor"] = first["cursor"].clone();
    let next = graph(&fx, &Caller::stdio(), next_args);
    assert!(next["cursor"].is_null(), "{next}");
    let mut all: Vec<String> = paths(&first).into_iter().chain(paths(&next)).collect();
    all.sort();
    assert_eq!(all, ["Alpha.md", "Beta.md", "Delta.md", "Gamma.md"]);
}

/// Alpha matches the query; the note in `Private/` links to Alpha and to Target.
fn bridged(fx: &Fixture) {
    fx.write(
        "main",
        "Public/Alpha.md",
        "Zeppelin airships crossed the ocean.\n",
    );
    fx.write(
        "main",
        "Private/Secret.md",
        "Zeppelin zeppelin zeppelin: [[Alpha]] and [[Target]].\n",
    );
    fx.write("main", "Public/Target.md", "Hangar measurements.\n");
    fx.ok("index_vault", json!({}));
}

#[test]
fn a_hidden_note_is_never_returned_and_never_bridges_two_visible_notes() {
    let reader = caller("agent", &["read:notes"], None);
    let args = json!({"query": "zeppelin", "hops": 3});
    // Without an ACL the note connects them.
    let open = fixture(json!({}));
    bridged(&open);
    let reached = paths(&graph(&open, &reader, args.clone()));
    assert!(
        reached.contains(&"Public/Target.md".to_owned()),
        "{reached:?}"
    );
    // With the note hidden (and matching the query best), neither it nor Target shows.
    let fx = fixture(json!({"acl": {"readPaths": ["Public/**"]}}));
    bridged(&fx);
    let found = graph(&fx, &reader, args);
    assert_eq!(paths(&found), ["Public/Alpha.md"], "{found}");
    assert!(!found.to_string().contains("Secret"), "{found}");
}
