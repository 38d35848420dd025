//! The graph analytics tools through the real dispatcher on small hand-made vaults with
//! known answers: shortest chains with edge kinds, neighbours, cycles, strength and
//! suggestions, centrality order, communities and the health score; and the ACL rule: a
//! hidden note is no node, counts nowhere and never connects two visible notes.

use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

fn fixture(extra: Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    Fixture::new(config)
}

/// A → B (wikilink), A ⇒ C (embed), B → C, B ⇒ D (frontmatter `up`), C → A, D → E
/// (markdown link), E → a missing note; F is an orphan.
fn chain_vault() -> Fixture {
    let fx = fixture(json!({}));
    fx.write("main", "A.md", "Go to [[B]].\n\n![[C]]\n");
    fx.write("main", "B.md", "---\nup: \"[[D]]\"\n---\nSee [[C]].\n");
    fx.write("main", "C.md", "Back to [[A]].\n");
    fx.write("main", "D.md", "Next [e](E.md).\n");
    fx.write("main", "E.md", "Dangling [[Missing]].\n");
    fx.write("main", "F.md", "Alone.\n");
    fx.ok("index_vault", json!({}));
    fx
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("array: {value}"))
        .iter()
        .map(|v| v.as_str().expect("string").to_owned())
        .collect()
}

#[test]
fn the_shortest_chain_names_each_link_kind() {
    let fx = chain_vault();
    let found = fx.ok(
        "graph_path_between",
        json!({"from": "A.md", "to": "E.md", "direction": "out"}),
    );
    assert_eq!(found["found"], true, "{found}");
    assert_eq!(strings(&found["path"]), ["A.md", "B.md", "D.md", "E.md"]);
    let kinds: Vec<Value> = found["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kinds"].clone())
        .collect();
    assert_eq!(
        kinds,
        [
            json!(["wikilink"]),
            json!(["frontmatter_relation"]),
            json!(["markdown"])
        ]
    );
    let back = fx.ok(
        "graph_path_between",
        json!({"from": "E.md", "to": "A.md", "direction": "out"}),
    );
    assert_eq!(back["found"], false, "{back}");
    let either = fx.ok("graph_path_between", json!({"from": "E.md", "to": "A.md"}));
    assert_eq!(either["hops"], 3, "{either}");
    assert_eq!(either["steps"][0]["direction"], "backward");
    let short = fx.ok(
        "graph_path_between",
        json!({"from": "A.md", "to": "E.md", "max_hops": 2}),
    );
    assert_eq!(short["found"], false);
    fx.err(
        "graph_path_between",
        json!({"from": "A.md", "to": "Nope.md"}),
        obsidian_tc::errors::ErrorCode::NotFound,
    );
}

#[test]
fn neighbours_follow_hops_direction_and_kinds() {
    let fx = chain_vault();
    let near = fx.ok("graph_neighbors", json!({"path": "A.md"}));
    let paths: Vec<&str> = near["neighbors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["B.md", "C.md"]);
    let out2 = fx.ok(
        "graph_neighbors",
        json!({"path": "A.md", "hops": 2, "direction": "out"}),
    );
    let hops: Vec<(String, u64)> = out2["neighbors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["path"].as_str().unwrap().to_owned(),
                n["hop"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        hops,
        [("B.md".into(), 1), ("C.md".into(), 1), ("D.md".into(), 2)]
    );
    let embeds = fx.ok(
        "graph_neighbors",
        json!({"path": "A.md", "hops": 3, "direction": "out", "kinds": ["embed"]}),
    );
    assert_eq!(embeds["total_count"], 1, "{embeds}");
    assert_eq!(embeds["neighbors"][0]["path"], "C.md");
}

#[test]
fn cycles_are_found_once_each_in_a_stable_order() {
    let fx = chain_vault();
    let found = fx.ok("find_link_cycles", json!({}));
    assert_eq!(
        found["cycles"],
        json!([["A.md", "B.md", "C.md"], ["A.md", "C.md"]]),
        "{found}"
    );
    assert_eq!(found["complete"], true);
    let long = fx.ok("find_link_cycles", json!({"min_length": 3}));
    assert_eq!(long["cycles"], json!([["A.md", "B.md", "C.md"]]));
    let one = fx.ok("find_link_cycles", json!({"limit": 1}));
    assert_eq!(one["cycles"].as_array().unwrap().len(), 1);
    assert_eq!(one["complete"], false);
}

#[test]
fn strength_and_suggestions_explain_themselves() {
    let fx = fixture(json!({}));
    // Hub links X and Y (co-citation); X and Y both link Z (shared neighbour); X links Y.
    fx.write("main", "Hub.md", "[[X]] [[Y]]\n");
    fx.write("main", "X.md", "[[Y]] [[Z]]\n");
    fx.write("main", "Y.md", "[[Z]]\n");
    fx.write("main", "Z.md", "end\n");
    fx.ok("index_vault", json!({}));
    let got = fx.ok("get_link_strength", json!({"a": "X.md", "b": "Y.md"}));
    assert_eq!(got["direct"]["value"], 0.5);
    assert_eq!(got["co_citation"]["value"], 1.0);
    assert_eq!(strings(&got["co_citation"]["evidence"]), ["Hub.md"]);
    assert_eq!(got["shared_neighbors"]["value"], 1.0);
    assert_eq!(got["score"], 0.75);
    let none = fx.ok("get_link_strength", json!({"a": "Hub.md", "b": "Z.md"}));
    assert_eq!(none["score"], 0.0);
    // Hub already links X and Y; Z is two hops away through both.
    let hub = fx.ok("suggest_links", json!({"path": "Hub.md"}));
    assert_eq!(hub["suggestions"][0]["path"], "Z.md", "{hub}");
    assert_eq!(hub["suggestions"][0]["score"], 2);
    assert_eq!(hub["suggestions"].as_array().unwrap().len(), 1);
    // Y is linked by Hub, which also links X: X is co-cited with Y (Y does not link X).
    let y = fx.ok("suggest_links", json!({"path": "Y.md"}));
    assert_eq!(
        strings(&y["suggestions"][0]["co_cited_by"]),
        ["Hub.md"],
        "{y}"
    );
    assert_eq!(y["suggestions"][0]["path"], "X.md");
}

#[test]
fn centrality_ranks_the_hub_first_and_communities_split_two_cliques() {
    let fx = fixture(json!({}));
    for spoke in ["s1", "s2", "s3", "s4"] {
        fx.write("main", &format!("{spoke}.md"), "[[Hub]]\n");
    }
    fx.write("main", "Hub.md", "[[s1]]\n");
    fx.ok("index_vault", json!({}));
    let pr = fx.ok("graph_centrality", json!({"limit": 2}));
    assert_eq!(pr["notes"][0]["path"], "Hub.md", "{pr}");
    assert_eq!(pr["notes"][1]["path"], "s1.md", "{pr}");
    assert_eq!(pr["total_notes"], 5);
    let total: f64 = fx.ok("graph_centrality", json!({}))["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["pagerank"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    let degree = fx.ok("graph_centrality", json!({"measure": "degree", "limit": 1}));
    assert_eq!(degree["notes"][0]["in_degree"], 4);
    assert_eq!(degree["notes"][0]["out_degree"], 1);

    let fx = fixture(json!({}));
    for (group, names) in [("p", ["p1", "p2", "p3"]), ("q", ["q1", "q2", "q3"])] {
        for name in names {
            let links: Vec<String> = names
                .iter()
                .filter(|other| **other != name)
                .map(|other| format!("[[{other}]]"))
                .collect();
            let bridge = if name == "p3" { " [[q1]]" } else { "" };
            fx.write(
                "main",
                &format!("{group}/{name}.md"),
                &format!("{}{bridge}\n", links.join(" ")),
            );
        }
    }
    fx.write("main", "lonely.md", "nothing\n");
    fx.ok("index_vault", json!({}));
    let first = fx.ok("graph_communities", json!({}));
    assert_eq!(
        first["communities"],
        json!([
            {"id": 1, "size": 3, "members": ["p/p1.md", "p/p2.md", "p/p3.md"], "internal_links": 3},
            {"id": 2, "size": 3, "members": ["q/q1.md", "q/q2.md", "q/q3.md"], "internal_links": 3}
        ]),
        "{first}"
    );
    assert_eq!(first["total_communities"], 2);
    let modularity = first["modularity"].as_f64().unwrap();
    assert!((modularity - 5.0 / 14.0).abs() < 1e-9, "{modularity}");
    assert_eq!(
        fx.ok("graph_communities", json!({})),
        first,
        "deterministic"
    );
    let all = fx.ok("graph_communities", json!({"min_size": 1}));
    assert_eq!(all["total_communities"], 3);
}

#[test]
fn the_health_score_breaks_down_orphans_unresolved_hubs_and_cycles() {
    let fx = chain_vault();
    let health = fx.ok("vault_health_score", json!({}));
    let parts = &health["breakdown"];
    assert_eq!(health["notes"], 6);
    assert_eq!(parts["orphans"]["count"], 1);
    assert_eq!(strings(&health["orphan_examples"]), ["F.md"]);
    // Links written: A 2, B 2, C 1, D 1, E 1 (the missing one).
    assert_eq!(parts["unresolved_links"]["count"], 1);
    assert_eq!(parts["unresolved_links"]["ratio"], 1.0 / 7.0);
    assert_eq!(parts["cycles"]["count"], 1);
    assert_eq!(parts["hubs"]["count"], 0);
    let penalty = 40.0 / 6.0 + 30.0 / 7.0 + 15.0 / 6.0;
    assert_eq!(health["score"], (100.0_f64 - penalty).round() as u64);
}

/// Public/A → Secret/S → Public/B: only the hidden note joins A and B.
fn bridged(fx: &Fixture) {
    fx.write("main", "Public/A.md", "[[S]]\n");
    fx.write("main", "Secret/S.md", "[[B]]\n");
    fx.write("main", "Public/B.md", "b\n");
    fx.ok("index_vault", json!({}));
}

#[test]
fn a_hidden_note_neither_appears_nor_counts_nor_connects() {
    let open = fixture(json!({}));
    bridged(&open);
    let through = open.ok(
        "graph_path_between",
        json!({"from": "Public/A.md", "to": "Public/B.md"}),
    );
    assert_eq!(
        strings(&through["path"]),
        ["Public/A.md", "Secret/S.md", "Public/B.md"]
    );

    let fx = fixture(json!({"acl": {"readPaths": ["Public/**"]}}));
    bridged(&fx);
    let blocked = fx.ok(
        "graph_path_between",
        json!({"from": "Public/A.md", "to": "Public/B.md"}),
    );
    assert_eq!(blocked["found"], false, "{blocked}");
    let near = fx.ok("graph_neighbors", json!({"path": "Public/A.md", "hops": 3}));
    assert_eq!(near["total_count"], 0, "{near}");
    let pr = fx.ok("graph_centrality", json!({}));
    assert_eq!(pr["total_notes"], 2);
    let health = fx.ok("vault_health_score", json!({}));
    assert_eq!(health["notes"], 2);
    assert_eq!(health["breakdown"]["orphans"]["count"], 2, "{health}");
    assert_eq!(health["breakdown"]["unresolved_links"]["count"], 0);
    let suggestions = fx.ok("suggest_links", json!({"path": "Public/A.md"}));
    assert_eq!(suggestions["suggestions"], json!([]));
    let strength = fx.ok(
        "get_link_strength",
        json!({"a": "Public/A.md", "b": "Public/B.md"}),
    );
    assert_eq!(strength["score"], 0.0);
    let communities = fx.ok("graph_communities", json!({"min_size": 1}));
    for tool in [&pr, &health, &communities, &near, &blocked] {
        assert!(!tool.to_string().contains("Secret"), "{tool}");
    }
    fx.err(
        "graph_neighbors",
        json!({"path": "Secret/S.md"}),
        obsidian_tc::errors::ErrorCode::AclDenied,
    );
}
