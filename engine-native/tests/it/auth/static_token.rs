//! The sidecar TC Bridge starts, wired both ways: `obsidian-tc serve --http --port <p> <vault>`
//! with `OBSIDIAN_TC_HTTP_TOKEN` (the MCP endpoint's static bearer token) and
//! `OBSIDIAN_TC_COMPANION_URL` / `_TOKEN` (TC Bridge itself). Without the token, or with
//! another, every request gets 401 with a `WWW-Authenticate: Bearer` challenge; with it, a
//! bridge tool answers through the companion, and a destructive call is approved in Obsidian
//! through the companion's confirm route. The companion the variables name wins over the
//! plugin's settings file.

use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};

use crate::support::companion::{
    Decision, FakeCompanion, Mode, TOKEN, closed_url, write_plugin_data,
};
use crate::support::mcp::{HttpServer, arg, call, structured};

/// A token as TC Bridge makes them: 64 hex characters.
const HTTP_TOKEN: &str = "4b1d0c2e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c";

/// Environment variables, as `(name, value)`.
type Env<'a> = &'a [(&'a str, &'a str)];

/// POSTs an `initialize` to `url` with `token` as the bearer (none when `None`).
async fn initialize(url: &str, token: Option<&str>) -> reqwest::Response {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}});
    let mut request = reqwest::Client::new()
        .post(url)
        .header("Accept", "application/json, text/event-stream")
        .json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.expect("the server answers")
}

#[tokio::test(flavor = "multi_thread")]
async fn the_sidecar_answers_only_its_token_and_reaches_obsidian_through_its_companion() {
    let companion = FakeCompanion::start(Mode::Reachable);
    companion.decide(&[Decision::Approved]);
    let vault = crate::support::mcp::vault();
    // the plugin's settings file names something else: the variables win
    let stale_port: u16 = closed_url()
        .rsplit(':')
        .next()
        .and_then(|port| port.parse().ok())
        .expect("port");
    write_plugin_data(vault.path(), stale_port, "stale-token", json!({}));
    let server = HttpServer::serve_vault_with(
        vault.path(),
        &[
            ("OBSIDIAN_TC_HTTP_TOKEN", HTTP_TOKEN),
            ("OBSIDIAN_TC_COMPANION_URL", &companion.url),
            ("OBSIDIAN_TC_COMPANION_TOKEN", TOKEN),
            ("OBSIDIAN_TC_EMBEDDINGS_PROVIDER", "none"),
        ],
    );
    let url = server.url();

    let wrong = HTTP_TOKEN.replace('4', "5");
    let cases = [
        (None, "missing_token"),
        (Some(wrong.as_str()), "wrong_token"),
        (Some(&HTTP_TOKEN[..63]), "wrong_token"),
        (Some(TOKEN), "wrong_token"),
    ];
    for (token, reason) in cases {
        let response = initialize(&url, token).await;
        assert_eq!(response.status(), 401, "{token:?}");
        let challenge = response
            .headers()
            .get("www-authenticate")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        assert!(challenge.starts_with("Bearer "), "{challenge}");
        let text = response.text().await.expect("body");
        assert!(
            !text.contains(HTTP_TOKEN),
            "the body shows the token: {text}"
        );
        let body: Value = serde_json::from_str(&text).expect("JSON body");
        assert_eq!(body["error"]["data"]["reason"], reason, "{body}");
    }

    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url.as_str()).auth_header(HTTP_TOKEN),
    );
    let client = ().serve(transport).await.expect("initialize with the token");
    let answer = call(&client, "list_commands", json!({"query": "bold"})).await;
    assert_ne!(answer.is_error, Some(true), "{answer:?}");
    assert_eq!(
        structured(&answer)["route"],
        "/obsidian-tc/v1/commands/list"
    );

    // the tokens never show in the configuration the client can read
    let shown = call(&client, "get_server_config", json!({})).await;
    let shown = structured(&shown);
    assert_eq!(shown["auth"]["mode"], "token", "{shown}");
    assert_eq!(shown["auth"]["token"], "[redacted]", "{shown}");
    assert_eq!(
        shown["vaults"][0]["companion"]["token"], "[redacted]",
        "{shown}"
    );
    assert_eq!(
        shown["vaults"][0]["companion"]["url"],
        companion.url.as_str()
    );

    let deleted = call(&client, "delete_note", json!({"path": "gone.md"})).await;
    assert_ne!(deleted.is_error, Some(true), "{deleted:?}");
    assert!(!vault.path().join("gone.md").exists());
    let asked = companion.requests_to("/obsidian-tc/v1/confirm");
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0]["tool"], "delete_note");
    assert_eq!(asked[0]["path"], "gone.md");
    client.cancel().await.expect("stop the client");
    server.stop();
}

#[test]
fn a_short_token_or_a_remote_companion_stops_the_sidecar_at_start() {
    let vault = crate::support::mcp::vault();
    let cases: [(Env, &[&str]); 2] = [
        (
            &[("OBSIDIAN_TC_HTTP_TOKEN", "too-short-0123456789")],
            &[
                "auth.token (from env OBSIDIAN_TC_HTTP_TOKEN)",
                "shorter than 32 characters",
            ],
        ),
        (
            &[
                ("OBSIDIAN_TC_HTTP_TOKEN", HTTP_TOKEN),
                ("OBSIDIAN_TC_COMPANION_URL", "http://192.0.2.7:27190"),
                ("OBSIDIAN_TC_COMPANION_TOKEN", TOKEN),
            ],
            &[
                "vaults[0].companion.url (from env OBSIDIAN_TC_COMPANION_URL)",
                "not a loopback HTTP address",
            ],
        ),
    ];
    for (env, said) in cases {
        let out = std::process::Command::new(crate::support::mcp::bin())
            .args(["serve", "--http", "--port", "0", &arg(vault.path())])
            .env_remove("OBSIDIAN_TC_CONFIG")
            .envs(crate::support::cache_home::cache_env(
                &crate::support::cache_home::test_cache_root(),
            ))
            .envs(env.iter().copied())
            .output()
            .expect("run obsidian-tc");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{env:?}: {stderr}");
        for words in said {
            assert!(stderr.contains(words), "{env:?}: {stderr}");
        }
        assert!(!stderr.contains(HTTP_TOKEN), "{stderr}");
    }
}
