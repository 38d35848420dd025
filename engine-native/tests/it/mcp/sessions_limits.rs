//! HTTP session limits of the built binary over real HTTP: `transports.http.maxSessions` caps
//! the open sessions (an `initialize` beyond answers 503 with a JSON-RPC error saying what to
//! do, and a freed slot is usable again), and `transports.http.sessionIdleSeconds` closes a
//! session without traffic (its id then answers 404) while a session in use stays open.

use std::time::Duration;

use reqwest::{Response, StatusCode};
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::support;
use crate::support::mcp::{HttpServer, arg, free_port, write_config};

const ACCEPT: &str = "application/json, text/event-stream";

/// `serve --http` on a fresh vault with `http` merged into `transports.http`.
fn start(http: Value) -> (TempDir, HttpServer) {
    let vault = support::mcp::vault();
    let config = vault.path().join("obsidian-tc.json");
    write_config(
        &config,
        vault.path(),
        json!({"throttle": {"enabled": false}, "transports": {"http": http}}),
    );
    let port = free_port();
    let server = HttpServer::start(
        &[
            "serve",
            "--config",
            &arg(&config),
            "--http",
            "--port",
            &port.to_string(),
        ],
        port,
    );
    (vault, server)
}

async fn initialize(http: &reqwest::Client, url: &str) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "limits-test", "version": "0"}}});
    http.post(url)
        .header("accept", ACCEPT)
        .json(&body)
        .send()
        .await
        .expect("initialize")
}

fn session_id(response: &Response) -> String {
    response
        .headers()
        .get("mcp-session-id")
        .expect("a session id")
        .to_str()
        .expect("ASCII")
        .to_owned()
}

/// `ping` on `session`; returns the HTTP status.
async fn ping(http: &reqwest::Client, url: &str, session: &str) -> StatusCode {
    http.post(url)
        .header("accept", ACCEPT)
        .header("mcp-session-id", session)
        .header("mcp-protocol-version", "2025-11-25")
        .json(&json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
        .send()
        .await
        .expect("ping")
        .status()
}

#[tokio::test]
async fn an_initialize_beyond_max_sessions_answers_503_until_a_session_ends() {
    let (_vault, server) = start(json!({"maxSessions": 2}));
    let url = server.url();
    let http = reqwest::Client::new();
    let first = initialize(&http, &url).await;
    assert_eq!(first.status(), StatusCode::OK);
    let first = session_id(&first);
    let second = initialize(&http, &url).await;
    assert_eq!(second.status(), StatusCode::OK);
    let second = session_id(&second);

    let refused = initialize(&http, &url).await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(refused.headers().get("mcp-session-id").is_none());
    let body: Value = refused.json().await.expect("a JSON-RPC error body");
    assert_eq!(body["error"]["code"], -32000, "{body}");
    let message = body["error"]["message"].as_str().expect("a message");
    assert!(
        message.contains("2 open MCP sessions") && message.contains("maxSessions"),
        "{message}"
    );
    // The open sessions are untouched by the refusal.
    assert_eq!(ping(&http, &url, &first).await, StatusCode::OK);
    assert_eq!(ping(&http, &url, &second).await, StatusCode::OK);

    let ended = http
        .delete(&url)
        .header("mcp-session-id", &first)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(ended.status(), StatusCode::OK);
    let third = initialize(&http, &url).await;
    assert_eq!(third.status(), StatusCode::OK, "the freed slot is usable");
    assert_eq!(ping(&http, &url, &session_id(&third)).await, StatusCode::OK);
    server.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_initializes_never_exceed_max_sessions() {
    let (_vault, server) = start(json!({"maxSessions": 3}));
    let url = server.url();
    let http = reqwest::Client::new();
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let (http, url) = (http.clone(), url.clone());
            tokio::spawn(async move { initialize(&http, &url).await.status() })
        })
        .collect();
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.expect("the request task"));
    }
    let opened = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::SERVICE_UNAVAILABLE)
        .count();
    assert_eq!((opened, refused), (3, 5), "{statuses:?}");
    server.stop();
}

#[tokio::test]
async fn an_idle_session_expires_with_404_while_a_busy_one_stays_open() {
    let (_vault, server) = start(json!({"sessionIdleSeconds": 1}));
    let url = server.url();
    let http = reqwest::Client::new();
    let idle = initialize(&http, &url).await;
    assert_eq!(idle.status(), StatusCode::OK);
    let idle = session_id(&idle);
    let busy = initialize(&http, &url).await;
    assert_eq!(busy.status(), StatusCode::OK);
    let busy = session_id(&busy);

    // 2.4 s in steps of 0.4 s: the busy session never waits a whole second.
    for _ in 0..6 {
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert_eq!(ping(&http, &url, &busy).await, StatusCode::OK);
    }
    assert_eq!(ping(&http, &url, &idle).await, StatusCode::NOT_FOUND);
    assert_eq!(ping(&http, &url, &busy).await, StatusCode::OK);
    server.stop();
}

#[tokio::test]
async fn an_invalid_session_limit_is_refused_at_start() {
    let vault = support::mcp::vault();
    let config = vault.path().join("obsidian-tc.json");
    write_config(
        &config,
        vault.path(),
        json!({"transports": {"http": {"maxSessions": 0, "sessionIdleSeconds": 0}}}),
    );
    let output = support::mcp::run(&["config", "validate", "--config", &arg(&config)]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned()
        + &String::from_utf8_lossy(&output.stdout);
    assert!(
        stderr.contains("maxSessions") && stderr.contains("sessionIdleSeconds"),
        "{stderr}"
    );
}
