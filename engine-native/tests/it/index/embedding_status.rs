//! `get_index_status`'s `embeddings` object, and the reason the search and index tools give
//! when they answer lexically: off (naming where `none` came from), a loaded model with
//! chunks still to embed (an ETA from the last pass), ready, and a provider that cannot load.

use serde_json::{Value, json};

use crate::support::dispatch::Fixture;
use crate::support::hub_mirror::test_model;

fn with_provider(embeddings: Value) -> Fixture {
    Fixture::new(json!({"throttle": {"enabled": false}, "embeddings": embeddings}))
}

fn notes(fx: &Fixture, names: &[&str]) {
    for name in names {
        fx.write(
            "main",
            &format!("{name}.md"),
            &format!("# {name}\n\nAbout {name}.\n"),
        );
    }
}

fn status(fx: &Fixture) -> Value {
    fx.ok("get_index_status", json!({}))["embeddings"].clone()
}

#[test]
fn off_says_why_in_the_status_the_search_and_the_index() {
    let fx = Fixture::new(json!({}));
    notes(&fx, &["Cats", "Cars"]);
    let indexed = fx.ok("index_vault", json!({}));
    let why = indexed["lexical_only"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(why.contains("embeddings.provider is \"none\""), "{indexed}");
    assert!(
        why.contains("file "),
        "the source of the value is named: {why}"
    );
    let embeddings = status(&fx);
    let chunks = fx.ok("get_index_status", json!({}))["chunks"].clone();
    assert_eq!(
        embeddings,
        json!({
            "provider": "none", "model": null, "engine": null, "state": "off", "reason": why,
            "download": null, "embedded": 0, "total": chunks, "etaSeconds": null,
            "secrets": null
        })
    );
    let found = fx.ok("search_vault", json!({"query": "cats", "explain": true}));
    assert_eq!(found["mode"], "lexical");
    assert_eq!(found["coverage"]["lexical_only"], json!(why));
    assert!(
        found["routing"]
            .as_str()
            .unwrap_or_default()
            .contains("embeddings.provider"),
        "{found}"
    );
    let lexical = fx.ok("search_vault", json!({"query": "cats", "mode": "lexical"}));
    assert!(
        lexical["coverage"].get("lexical_only").is_none(),
        "asked for: {lexical}"
    );
}

#[test]
fn a_loaded_model_reports_chunks_to_embed_with_an_eta_then_ready() {
    let fx = with_provider(json!({
        "provider": "local", "modelPath": test_model().display().to_string()
    }));
    notes(&fx, &["Cats", "Cars", "Bread"]);
    fx.ok("index_vault", json!({}));
    let ready = status(&fx);
    assert_eq!(ready["state"], "ready", "{ready}");
    assert_eq!(ready["provider"], "local");
    assert_eq!(
        ready["model"], "all-MiniLM-L6-v2",
        "a folder without embeddings.model is named by its folder"
    );
    assert_eq!(ready["reason"], Value::Null);
    assert_eq!(ready["etaSeconds"], 0);
    let engine = ready["engine"].as_str().unwrap_or_default();
    assert!(
        engine.starts_with("candle (model.safetensors; ONNX Runtime not used: ")
            && engine.contains("has no ONNX model"),
        "the test model has no ONNX file: {ready}"
    );
    assert_eq!(ready["embedded"], ready["total"]);
    assert_eq!(
        ready["total"],
        fx.ok("get_index_status", json!({}))["chunks"]
    );

    // New notes scanned but not embedded yet.
    notes(&fx, &["Boats", "Trains"]);
    let server = fx.server.runtime();
    let served = server.served();
    let entry = served.vault("main").expect("vault main");
    server
        .indexes()
        .scan(
            server.store(),
            "main",
            &entry.vault,
            0,
            &mut |_, _| {},
            &|_| true,
        )
        .expect("scan");
    let pending = status(&fx);
    assert_eq!(pending["state"], "embedding", "{pending}");
    assert!(
        pending["embedded"].as_u64() < pending["total"].as_u64(),
        "{pending}"
    );
    assert!(
        pending["etaSeconds"].as_u64().is_some_and(|s| s >= 1),
        "the last pass's pace gives an ETA: {pending}"
    );
    let found = fx.ok("search_vault", json!({"query": "boats"}));
    assert_eq!(
        found["mode"], "hybrid",
        "hybrid covers the embedded chunks: {found}"
    );
}

#[test]
fn a_model_that_cannot_load_is_unavailable_with_its_error() {
    let empty = tempfile::tempdir().expect("empty folder");
    let fx = with_provider(json!({
        "provider": "local", "modelPath": empty.path().display().to_string()
    }));
    notes(&fx, &["Cats"]);
    let embeddings = status(&fx);
    assert_eq!(embeddings["state"], "unavailable", "{embeddings}");
    let reason = embeddings["reason"].as_str().unwrap_or_default();
    assert!(
        reason.starts_with("search is lexical") && reason.contains("model.safetensors"),
        "{reason}"
    );
}
