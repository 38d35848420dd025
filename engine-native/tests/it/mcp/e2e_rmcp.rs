//! The rmcp client drives `obsidian-tc` through the shared end-to-end scenario
//! (tests/e2e/scenario.json, also run by the TypeScript SDK and the Python `mcp` client):
//! legacy `initialize` and auto (`server/discover` first) lifecycles, over stdio and over
//! Streamable HTTP. `OBSIDIAN_TC_BIN` picks the binary (scripts/test.sh passes the release
//! build); by default the test build's own binary.

use std::path::{Path, PathBuf};
use std::process::Command;

use rmcp::ServiceExt;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess};
use serde_json::Value;

use crate::support::mcp::{HttpServer, arg, bin, call, discover_first, fresh_vault};

/// The repository root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the workspace")
        .to_path_buf()
}

/// The shared scenario.
fn scenario() -> Value {
    let text = std::fs::read_to_string(repo().join("tests/e2e/scenario.json")).expect("scenario");
    serde_json::from_str(&text).expect("scenario JSON")
}

/// How the client establishes the session.
#[derive(Debug, Clone, Copy)]
enum Lifecycle {
    /// `initialize` (rmcp's `ServiceExt::serve`).
    Legacy,
    /// `server/discover` first, falling back to `initialize`.
    Auto,
}

impl Lifecycle {
    fn mode(self) -> Option<ClientLifecycleMode> {
        match self {
            Lifecycle::Legacy => None,
            Lifecycle::Auto => Some(discover_first()),
        }
    }

    /// The protocol obsidian-tc must end up speaking in this lifecycle.
    fn expected_protocol(self) -> &'static str {
        match self {
            Lifecycle::Legacy => "2025-11-25",
            Lifecycle::Auto => "2026-07-28",
        }
    }
}

/// Connects an rmcp client to `obsidian-tc <vault>` over stdio.
async fn stdio_client(vault: &Path, lifecycle: Lifecycle) -> RunningService<RoleClient, ()> {
    let command = tokio::process::Command::new(bin()).configure(|c| {
        c.arg(arg(vault)).env_remove("OBSIDIAN_TC_CONFIG").envs(
            crate::support::cache_home::cache_env(&crate::support::cache_home::test_cache_root()),
        );
    });
    let transport = TokioChildProcess::new(command).expect("spawn obsidian-tc");
    match lifecycle.mode() {
        None => ().serve(transport).await.expect("initialize over stdio"),
        Some(mode) => ().serve_with_lifecycle(transport, mode).await.expect("connect"),
    }
}

/// Connects an rmcp client to `server` over Streamable HTTP.
async fn http_client(server: &HttpServer, lifecycle: Lifecycle) -> RunningService<RoleClient, ()> {
    let transport = StreamableHttpClientTransport::from_uri(server.url());
    match lifecycle.mode() {
        None => ().serve(transport).await.expect("initialize over HTTP"),
        Some(mode) => ().serve_with_lifecycle(transport, mode).await.expect("connect"),
    }
}

/// The value at a dotted path of `value`.
fn at<'a>(value: &'a Value, dotted: &str) -> &'a Value {
    dotted.split('.').fold(value, |v, key| &v[key])
}

/// Every key of `expected` is in `actual` with an equal value (objects the same way).
fn assert_contains(actual: &Value, expected: &Value, label: &str) {
    let Some(expected) = expected.as_object() else {
        return;
    };
    for (key, want) in expected {
        let got = &actual[key.as_str()];
        if want.is_object() {
            assert_contains(got, want, &format!("{label}.{key}"));
        } else {
            assert_eq!(got, want, "{label}.{key}");
        }
    }
}

/// Checks the server and its tools, then runs every step of the scenario.
async fn run_scenario(client: &RunningService<RoleClient, ()>, vault: &Path, lifecycle: Lifecycle) {
    let scenario = scenario();
    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.protocol_version.as_str(),
        lifecycle.expected_protocol()
    );
    let server = info.server_info.as_ref().expect("serverInfo");
    assert_eq!(Value::from(server.name.as_str()), scenario["serverName"]);
    let tools = client.list_all_tools().await.expect("tools/list");
    for name in scenario["requiredTools"].as_array().expect("requiredTools") {
        assert!(
            tools.iter().any(|t| name.as_str() == Some(t.name.as_ref())),
            "{name} listed"
        );
    }
    let mut saved = serde_json::Map::new();
    for step in scenario["steps"].as_array().expect("steps") {
        let label = format!("step {}", step["name"]);
        if let Some(tool) = step["call"].as_str() {
            let result = call(client, tool, step["args"].clone()).await;
            let structured = result.structured_content.clone().unwrap_or(Value::Null);
            if let Some(code) = step["expect"].get("error") {
                assert_eq!(result.is_error, Some(true), "{label}: {structured}");
                assert_eq!(&structured["code"], code, "{label}");
            } else {
                assert_ne!(result.is_error, Some(true), "{label}: {structured}");
                assert_contains(&structured, &step["expect"]["structured"], &label);
            }
            for (name, path) in step["save"].as_object().into_iter().flatten() {
                let value = at(&structured, path.as_str().expect("save path")).clone();
                assert!(!value.is_null(), "{label}: nothing at {path}");
                saved.insert(name.clone(), value);
            }
        } else if let Some(file) = step["file"].as_str() {
            let path = vault.join(file);
            match step["content"].as_str() {
                Some(content) => {
                    let actual = std::fs::read_to_string(&path).unwrap_or_default();
                    assert_eq!(actual, content, "{label}");
                }
                None => assert_eq!(Value::from(path.exists()), step["exists"], "{label}"),
            }
        } else if let Some(name) = step["approve"].as_str() {
            let hash = saved[name].as_str().expect("saved args_hash");
            let out = Command::new(bin())
                .args(["elicit", "approve", hash, &arg(vault)])
                .env_remove("OBSIDIAN_TC_CONFIG")
                .envs(crate::support::cache_home::cache_env(
                    &crate::support::cache_home::test_cache_root(),
                ))
                .output()
                .expect("run elicit approve");
            assert!(
                out.status.success(),
                "{label}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        } else {
            panic!("{label}: unknown step kind");
        }
    }
}

/// The scenario over stdio in `lifecycle`.
async fn over_stdio(lifecycle: Lifecycle) {
    let vault = fresh_vault();
    let client = stdio_client(vault.path(), lifecycle).await;
    run_scenario(&client, vault.path(), lifecycle).await;
    client.cancel().await.expect("close");
}

/// The scenario over Streamable HTTP in `lifecycle`; the server must then shut down cleanly.
async fn over_http(lifecycle: Lifecycle) {
    let vault = fresh_vault();
    let server = HttpServer::serve_vault(vault.path());
    let client = http_client(&server, lifecycle).await;
    run_scenario(&client, vault.path(), lifecycle).await;
    client.cancel().await.expect("close");
    server.stop();
}

#[tokio::test]
async fn rmcp_legacy_over_stdio() {
    over_stdio(Lifecycle::Legacy).await;
}

#[tokio::test]
async fn rmcp_auto_over_stdio() {
    over_stdio(Lifecycle::Auto).await;
}

#[tokio::test]
async fn rmcp_legacy_over_http() {
    over_http(Lifecycle::Legacy).await;
}

#[tokio::test]
async fn rmcp_auto_over_http() {
    over_http(Lifecycle::Auto).await;
}
