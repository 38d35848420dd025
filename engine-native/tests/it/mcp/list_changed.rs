//! `notifications/tools/list_changed`: after a `reload_vault` that changes the tool visibility,
//! every connected MCP client (stdio, HTTP sessions, 2026-07-28 `subscriptions/listen`
//! streams) is notified and the new listing applies.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, ServerNotification, SubscriptionFilter};
use rmcp::service::{ClientServiceExt, NotificationContext, Peer, RoleClient, RunningService};
use rmcp::transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::json;
use tokio::sync::mpsc;

use crate::support;
use crate::support::mcp::{BIN, HttpServer, arg, discover_first, free_port, write_config};

/// A client that reports each `tools/list_changed` it receives.
struct Recorder(mpsc::UnboundedSender<()>);

impl ClientHandler for Recorder {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send(());
    }
}

/// Whether `tools/list` offers `name` to `client`.
async fn lists(client: &RunningService<RoleClient, Recorder>, name: &str) -> bool {
    client
        .list_all_tools()
        .await
        .expect("tools/list")
        .iter()
        .any(|tool| tool.name == name)
}

/// Calls `reload_vault`.
async fn reload(peer: &Peer<RoleClient>) -> CallToolResult {
    peer.call_tool(CallToolRequestParams::new("reload_vault"))
        .await
        .expect("tools/call answers")
}

/// `serve --http --config` on a free port, the config listing every tool (flat) without a
/// rate limit: the server, its config file, and the config's JSON.
fn serve_flat(vault: &Path) -> (HttpServer, PathBuf, serde_json::Value) {
    let config = vault.join("obsidian-tc.json");
    let port = free_port();
    let http = json!({"transports": {"http": {"enabled": true, "port": port}}, "throttle": {"enabled": false}, "toolFacade": {"mode": "flat"}});
    write_config(&config, vault, http.clone());
    let server = HttpServer::start(&["serve", "--http", "--config", &arg(&config)], port);
    (server, config, http)
}

/// Rewrites the config `http` to hide `get_metrics` (a reload then changes the tool list).
fn hide_get_metrics(config: &Path, vault: &Path, mut http: serde_json::Value) {
    http["toolVisibility"] = json!({"hide": ["get_metrics"]});
    write_config(config, vault, http);
}

async fn expect_notification(received: &mut mpsc::UnboundedReceiver<()>) {
    tokio::time::timeout(Duration::from_secs(10), received.recv())
        .await
        .expect("tools/list_changed arrives")
        .expect("the client is alive");
}

#[tokio::test]
async fn a_stdio_client_is_told_when_a_reload_hides_a_tool() {
    let vault = support::mcp::vault();
    let config = vault.path().join("obsidian-tc.json");
    let quiet = json!({"throttle": {"enabled": false}, "toolFacade": {"mode": "flat"}});
    write_config(&config, vault.path(), quiet);
    let command = tokio::process::Command::new(BIN).configure(|c| {
        c.args(["serve", "--config", &arg(&config)])
            .env_remove("OBSIDIAN_TC_CONFIG");
    });
    let (sender, mut received) = mpsc::unbounded_channel();
    let client = Recorder(sender)
        .serve(TokioChildProcess::new(command).expect("spawn obsidian-tc"))
        .await
        .expect("initialize over stdio");
    assert!(lists(&client, "get_metrics").await);

    // A reload that changes nothing visible sends nothing.
    let unchanged = reload(&client).await;
    assert_eq!(unchanged.is_error, Some(false), "{unchanged:?}");

    write_config(
        &config,
        vault.path(),
        json!({"throttle": {"enabled": false}, "toolFacade": {"mode": "flat"}, "toolVisibility": {"hide": ["get_metrics"]}}),
    );
    let reloaded = reload(&client).await;
    assert_eq!(reloaded.is_error, Some(false), "{reloaded:?}");
    expect_notification(&mut received).await;
    assert!(received.try_recv().is_err(), "exactly one notification");
    assert!(!lists(&client, "get_metrics").await);
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn every_http_session_is_told_when_a_reload_hides_a_tool() {
    let vault = support::mcp::vault();
    let (server, config, http) = serve_flat(vault.path());
    let uri = server.url();
    let mut sessions = Vec::new();
    for _ in 0..2 {
        let (sender, received) = mpsc::unbounded_channel();
        let client = Recorder(sender)
            .serve(StreamableHttpClientTransport::from_uri(uri.clone()))
            .await
            .expect("initialize over HTTP");
        assert!(lists(&client, "get_metrics").await);
        sessions.push((client, received));
    }
    hide_get_metrics(&config, vault.path(), http);
    let reloaded = reload(&sessions[0].0).await;
    assert_eq!(reloaded.is_error, Some(false), "{reloaded:?}");
    for (client, received) in &mut sessions {
        expect_notification(received).await;
        assert!(!lists(client, "get_metrics").await);
    }
    for (client, _) in sessions {
        client.cancel().await.expect("close");
    }
}

/// A 2026-07-28 client over HTTP listens with `subscriptions/listen`: the acknowledgment
/// accepts tool-list changes only (obsidian-tc has no changing prompt list), and a reload
/// that hides a tool arrives on the subscription.
#[tokio::test]
async fn a_2026_07_28_subscription_hears_a_reload_that_hides_a_tool() {
    let vault = support::mcp::vault();
    let (server, config, http) = serve_flat(vault.path());
    let mode = discover_first();
    let (sender, _unused) = mpsc::unbounded_channel();
    let client = Recorder(sender)
        .serve_with_lifecycle(StreamableHttpClientTransport::from_uri(server.url()), mode)
        .await
        .expect("connect");
    let asked = SubscriptionFilter::builder()
        .tools_list_changed()
        .prompts_list_changed()
        .build();
    let mut subscription = client.listen(asked).await.expect("subscriptions/listen");
    let acknowledged = subscription.acknowledged();
    assert_eq!(acknowledged.tools_list_changed, Some(true));
    assert_ne!(acknowledged.prompts_list_changed, Some(true));

    hide_get_metrics(&config, vault.path(), http);
    let reloaded = reload(&client).await;
    assert_eq!(reloaded.is_error, Some(false), "{reloaded:?}");
    let heard = tokio::time::timeout(Duration::from_secs(10), subscription.next())
        .await
        .expect("a notification within 10 s")
        .expect("the subscription is open");
    assert!(
        matches!(
            heard,
            Some(ServerNotification::ToolListChangedNotification(_))
        ),
        "{heard:?}"
    );
    assert!(!lists(&client, "get_metrics").await);
    drop(subscription);
    client.cancel().await.expect("close");
    server.stop();
}
