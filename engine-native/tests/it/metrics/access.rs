//! Who may scrape `/metrics`: behind MCP's authentication by default (401 without a token,
//! 403 without the scope `admin:metrics` or with a vault-bound token), `public` only on a
//! loopback bind, `Host` checked as for MCP, and 404 to everyone when metrics are off (while
//! `get_metrics` still counts).

use std::time::{SystemTime, UNIX_EPOCH};

use jsonwebtoken::Algorithm;
use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};

use super::promtool_check;
use super::scrape::scrape;
use crate::support::auth::{SECRET, claims, sign};
use crate::support::mcp::{HttpServer, arg, call, free_port, run, structured, write_config};

/// A JWT-auth server on a free port with `metrics` as `observability.metrics` and `host` as
/// the bind address; the config's folder goes with it.
fn start(host: &str, metrics: Value) -> (HttpServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let vault = dir.path().join("vault");
    std::fs::create_dir(&vault).expect("vault folder");
    std::fs::write(vault.join("hello.md"), "# Hello\n").expect("note");
    let port = free_port();
    let file = dir.path().join("c.json");
    write_config(
        &file,
        &vault,
        json!({
            "auth": {"mode": "jwt", "jwtSecret": SECRET},
            "transports": {"http": {"host": host, "port": port}},
            "observability": {"metrics": metrics},
        }),
    );
    let server = HttpServer::start(&["serve", "--http", "--config", &arg(&file)], port);
    (server, dir)
}

fn token(scopes: &[&str], vault: Option<&str>) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs();
    let mut body = claims(now, "scraper", scopes);
    if let Some(vault) = vault {
        body["vault"] = json!(vault);
    }
    sign(Algorithm::HS256, None, &body)
}

#[tokio::test(flavor = "multi_thread")]
async fn metrics_take_the_mcp_token_and_the_metrics_scope() {
    let (server, _dir) = start("127.0.0.1", json!({}));
    let missing = scrape(&server, None).await;
    assert_eq!(missing.status(), 401);
    assert!(missing.headers().contains_key("www-authenticate"));

    let unscoped = scrape(&server, Some(&token(&["read:*"], None))).await;
    assert_eq!(unscoped.status(), 403);
    let why = unscoped.text().await.expect("body");
    assert!(why.contains("admin:metrics"), "{why}");

    let bound = scrape(&server, Some(&token(&["admin:metrics"], Some("main")))).await;
    assert_eq!(bound.status(), 403);
    let why = bound.text().await.expect("body");
    assert!(why.contains("bound to vault 'main'"), "{why}");

    let allowed = scrape(&server, Some(&token(&["admin:metrics"], None))).await;
    assert_eq!(allowed.status(), 200);
    promtool_check(&allowed.text().await.expect("body"));

    // a rebinding attack's Host, and a foreign page's Origin, are refused as on /mcp
    let url = server.url().replace("/mcp", "/metrics");
    let token = token(&["admin:metrics"], None);
    for (name, value) in [
        ("Host", "attacker.example"),
        ("Origin", "https://attacker.example"),
    ] {
        let refused = reqwest::Client::new()
            .get(&url)
            .header(name, value)
            .bearer_auth(&token)
            .send()
            .await
            .expect("answer");
        assert_eq!(refused.status(), 403, "{name}: {value}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn public_metrics_need_no_token_on_loopback_only() {
    let (server, _dir) = start("127.0.0.1", json!({"public": true}));
    let open = scrape(&server, None).await;
    assert_eq!(open.status(), 200);
    promtool_check(&open.text().await.expect("body"));
    // MCP itself still takes the token
    let mcp = reqwest::Client::new()
        .post(server.url())
        .header("Accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
        .send()
        .await
        .expect("answer");
    assert_eq!(mcp.status(), 401);
    drop(server);

    let (server, _dir) = start("0.0.0.0", json!({"public": true}));
    assert_eq!(scrape(&server, None).await.status(), 401);
    let allowed = scrape(&server, Some(&token(&["admin:metrics"], None))).await;
    assert_eq!(allowed.status(), 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn metrics_turned_off_have_no_route() {
    let (server, _dir) = start("127.0.0.1", json!({"enabled": false}));
    for token in [None, Some(token(&["*"], None))] {
        let response = scrape(&server, token.as_deref()).await;
        assert_eq!(response.status(), 404, "token: {}", token.is_some());
    }
    // get_metrics still counts the calls
    let config = StreamableHttpClientTransportConfig::with_uri(server.url())
        .auth_header(token(&["*"], None));
    let client =
        ().serve(StreamableHttpClientTransport::from_config(config))
            .await
            .expect("initialize over HTTP");
    call(&client, "read_note", json!({"path": "hello.md"})).await;
    let metrics = call(&client, "get_metrics", json!({})).await;
    assert_eq!(
        structured(&metrics)["calls"],
        json!([{"vault": "main", "tool": "read_note", "code": "ok", "count": 1}])
    );
    client.cancel().await.expect("close the session");

    let port = server.url().split(':').nth(2).unwrap().replace("/mcp", "");
    let out = run(&[
        "metrics",
        "--url",
        &format!("http://127.0.0.1:{port}"),
        "--token",
        &token(&["*"], None),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("observability.metrics.enabled is off"),
        "{said}"
    );
}
