//! The `embeddings` config block: defaults, valid and invalid blocks reported at their JSON
//! paths, `modelPath` resolved against the config file, the API key redacted everywhere.

use std::collections::BTreeMap;
use std::path::PathBuf;

use obsidian_tc::config::{
    ConfigErrors, ConfigOrigin, EmbeddingProvider, LoadInput, LoadedConfig, load,
};
use obsidian_tc::embed::provider_from_config;
use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

fn input(embeddings: Value) -> LoadInput {
    let text = json!({"vaults": [{"id": "main", "path": "/v"}], "embeddings": embeddings});
    LoadInput {
        origin: ConfigOrigin::File {
            path: PathBuf::from("/cfg/config.json"),
            text: text.to_string(),
        },
        env: BTreeMap::new(),
        overrides: Vec::new(),
    }
}

fn ok(embeddings: Value) -> LoadedConfig {
    load(&input(embeddings)).unwrap_or_else(|e| panic!("expected a valid config, got {e}"))
}

fn problems(embeddings: Value) -> Vec<String> {
    let ConfigErrors(list) = load(&input(embeddings)).expect_err("expected problems");
    list.iter().map(ToString::to_string).collect()
}

#[test]
fn the_default_is_auto_and_provider_none_builds_nothing() {
    let config = ok(json!({})).config.embeddings;
    assert_eq!(config.provider, EmbeddingProvider::Auto);
    assert_eq!((config.timeout_ms, config.retries), (30_000, 3));
    // Building never downloads: without the model on disk, auto says how to get it.
    let error = provider_from_config(&config, &|_| None)
        .err()
        .expect("no model on disk")
        .to_string();
    assert!(error.contains("obsidian-tc model pull"), "{error}");
    let none = ok(json!({"provider": "none"})).config.embeddings;
    assert!(
        provider_from_config(&none, &|_| None)
            .expect("none is fine")
            .is_none()
    );
}

#[test]
fn a_pinned_model_of_ones_own_loads_and_half_pins_are_refused() {
    let sha = "ab".repeat(32);
    let files = |names: &[&str]| -> Value {
        names
            .iter()
            .map(|path| json!({"path": path, "sha256": sha, "size": 1}))
            .collect()
    };
    let full = files(&["config.json", "tokenizer.json", "model.safetensors"]);
    let config = ok(json!({
        "model": "org/model", "revision": "main", "files": full.clone()
    }))
    .config
    .embeddings;
    assert_eq!(config.files.as_ref().map(Vec::len), Some(3));
    let cases: [(Value, &str, &str); 8] = [
        (
            json!({"revision": "main"}),
            "embeddings.revision",
            "embeddings.files",
        ),
        (
            json!({"files": full.clone()}),
            "embeddings.files",
            "embeddings.revision",
        ),
        (
            json!({"revision": "main", "files": files(&["config.json", "tokenizer.json"])}),
            "embeddings.files",
            "model.safetensors",
        ),
        (
            json!({"revision": "main", "files": [{"path": "../x", "sha256": sha}]}),
            "embeddings.files[0].path",
            "inside the repository",
        ),
        (
            json!({"revision": "main", "files": [{"path": "config.json", "sha256": "z".repeat(64)}]}),
            "embeddings.files[0].sha256",
            "64 hexadecimal",
        ),
        (
            json!({"revision": "a/../b", "files": full.clone()}),
            "embeddings.revision",
            "branch",
        ),
        (
            json!({"model": "just-a-name"}),
            "embeddings.model",
            "ORG/NAME",
        ),
        (
            json!({"provider": "ollama", "revision": "main", "files": full}),
            "embeddings.revision",
            "\"auto\"",
        ),
    ];
    for (block, path, hint) in cases {
        let found = problems(block.clone());
        assert!(
            found.iter().any(|p| p.contains(path) && p.contains(hint)),
            "{block}: expected a problem at {path} mentioning {hint:?}, got {found:?}"
        );
    }
}

#[test]
fn a_full_block_loads_and_model_path_resolves_against_the_config_file() {
    let config = ok(json!({
        "provider": "local",
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "modelPath": "models/minilm",
        "dimensions": 384,
        "batchSize": 16,
        "timeoutMs": 5000,
        "retries": 0
    }))
    .config
    .embeddings;
    assert_eq!(config.provider, EmbeddingProvider::Local);
    assert_eq!(config.model_path.as_deref(), Some("/cfg/models/minilm"));
    assert_eq!(
        (config.dimensions, config.batch_size),
        (Some(384), Some(16))
    );
    let remote = ok(json!({
        "provider": "cohere",
        "endpoint": "https://api.cohere.com",
        "apiKeyEnv": "CO_API_KEY",
        "batchSize": 96
    }));
    assert_eq!(remote.config.embeddings.provider, EmbeddingProvider::Cohere);
}

#[test]
fn invalid_blocks_are_reported_at_their_paths_with_what_to_do() {
    let cases: [(Value, &str, &str); 9] = [
        (json!({"provider": "bert"}), "embeddings.provider", "bert"),
        (json!({"batchSize": 0}), "embeddings.batchSize", ""),
        (json!({"retries": 11}), "embeddings.retries", ""),
        (json!({"timeoutMs": 5}), "embeddings.timeoutMs", ""),
        (
            json!({"maxBatchTokens": 10}),
            "embeddings.maxBatchTokens",
            "",
        ),
        (
            json!({"provider": "ollama", "endpoint": "localhost:11434"}),
            "embeddings.endpoint",
            "http://",
        ),
        (
            json!({"provider": "cohere", "batchSize": 200}),
            "embeddings.batchSize",
            "96",
        ),
        (
            json!({"provider": "openai", "apiKey": "k", "apiKeyEnv": "K"}),
            "embeddings.apiKeyEnv",
            "keep one",
        ),
        (
            json!({"provider": "openai", "modelPath": "/m"}),
            "embeddings.modelPath",
            "\"local\"",
        ),
    ];
    for (block, path, hint) in cases {
        let found = problems(block.clone());
        assert!(
            found.iter().any(|p| p.contains(path) && p.contains(hint)),
            "{block}: expected a problem at {path} mentioning {hint:?}, got {found:?}"
        );
    }
    let bad_name = problems(json!({"provider": "openai", "apiKeyEnv": "MY-KEY"}));
    assert!(
        bad_name.iter().any(|p| p.contains("embeddings.apiKeyEnv")),
        "{bad_name:?}"
    );
}

#[test]
fn the_api_key_is_redacted_by_config_show_and_get_server_config() {
    let secret = "sk-live-0123456789";
    let loaded = ok(json!({"provider": "openai", "apiKey": secret}));
    let shown = loaded.to_redacted_json().to_string();
    assert!(!shown.contains(secret), "{shown}");

    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "embeddings": {"provider": "openai", "apiKey": secret}
    }));
    let config = fx.ok("get_server_config", json!({}));
    assert_eq!(config["embeddings"]["apiKey"], "[redacted]");
    assert_eq!(config["embeddings"]["provider"], "openai");
    assert!(!config.to_string().contains(secret));
}
