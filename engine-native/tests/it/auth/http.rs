//! JWT auth at the HTTP edge of the real binary: 401s with a `WWW-Authenticate: Bearer`
//! challenge before dispatch, the RFC 9728 metadata document, each algorithm accepted, and
//! a verified caller's scopes and vault binding enforced by dispatch.

use std::time::{SystemTime, UNIX_EPOCH};

use jsonwebtoken::Algorithm;
use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::support::auth::{SECRET, confused, jwks, sign, unsigned};
use crate::support::mcp::{HttpServer, arg, call, free_port, run, structured};

const AUDIENCE: &str = "obsidian-tc-test";

/// Two vaults (`main`, `other`), a config file serving them under JWT auth on `port`
/// (throttling off: the admin tier allows one burst call).
struct Setup {
    dir: TempDir,
    port: u16,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().expect("temp dir");
        for vault in ["main", "other"] {
            let folder = dir.path().join(vault);
            std::fs::create_dir(&folder).expect("vault folder");
            std::fs::write(folder.join("hello.md"), format!("# {vault}\n")).expect("note");
        }
        let port = free_port();
        let config = json!({
            "vaults": [
                {"id": "main", "path": arg(&dir.path().join("main"))},
                {"id": "other", "path": arg(&dir.path().join("other"))},
            ],
            "throttle": {"enabled": false},
            "auth": {
                "mode": "jwt",
                "jwtSecret": SECRET,
                "jwks": jwks(),
                "audience": AUDIENCE,
                "resourceMetadata": {
                    "resource": format!("http://127.0.0.1:{port}/mcp"),
                    "authorizationServers": ["https://issuer.example"],
                },
            },
        });
        std::fs::write(dir.path().join("c.json"), config.to_string()).expect("config");
        Setup { dir, port }
    }

    fn config(&self) -> String {
        arg(&self.dir.path().join("c.json"))
    }

    fn start(&self) -> HttpServer {
        let port = self.port.to_string();
        HttpServer::start(
            &[
                "serve",
                "--http",
                "--port",
                &port,
                "--config",
                &self.config(),
            ],
            self.port,
        )
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// `obsidian-tc token mint` with `args` against this config.
    fn mint(&self, args: &[&str]) -> String {
        let config = self.config();
        let mut all = vec!["token", "mint"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--config", &config]);
        let out = run(&all);
        assert!(
            out.status.success(),
            "token mint: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .expect("utf-8")
            .trim()
            .to_owned()
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
}

/// Claims for this server's audience, issued now, valid for an hour.
fn claims(sub: &str, scopes: &[&str]) -> Value {
    let now = now();
    json!({"sub": sub, "iat": now, "exp": now + 3600, "aud": AUDIENCE, "scopes": scopes})
}

fn patched(patch: Value) -> Value {
    let mut body = claims("x", &["*"]);
    if let (Some(body), Value::Object(patch)) = (body.as_object_mut(), patch) {
        body.extend(patch);
    }
    body
}

/// POSTs an `initialize` with `token` as the bearer (none when `None`).
async fn post(setup: &Setup, token: Option<&str>) -> reqwest::Response {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}});
    let mut request = reqwest::Client::new()
        .post(setup.url("/mcp"))
        .header("Accept", "application/json, text/event-stream")
        .json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.expect("the server answers")
}

async fn client(setup: &Setup, token: &str) -> RunningService<RoleClient, ()> {
    let config =
        StreamableHttpClientTransportConfig::with_uri(setup.url("/mcp")).auth_header(token);
    ().serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("initialize over HTTP with a bearer token")
}

#[tokio::test]
async fn missing_and_bad_tokens_get_401_with_a_bearer_challenge() {
    let setup = Setup::new();
    let _server = setup.start();
    let metadata = format!(
        "resource_metadata=\"http://127.0.0.1:{}/.well-known/oauth-protected-resource/mcp\"",
        setup.port
    );
    let response = post(&setup, None).await;
    assert_eq!(response.status(), 401);
    let challenge = header(&response, "www-authenticate");
    assert!(challenge.starts_with("Bearer "), "{challenge}");
    assert!(challenge.contains(&metadata), "{challenge}");
    assert!(!challenge.contains("invalid_token"), "{challenge}");
    let body: Value = response.json().await.expect("JSON body");
    assert_eq!(body["error"]["code"], json!(-32001));
    assert_eq!(body["error"]["data"]["reason"], json!("missing_token"));
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("Authorization: Bearer")),
        "{body}"
    );

    let now = now();
    let cases = [
        (
            "alg none",
            unsigned(&sign(Algorithm::HS256, None, &claims("x", &["*"]))),
            "malformed",
        ),
        (
            "alg confusion",
            confused(&claims("x", &["*"])),
            "bad_signature",
        ),
        (
            "expired",
            sign(
                Algorithm::HS256,
                None,
                &patched(json!({"iat": now - 7200, "exp": now - 3600})),
            ),
            "token_expired",
        ),
        (
            "not yet valid",
            sign(
                Algorithm::RS256,
                Some("rsa-1"),
                &patched(json!({"nbf": now + 3600})),
            ),
            "token_not_yet_valid",
        ),
        (
            "too old",
            sign(
                Algorithm::ES256,
                Some("ec-1"),
                &patched(json!({"iat": now - 100_000})),
            ),
            "token_max_age",
        ),
        (
            "wrong audience",
            sign(
                Algorithm::EdDSA,
                Some("ed-1"),
                &patched(json!({"aud": "someone-else"})),
            ),
            "audience_mismatch",
        ),
        (
            "unknown kid",
            sign(Algorithm::RS256, Some("rsa-9"), &claims("x", &["*"])),
            "unknown_kid",
        ),
    ];
    for (case, token, reason) in cases {
        let response = post(&setup, Some(&token)).await;
        assert_eq!(response.status(), 401, "{case}");
        let challenge = header(&response, "www-authenticate");
        assert!(
            challenge.starts_with("Bearer ") && challenge.contains("error=\"invalid_token\""),
            "{case}: {challenge}"
        );
        let text = response.text().await.expect("body");
        assert!(!text.contains(&token), "{case}: the body echoes the token");
        let body: Value = serde_json::from_str(&text).expect("JSON body");
        assert_eq!(
            body["error"]["data"]["reason"],
            json!(reason),
            "{case}: {body}"
        );
    }
}

#[tokio::test]
async fn the_protected_resource_metadata_is_served_without_a_token() {
    let setup = Setup::new();
    let _server = setup.start();
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let response = reqwest::get(setup.url(path)).await.expect("answers");
        assert_eq!(response.status(), 200, "{path}");
        let document: Value = response.json().await.expect("JSON");
        assert_eq!(document["resource"], json!(setup.url("/mcp")));
        assert_eq!(
            document["authorization_servers"],
            json!(["https://issuer.example"])
        );
        assert_eq!(document["bearer_methods_supported"], json!(["header"]));
    }
}

#[tokio::test]
async fn each_algorithm_is_accepted() {
    let setup = Setup::new();
    let _server = setup.start();
    let minted = setup.mint(&["--sub", "hs-agent", "--scope", "read:*", "--ttl", "600"]);
    let tokens = [
        minted,
        sign(
            Algorithm::RS256,
            Some("rsa-1"),
            &claims("rs-agent", &["read:*"]),
        ),
        sign(
            Algorithm::ES256,
            Some("ec-1"),
            &claims("es-agent", &["read:*"]),
        ),
        sign(
            Algorithm::EdDSA,
            Some("ed-1"),
            &claims("ed-agent", &["read:*"]),
        ),
    ];
    for token in tokens {
        let client = client(&setup, &token).await;
        let read = call(&client, "read_note", json!({"path": "hello.md"})).await;
        assert_eq!(read.is_error, Some(false), "{:?}", read.structured_content);
        assert_eq!(structured(&read)["content"], json!("# main\n"));
        client.cancel().await.expect("close");
    }
}

#[tokio::test]
async fn dispatch_enforces_the_token_scopes_and_vault_binding() {
    let setup = Setup::new();
    let _server = setup.start();
    // A token without a vault claim is bound to the default vault (the first here).
    let claimless = client(&setup, &setup.mint(&["--sub", "ops", "--scope", "*"])).await;
    let other = call(
        &claimless,
        "read_note",
        json!({"path": "hello.md", "vault": "other"}),
    )
    .await;
    assert_eq!(structured(&other)["code"], json!("forbidden"));
    assert_eq!(structured(&other)["details"]["bound_vault"], json!("main"));
    let default = call(&claimless, "read_note", json!({"path": "hello.md"})).await;
    assert_eq!(structured(&default)["content"], json!("# main\n"));
    let listed = call(&claimless, "list_vaults", json!({})).await;
    assert_eq!(
        structured(&listed)["items"].as_array().map(Vec::len),
        Some(1)
    );

    let reader = client(
        &setup,
        &setup.mint(&["--sub", "reader", "--scopes", "read:vault"]),
    )
    .await;
    let denied = call(&reader, "read_note", json!({"path": "hello.md"})).await;
    assert_eq!(denied.is_error, Some(true));
    assert_eq!(structured(&denied)["code"], json!("forbidden"));
    assert_eq!(
        structured(&denied)["details"]["required"],
        json!(["read:notes"])
    );

    let bound = client(
        &setup,
        &setup.mint(&["--sub", "tenant", "--scope", "*", "--vault", "main"]),
    )
    .await;
    let foreign = call(
        &bound,
        "read_note",
        json!({"path": "hello.md", "vault": "other"}),
    )
    .await;
    assert_eq!(structured(&foreign)["code"], json!("forbidden"));
    let own = call(
        &bound,
        "read_note",
        json!({"path": "hello.md", "vault": "main"}),
    )
    .await;
    assert_eq!(own.is_error, Some(false));

    let vaults = call(&bound, "list_vaults", json!({})).await;
    let ids: Vec<&Value> = structured(&vaults)["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|v| &v["id"])
        .collect();
    assert_eq!(ids, [&json!("main")]);
    let health = call(&bound, "server_health", json!({})).await;
    assert_eq!(structured(&health)["vaults"], json!(1));
    let config = call(&bound, "get_server_config", json!({})).await;
    let config = structured(&config);
    assert_eq!(config["vaults"].as_array().map(Vec::len), Some(1));
    assert_eq!(config["vaults"][0]["id"], json!("main"));
    assert_eq!(config["auth"]["jwtSecret"], json!("[redacted]"));
    let metrics = call(&bound, "get_metrics", json!({})).await;
    let calls = structured(&metrics)["calls"]
        .as_array()
        .unwrap_or_else(|| panic!("calls: {:?}", metrics.structured_content))
        .clone();
    assert!(!calls.is_empty());
    assert!(
        calls.iter().all(|c| c["vault"] == json!("main")),
        "a bound caller sees only its vault's metrics: {calls:?}"
    );
    // A claimless token is bound to the default vault: it sees that vault's metrics only.
    let claimless_metrics = call(&claimless, "get_metrics", json!({})).await;
    assert!(
        structured(&claimless_metrics)["calls"]
            .as_array()
            .expect("calls")
            .iter()
            .all(|c| c["vault"] == json!("main"))
    );
    for client in [claimless, reader, bound] {
        client.cancel().await.expect("close");
    }
}

#[test]
fn token_mint_refuses_without_a_secret_or_with_a_bad_request() {
    let vault = tempfile::tempdir().expect("vault");
    let out = run(&["token", "mint", "--sub", "x", &arg(vault.path())]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("auth.jwtSecret") && said.contains("OBSIDIAN_TC_JWT_SECRET"),
        "{said}"
    );
    assert!(out.stdout.is_empty());

    let setup = Setup::new();
    for (args, words) in [
        (
            vec!["--sub", "x", "--scope", "read:"],
            "is not family:resource",
        ),
        (
            vec!["--sub", "x", "--ttl", "999999"],
            "--ttl must be between",
        ),
        (
            vec!["--sub", "x", "--vault", "nope"],
            "not a configured vault",
        ),
    ] {
        let config = setup.config();
        let mut all = vec!["token", "mint"];
        all.extend_from_slice(&args);
        all.extend_from_slice(&["--config", &config]);
        let out = run(&all);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(words), "{args:?}: {said}");
    }
}

fn header(response: &reqwest::Response, name: &str) -> String {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}
