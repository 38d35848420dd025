//! The remote providers over real HTTP against a local server speaking each API: batching,
//! query and document input types, the bearer key, retries of transient failures only, time
//! budgets, and vectors checked and normalised.

use std::time::{Duration, Instant};

use obsidian_tc::config::{EmbeddingProvider as Name, EmbeddingsConfig};
use obsidian_tc::embed::{EmbedError, EmbedKind, EmbeddingProvider, provider_from_config};
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::embed::{MockApi, raw_vector};
use crate::support::logs::logged;

const DIMS: usize = 3;

fn no_env(_: &str) -> Option<String> {
    None
}

/// The config of `provider` against `api`, with a key, 3 dimensions and batches of 2.
fn config(provider: Name, api: &MockApi) -> EmbeddingsConfig {
    let endpoint = match provider {
        Name::Openai | Name::Voyage => format!("{}/v1", api.url()),
        _ => api.url(),
    };
    EmbeddingsConfig {
        provider,
        endpoint: Some(endpoint),
        api_key: Some("sk-test".to_owned()),
        dimensions: Some(DIMS as u32),
        batch_size: Some(2),
        timeout_ms: 2_000,
        retries: 2,
        ..EmbeddingsConfig::default()
    }
}

fn connect(config: &EmbeddingsConfig) -> Box<dyn EmbeddingProvider> {
    provider_from_config(config, &no_env)
        .unwrap_or_else(|e| panic!("provider: {e}"))
        .expect("a provider")
}

fn unit(text: &str) -> Vec<f32> {
    let raw = raw_vector(text, DIMS);
    let norm = raw.iter().map(|v| v * v).sum::<f32>().sqrt();
    raw.iter().map(|v| v / norm).collect()
}

fn assert_close(got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-6, "{got:?} != {want:?}");
    }
}

#[test]
fn every_provider_batches_normalises_and_sends_its_wire_format() {
    let texts = ["a", "bb", "ccc", "dddd", "eeeee"];
    for (provider, path, query_type, document_type) in [
        (
            Name::Ollama,
            "/api/embed",
            Some("search_query: "),
            Some("search_document: "),
        ),
        (Name::Openai, "/v1/embeddings", None, None),
        (
            Name::Voyage,
            "/v1/embeddings",
            Some("query"),
            Some("document"),
        ),
        (
            Name::Cohere,
            "/v2/embed",
            Some("search_query"),
            Some("search_document"),
        ),
    ] {
        let api = MockApi::start(DIMS);
        let embedder = connect(&config(provider, &api));
        assert_eq!(embedder.max_batch(), 2);
        assert_eq!(embedder.fingerprint().dimensions, DIMS);

        let vectors = embedder.embed(&texts, EmbedKind::Document).expect("embed");
        assert_eq!(vectors.len(), texts.len());
        // Ollama's default model, nomic-embed-text, reads the kind from a prefix of the text.
        let prefixed = |prefix: Option<&str>, text: &str| match provider {
            Name::Ollama => format!("{}{text}", prefix.unwrap_or_default()),
            _ => text.to_owned(),
        };
        for (vector, text) in vectors.iter().zip(texts) {
            assert_close(vector, &unit(&prefixed(document_type, text)));
        }
        embedder.embed(&["q"], EmbedKind::Query).expect("query");

        let requests = api.requests();
        assert_eq!(
            requests.len(),
            4,
            "{provider:?}: 2 + 2 + 1 texts, then the query"
        );
        let key = match provider {
            Name::Cohere => "texts",
            _ => "input",
        };
        let sizes: Vec<usize> = requests
            .iter()
            .map(|r| r.body[key].as_array().map_or(0, Vec::len))
            .collect();
        assert_eq!(sizes, [2, 2, 1, 1], "{provider:?}");
        assert_eq!(
            requests[0].body[key],
            json!([prefixed(document_type, "a"), prefixed(document_type, "bb")])
        );
        assert_eq!(requests[3].body[key], json!([prefixed(query_type, "q")]));
        for request in &requests {
            assert_eq!(request.path, path, "{provider:?}");
            assert_eq!(request.authorization.as_deref(), Some("Bearer sk-test"));
        }
        let input_type = |i: usize| requests[i].body.get("input_type").cloned();
        let typed = |kind: Option<&str>| match provider {
            Name::Voyage | Name::Cohere => kind.map(|t| json!(t)),
            _ => None,
        };
        assert_eq!(input_type(0), typed(document_type), "{provider:?}");
        assert_eq!(input_type(3), typed(query_type), "{provider:?}");
        match provider {
            Name::Openai => {
                assert_eq!(requests[0].body["dimensions"], json!(DIMS));
                assert_eq!(requests[0].body["model"], "text-embedding-3-small");
            }
            Name::Voyage => assert_eq!(requests[0].body["output_dimension"], json!(DIMS)),
            Name::Cohere => {
                assert_eq!(requests[0].body["embedding_types"], json!(["float"]));
                assert_eq!(requests[0].body["output_dimension"], json!(DIMS));
            }
            _ => assert_eq!(requests[0].body["model"], "nomic-embed-text"),
        }
    }
}

#[test]
fn a_503_and_a_429_are_retried_then_the_call_succeeds() {
    let api = MockApi::start(DIMS);
    let embedder = connect(&config(Name::Openai, &api));
    api.fail_with(&[503, 429]);
    let vectors = embedder
        .embed(&["x"], EmbedKind::Query)
        .expect("after retries");
    assert_close(&vectors[0], &unit("x"));
    assert_eq!(api.requests().len(), 3);
}

#[test]
fn retries_are_bounded_and_the_error_is_transient() {
    let api = MockApi::start(DIMS);
    let embedder = connect(&config(Name::Cohere, &api));
    api.fail_with(&[500, 502, 503, 504]);
    let error = embedder
        .embed(&["x"], EmbedKind::Document)
        .expect_err("fails");
    assert!(
        matches!(error, EmbedError::Unavailable { attempts: 3, .. }),
        "{error:?}"
    );
    assert_eq!(api.requests().len(), 3, "one attempt and retries: 2");
    assert!(error.to_string().contains("cohere"), "{error}");
    let tool = error.to_tool_error();
    assert_eq!(tool.code, ErrorCode::EmbeddingProviderError);
    assert!(tool.retryable);
}

#[test]
fn a_401_is_not_retried_and_names_the_provider_and_status() {
    let api = MockApi::start(DIMS);
    let embedder = connect(&config(Name::Voyage, &api));
    api.fail_with(&[401]);
    let error = embedder
        .embed(&["x"], EmbedKind::Query)
        .expect_err("refused");
    assert_eq!(api.requests().len(), 1, "no retry on 401");
    assert!(
        matches!(error, EmbedError::Rejected { status: 401, .. }),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message.contains("voyage") && message.contains("401"),
        "{message}"
    );
    assert!(message.contains("API key"), "{message}");
    assert!(
        !message.contains("sk-test"),
        "the key is never shown: {message}"
    );
    assert!(!error.to_tool_error().retryable);
}

#[test]
fn a_slow_answer_times_out_within_the_budget() {
    let api = MockApi::start(DIMS);
    let mut cfg = config(Name::Ollama, &api);
    cfg.timeout_ms = 300;
    cfg.retries = 0;
    let embedder = connect(&cfg);
    api.delay(Duration::from_secs(3));
    let started = Instant::now();
    let error = embedder
        .embed(&["x"], EmbedKind::Document)
        .expect_err("timeout");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(error.is_transient());
    assert!(error.to_string().contains("within 300 ms"), "{error}");
}

#[test]
fn an_openai_compatible_endpoint_gets_the_prefixes_its_model_was_trained_with() {
    for (model, query, document) in [
        ("intfloat/multilingual-e5-small", "query: ", "passage: "),
        ("multilingual-e5-large", "query: ", "passage: "),
        (
            "BAAI/bge-small-en-v1.5",
            "Represent this sentence for searching relevant passages: ",
            "",
        ),
        (
            "nomic-embed-text-v1.5",
            "search_query: ",
            "search_document: ",
        ),
        ("text-embedding-3-small", "", ""),
    ] {
        let api = MockApi::start(DIMS);
        let mut cfg = config(Name::Openai, &api);
        cfg.model = Some(model.to_owned());
        let embedder = connect(&cfg);
        embedder
            .embed(&["note"], EmbedKind::Document)
            .expect("document");
        embedder.embed(&["ask"], EmbedKind::Query).expect("query");
        let inputs: Vec<Value> = api
            .requests()
            .iter()
            .map(|r| r.body["input"].clone())
            .collect();
        assert_eq!(
            inputs,
            [
                json!([format!("{document}note")]),
                json!([format!("{query}ask")])
            ],
            "{model}"
        );
        // Vectors made with other prefixes are another space: the fingerprint says which.
        let digest = &embedder.fingerprint().prompts;
        assert_eq!(
            digest.is_empty(),
            query.is_empty() && document.is_empty(),
            "{model}"
        );
    }
}

#[test]
fn a_batch_that_times_out_is_split_and_later_batches_stay_small() {
    let api = MockApi::start(DIMS);
    let mut cfg = config(Name::Openai, &api);
    cfg.batch_size = Some(8);
    cfg.timeout_ms = 1_000;
    cfg.retries = 0;
    let embedder = connect(&cfg);
    // 300 ms a text: 8 texts take 2.4 s and 4 take 1.2 s (past the 1 s budget), 2 take 0.6 s.
    api.delay_per_text(Duration::from_millis(300));
    let texts = [
        "a", "bb", "ccc", "dddd", "eeeee", "ffffff", "ggggggg", "hhhhhhhh",
    ];
    let (vectors, log) = logged(|| embedder.embed(&texts, EmbedKind::Document));
    let vectors = vectors.expect("split until the server keeps up");
    // Both splits come before any answer.
    let splits: Vec<&str> = log.lines().filter(|l| l.contains("no answer")).collect();
    assert_eq!(splits.len(), 2, "{log}");
    assert!(
        splits.iter().all(|l| l.contains("no request answered yet")),
        "{log}"
    );
    for (text, vector) in texts.iter().zip(&vectors) {
        assert_close(vector, &unit(text));
    }
    let sizes = |from: usize| -> Vec<usize> {
        api.requests()[from..]
            .iter()
            .map(|request| request.body["input"].as_array().map_or(0, Vec::len))
            .collect()
    };
    assert_eq!(
        sizes(0),
        [8, 4, 2, 2, 2, 2],
        "each timed-out request halves once"
    );
    assert_eq!(embedder.max_batch(), 2);
    // The next call starts at the size that kept up: no request times out again.
    let seen = api.requests().len();
    embedder
        .embed(&texts[..3], EmbedKind::Document)
        .expect("embedded");
    assert_eq!(sizes(seen), [2, 1]);
    // Slower still: 2 texts take 1.2 s, and the split reports the rate the answered requests
    // reached (2 texts in about 0.6 s each time: at most 3.3 texts/s).
    api.delay_per_text(Duration::from_millis(600));
    let (vectors, log) = logged(|| embedder.embed(&texts[..2], EmbedKind::Document));
    assert_eq!(vectors.expect("split to one text").len(), 2);
    let rate: f64 = log
        .split("reached ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("no rate in {log}"));
    assert!((1.0..=3.4).contains(&rate), "{rate} texts/s: {log}");
    assert_eq!(embedder.max_batch(), 1);
}

#[test]
fn an_unreachable_endpoint_is_unavailable_after_its_retries() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let closed = listener.local_addr().expect("addr");
    drop(listener);
    let cfg = EmbeddingsConfig {
        provider: Name::Ollama,
        endpoint: Some(format!("http://{closed}")),
        dimensions: Some(3),
        retries: 1,
        ..EmbeddingsConfig::default()
    };
    let embedder = connect(&cfg);
    let error = embedder
        .embed(&["x"], EmbedKind::Document)
        .expect_err("refused");
    assert!(
        matches!(error, EmbedError::Unavailable { attempts: 2, .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("cannot reach"), "{error}");
}

#[test]
fn vectors_of_another_length_are_refused_never_mixed() {
    let api = MockApi::start(DIMS + 1);
    let embedder = connect(&config(Name::Openai, &api));
    let error = embedder
        .embed(&["x"], EmbedKind::Document)
        .expect_err("wrong length");
    assert!(matches!(error, EmbedError::BadResponse { .. }), "{error:?}");
    assert!(
        error.to_string().contains("embeddings.dimensions"),
        "{error}"
    );
}

#[test]
fn without_dimensions_one_probe_learns_the_models_length() {
    let api = MockApi::start(5);
    let mut cfg = config(Name::Ollama, &api);
    cfg.dimensions = None;
    cfg.model = Some("all-minilm".to_owned());
    let embedder = connect(&cfg);
    assert_eq!(api.requests().len(), 1);
    assert_eq!(embedder.fingerprint().dimensions, 5);
    assert_eq!(
        embedder.fingerprint().id(),
        "ollama|all-minilm|5|provider|l2"
    );
    assert_eq!(
        embedder.embed(&["x"], EmbedKind::Document).expect("embed")[0].len(),
        5
    );
}

#[test]
fn the_key_comes_from_the_named_variable_or_the_providers_usual_one() {
    let api = MockApi::start(DIMS);
    let mut cfg = config(Name::Cohere, &api);
    cfg.api_key = None;
    cfg.api_key_env = Some("MY_COHERE_KEY".to_owned());
    let env = |name: &str| (name == "MY_COHERE_KEY").then(|| "from-env".to_owned());
    let embedder = provider_from_config(&cfg, &env).expect("ok").expect("some");
    embedder.embed(&["x"], EmbedKind::Document).expect("embed");
    assert_eq!(
        api.requests()[0].authorization.as_deref(),
        Some("Bearer from-env")
    );

    let missing = provider_from_config(&cfg, &no_env)
        .err()
        .expect("unset variable");
    assert!(
        missing.to_string().contains("export MY_COHERE_KEY"),
        "{missing}"
    );

    cfg.api_key_env = None;
    let usual = |name: &str| (name == "CO_API_KEY").then(|| "usual".to_owned());
    let embedder = provider_from_config(&cfg, &usual)
        .expect("ok")
        .expect("some");
    embedder.embed(&["y"], EmbedKind::Document).expect("embed");
    assert_eq!(
        api.requests()[1].authorization.as_deref(),
        Some("Bearer usual")
    );
    let none = provider_from_config(&cfg, &no_env).err().expect("no key");
    assert!(none.to_string().contains("CO_API_KEY"), "{none}");
    assert_eq!(api.requests().len(), 2, "no request without a key");
}
