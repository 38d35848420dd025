//! `search_semantic` and `search_jsonlogic`, the original obsidian-tc's names for
//! `search_vault`'s modes `semantic` and `jsonlogic`: the answer is `search_vault`'s, the
//! original's argument names (`k`, `root`, `logic`) are taken, two different values for one
//! argument are refused, and without embeddings `search_semantic` refuses exactly as
//! `search_vault` does.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::index::semantic::with_model;
use crate::support::dispatch::{Fixture, caller, result_paths as paths};

fn animals(fx: &Fixture) {
    fx.write(
        "main",
        "Pets/Cats.md",
        "Felines purr, nap in the sun and chase mice.\n",
    );
    fx.write(
        "main",
        "Pets/Dogs.md",
        "Hounds bark, fetch sticks and guard the house.\n",
    );
    fx.write(
        "main",
        "Cars.md",
        "Engines, wheels, gearboxes and gasoline.\n",
    );
    fx.ok("index_vault", json!({}));
}

#[test]
fn search_semantic_is_search_vault_semantic_under_both_argument_names() {
    let fx = with_model(json!({}));
    animals(&fx);
    let ours = fx.ok(
        "search_vault",
        json!({"query": "kitten behaviour", "mode": "semantic", "limit": 2}),
    );
    assert_eq!(ours["mode"], "semantic");
    assert_eq!(paths(&ours)[0], "Pets/Cats.md", "{ours}");
    assert_eq!(paths(&ours).len(), 2);
    for args in [
        json!({"query": "kitten behaviour", "limit": 2}),
        json!({"query": "kitten behaviour", "k": 2}),
        json!({"query": "kitten behaviour", "k": 2, "limit": 2}),
    ] {
        assert_eq!(fx.ok("search_semantic", args.clone()), ours, "{args}");
    }
    let folder = fx.ok(
        "search_vault",
        json!({"query": "kitten behaviour", "mode": "semantic", "folder": "Pets"}),
    );
    assert_eq!(paths(&folder), ["Pets/Cats.md", "Pets/Dogs.md"]);
    assert_eq!(
        fx.ok(
            "search_semantic",
            json!({"query": "kitten behaviour", "root": "Pets"})
        ),
        folder
    );
    let refused = fx.err(
        "search_semantic",
        json!({"query": "kitten", "k": 2, "limit": 3}),
        ErrorCode::InvalidInput,
    );
    assert!(
        refused.message.contains("limit and k"),
        "{}",
        refused.message
    );
    fx.err(
        "search_semantic",
        json!({"query": "kitten", "folder": "Pets", "root": "Cars"}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn without_embeddings_search_semantic_refuses_as_search_vault_does() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    animals(&fx);
    let ours = fx
        .call(
            &obsidian_tc::auth::Caller::stdio(),
            "search_vault",
            json!({"query": "kitten", "mode": "semantic"}),
        )
        .result
        .expect_err("no embeddings");
    let theirs = fx.err("search_semantic", json!({"query": "kitten"}), ours.code);
    assert_eq!(theirs.message, ours.message);
    assert_eq!(theirs.recovery, ours.recovery);
}

fn projects() -> Fixture {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Projects/**", "Notes/**"]}
    }));
    fx.write(
        "main",
        "Projects/Moon.md",
        "---\nstatus: done\n---\n# Moon\n\nThe lander.\n",
    );
    fx.write(
        "main",
        "Projects/Mars.md",
        "---\nstatus: active\n---\n# Mars\n",
    );
    fx.write("main", "Notes/tiny.md", "---\nstatus: done\n---\nx\n");
    fx.write("main", "Secret/plan.md", "---\nstatus: done\n---\nhidden\n");
    fx.ok("index_vault", json!({}));
    fx
}

fn jsonlogic(fx: &Fixture, args: Value) -> Value {
    let reader = caller("agent", &["read:notes"], None);
    fx.call(&reader, "search_jsonlogic", args)
        .result
        .expect("search_jsonlogic")
}

#[test]
fn search_jsonlogic_is_search_vault_jsonlogic_with_the_rule_as_text_or_object() {
    let fx = projects();
    let rule = json!({"==": [{"var": "status"}, "done"]});
    let reader = caller("agent", &["read:notes"], None);
    let ours = fx
        .call(
            &reader,
            "search_vault",
            json!({"query": rule.to_string(), "mode": "jsonlogic"}),
        )
        .result
        .expect("search_vault");
    assert_eq!(
        paths(&ours),
        ["Notes/tiny.md", "Projects/Moon.md"],
        "the hidden note stays out"
    );
    for args in [
        json!({"query": rule.to_string()}),
        json!({"query": rule}),
        json!({"logic": rule}),
        json!({"query": rule, "logic": rule}),
    ] {
        assert_eq!(jsonlogic(&fx, args.clone()), ours, "{args}");
    }
    let projects = json!({"query": rule.to_string(), "mode": "jsonlogic", "folder": "Projects"});
    let ours = fx
        .call(&reader, "search_vault", projects)
        .result
        .expect("folder");
    assert_eq!(paths(&ours), ["Projects/Moon.md"]);
    assert_eq!(
        jsonlogic(&fx, json!({"logic": rule, "root": "Projects"})),
        ours
    );
}

#[test]
fn search_jsonlogic_refuses_a_missing_a_doubled_or_an_invalid_rule() {
    let fx = projects();
    let missing = fx.err("search_jsonlogic", json!({}), ErrorCode::InvalidInput);
    assert!(missing.message.contains("logic"), "{}", missing.message);
    fx.err(
        "search_jsonlogic",
        json!({"query": "true", "logic": {"==": [1, 1]}}),
        ErrorCode::InvalidInput,
    );
    let ours = fx
        .call(
            &obsidian_tc::auth::Caller::stdio(),
            "search_vault",
            json!({"query": "{\"nope\": [1]}", "mode": "jsonlogic"}),
        )
        .result
        .expect_err("an unknown operation");
    let theirs = fx.err(
        "search_jsonlogic",
        json!({"logic": {"nope": [1]}}),
        ours.code,
    );
    assert_eq!(theirs.message, ours.message);
    // The mode is the tool's: passing one is an unknown argument.
    let refused = fx
        .call(
            &obsidian_tc::auth::Caller::stdio(),
            "search_jsonlogic",
            json!({"query": "true", "mode": "text"}),
        )
        .result
        .expect_err("mode is not an argument");
    assert!(refused.message.contains("mode"), "{}", refused.message);
}
