//! `work_search`'s semantic channel through a remote embedding provider (a local mock of the
//! OpenAI API): with a provider and a query it takes part (`floor.semantic_used`); a failing
//! provider or none leaves the word matches.

use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};
use crate::support::embed::MockApi;

fn with_provider(api: &MockApi) -> Fixture {
    Fixture::new(json!({
        "throttle": {"enabled": false},
        "embeddings": api.provider_config()
    }))
}

fn search(fx: &Fixture, args: Value) -> Value {
    let alice = caller("alice", &["read:notes", "read:workspace"], None);
    match fx.call(&alice, "work_search", args).result {
        Ok(value) => value,
        Err(error) => panic!("work_search failed: {error}"),
    }
}

fn seed(fx: &Fixture) {
    let alice = caller("alice", &["read:notes"], None);
    for path in ["a.md", "b.md", "c.md"] {
        let _ = fx.call(&alice, "note_exists", json!({ "path": path }));
    }
}

#[test]
fn a_provider_adds_the_semantic_channel_and_a_failing_one_leaves_the_words() {
    let api = MockApi::start(3);
    let fx = with_provider(&api);
    seed(&fx);
    let args = json!({"query": "note_exists", "semantic": true});
    let fused = search(&fx, args.clone());
    assert_eq!(fused["floor"]["semantic_used"], true, "{fused}");
    assert_eq!(
        fused["results"].as_array().map(Vec::len),
        Some(3),
        "{fused}"
    );
    api.fail_with(&[500]);
    let words = search(&fx, args.clone());
    assert_eq!(words["floor"]["semantic_used"], false, "{words}");
    assert_eq!(
        words["results"].as_array().map(Vec::len),
        Some(3),
        "{words}"
    );
    let none = Fixture::new(json!({"throttle": {"enabled": false}}));
    seed(&none);
    assert_eq!(search(&none, args)["floor"]["semantic_used"], false);
    // Without a query there is nothing to rank by meaning.
    let plain = search(&fx, json!({"semantic": true}));
    assert_eq!(plain["floor"]["semantic_used"], false);
}
