//! `find_capability` by words and meaning through a remote embedding provider (a local mock
//! of the OpenAI API): the catalog is embedded once, each query once, and a provider that
//! fails leaves the ranking by words instead of failing the call.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::support::dispatch::Fixture;
use crate::support::embed::MockApi;

fn with_provider(api: &MockApi) -> Fixture {
    Fixture::new(json!({
        "throttle": {"enabled": false},
        "embeddings": api.provider_config()
    }))
}

/// How many texts the provider was sent, over every request.
fn texts_sent(api: &MockApi) -> usize {
    api.requests()
        .iter()
        .map(|request| request.body["input"].as_array().map_or(1, Vec::len))
        .sum()
}

fn find(fx: &Fixture, query: &str) -> Value {
    fx.ok("find_capability", json!({ "query": query }))
}

#[test]
fn the_catalog_is_embedded_once_and_each_query_once() {
    let api = MockApi::start(3);
    let fx = with_provider(&api);
    let first = find(&fx, "rename a note");
    assert_eq!(first["ranking"], "words_and_meaning", "{first}");
    let catalog = texts_sent(&api) - 1;
    assert!(catalog > 50, "{catalog} catalog documents embedded");
    find(&fx, "delete a note");
    find(&fx, "rename a note");
    assert_eq!(texts_sent(&api), catalog + 2, "one more text per new query");
}

/// Each keyword phrase is embedded once, whichever tools share it, beside each tool's summary.
#[test]
fn each_tool_summary_and_each_keyword_phrase_is_embedded_once() {
    let api = MockApi::start(3);
    let fx = with_provider(&api);
    find(&fx, "rename a note");
    let registry = fx.server.runtime().registry();
    let tools: Vec<_> = registry
        .tools()
        .filter(|tool| tool.def.domain != "facade")
        .collect();
    let phrases: BTreeSet<&str> = tools
        .iter()
        .flat_map(|tool| tool.def.keywords.iter().copied())
        .collect();
    let keywords: usize = tools.iter().map(|tool| tool.def.keywords.len()).sum();
    assert!(phrases.len() < keywords, "some phrases are shared");
    let sent: Vec<String> = api
        .requests()
        .iter()
        .flat_map(|request| {
            request.body["input"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|text| text.as_str().map(str::to_owned))
        .collect();
    assert_eq!(sent.len(), tools.len() + phrases.len() + 1, "and the query");
    for phrase in ["rename note", "get rid of"] {
        assert!(phrases.contains(phrase), "{phrase} is a keyword");
        assert_eq!(
            sent.iter().filter(|text| *text == phrase).count(),
            1,
            "{phrase}"
        );
    }
}

#[test]
fn a_failing_provider_leaves_the_ranking_by_words() {
    let api = MockApi::start(3);
    let fx = with_provider(&api);
    api.fail_with(&[500]);
    let found = find(&fx, "rename a note");
    assert_eq!(found["ranking"], "words", "{found}");
    let no_model = Fixture::new(json!({"throttle": {"enabled": false}}));
    assert_eq!(found, find(&no_model, "rename a note"));
    assert_eq!(find(&fx, "rename a note")["ranking"], "words_and_meaning");
}
