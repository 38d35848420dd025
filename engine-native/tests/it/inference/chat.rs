//! The OpenAI-compatible chat endpoint client against a small real HTTP server answering
//! from a table: the request it sends, the answer and token counts it reads, and its typed
//! failures (HTTP status, an answer that is no chat completion, a timeout, nobody there).

use std::net::TcpListener;
use std::time::Duration;

use obsidian_tc::config::InferenceConfig;
use obsidian_tc::inference::chat::{ChatEndpoint, parse_answer};
use obsidian_tc::inference::{
    Audience, ChatMessage, Gateway, InferenceError, ModelRequest, Provider, Role,
};
use serde_json::json;

use crate::support::chat::{Reply, ok, serve};
use crate::support::dispatch::Fixture;

fn request() -> ModelRequest {
    ModelRequest {
        role: Role::Judge,
        system: Some("be strict".to_owned()),
        messages: vec![ChatMessage::user("is the sky green?")],
        max_tokens: 64,
        temperature: Some(0.0),
    }
}

fn endpoint(url: &str, timeout_ms: u64) -> ChatEndpoint {
    ChatEndpoint {
        endpoint: url.to_owned(),
        model: "llama-test".to_owned(),
        api_key: Some("test-key".to_owned()),
        timeout: Duration::from_millis(timeout_ms),
    }
}

#[test]
fn it_posts_chat_completions_and_reads_the_text_model_and_tokens() {
    let (url, seen) = serve(ok("No."));
    let answer = endpoint(&url, 5_000).complete(&request()).expect("answer");
    assert_eq!(answer.text, "No.");
    assert_eq!(answer.model, "llama-test");
    assert_eq!((answer.tokens_in, answer.tokens_out), (Some(42), Some(7)));
    let (path, headers, body) = seen.recv().expect("request");
    assert_eq!(path, "/v1/chat/completions");
    assert!(
        headers
            .to_ascii_lowercase()
            .contains("authorization: bearer test-key")
    );
    assert_eq!(body["model"], "llama-test");
    assert_eq!(body["max_tokens"], 64);
    assert_eq!(
        body["messages"],
        json!([
            {"role": "system", "content": "be strict"},
            {"role": "user", "content": "is the sky green?"}
        ])
    );
}

#[test]
fn an_http_error_is_typed_with_its_status_and_the_start_of_the_body() {
    let (url, _seen) = serve(Reply {
        status: 503,
        body: "{\"error\": \"model is loading\"}".to_owned(),
        delay: Duration::ZERO,
    });
    match endpoint(&url, 5_000).complete(&request()) {
        Err(InferenceError::Http { status, excerpt }) => {
            assert_eq!(status, 503);
            assert!(excerpt.contains("model is loading"));
        }
        other => panic!("expected an HTTP error, got {other:?}"),
    }
    let error = InferenceError::Http {
        status: 503,
        excerpt: String::new(),
    }
    .to_tool_error();
    assert_eq!(error.code, obsidian_tc::errors::ErrorCode::ModelError);
    assert_eq!(error.details["reason"], "http_status");
    assert_eq!(error.details["status"], 503);
    assert!(error.retryable);
}

#[test]
fn an_answer_that_is_no_chat_completion_is_a_bad_answer() {
    let (url, _seen) = serve(Reply {
        status: 200,
        body: "<html>not json</html>".to_owned(),
        delay: Duration::ZERO,
    });
    assert!(matches!(
        endpoint(&url, 5_000).complete(&request()),
        Err(InferenceError::BadAnswer(_))
    ));
    assert!(matches!(
        parse_answer("{\"choices\": []}", "m"),
        Err(InferenceError::BadAnswer(_))
    ));
    let bare = parse_answer(
        "{\"choices\": [{\"message\": {\"content\": \"hi\"}}]}",
        "configured",
    )
    .expect("no usage, no model");
    assert_eq!(bare.model, "configured");
    assert_eq!(bare.tokens_in, None);
}

#[test]
fn a_slow_endpoint_times_out_at_the_configured_budget() {
    let (url, _seen) = serve(Reply {
        delay: Duration::from_millis(2_000),
        ..ok("too late")
    });
    let started = std::time::Instant::now();
    assert_eq!(
        endpoint(&url, 300).complete(&request()),
        Err(InferenceError::Timeout { ms: 300 })
    );
    assert!(started.elapsed() < Duration::from_millis(1_900));
}

#[test]
fn nobody_listening_is_unreachable() {
    let port = TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    let url = format!("http://127.0.0.1:{port}/v1");
    assert!(matches!(
        endpoint(&url, 1_000).complete(&request()),
        Err(InferenceError::Unreachable(_))
    ));
}

#[test]
fn the_gateway_uses_the_configured_endpoint_and_counts_its_tokens() {
    let (url, _seen) = serve(ok("No."));
    let fx = Fixture::new(json!({}));
    let config = InferenceConfig {
        endpoint: Some(url),
        model: Some("llama-test".to_owned()),
        ..InferenceConfig::default()
    };
    let audience = Audience {
        vault_id: "main",
        caller: "agent",
        tool: "knowledge_challenge",
        args_hash: "h",
    };
    let model = Gateway::new(
        &config,
        None,
        fx.server.runtime().store(),
        audience,
        Box::new(|| 0),
    );
    assert_eq!(model.provider(), Some(Provider::Endpoint));
    let answer = model.complete(&request()).expect("answer");
    assert_eq!(answer.provider, Provider::Endpoint);
    let usage = model.usage();
    assert_eq!(
        (usage.model_calls, usage.tokens_in, usage.tokens_out),
        (1, 42, 7)
    );
}
