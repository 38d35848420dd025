//! `notifications/tools/list_changed`: after a `reload_vault` that changes the tool visibility,
//! every connected MCP client (stdio, HTTP sessions) is notified and the new listing applies.

mod mcp_support;

use std::time::Duration;

use mcp_support::{BIN, HttpServer, arg, free_port, write_config};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{NotificationContext, Peer, RoleClient, RunningService};
use rmcp::transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::json;
use tokio::sync::mpsc;

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

async fn expect_notification(received: &mut mpsc::UnboundedReceiver<()>) {
    tokio::time::timeout(Duration::from_secs(10), received.recv())
        .await
        .expect("tools/list_changed arrives")
        .expect("the client is alive");
}

#[tokio::test]
async fn a_stdio_client_is_told_when_a_reload_hides_a_tool() {
    let vault = mcp_support::vault();
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
    let vault = mcp_support::vault();
    let config = vault.path().join("obsidian-tc.json");
    let port = free_port();
    let http = json!({"transports": {"http": {"enabled": true, "port": port}}, "throttle": {"enabled": false}, "toolFacade": {"mode": "flat"}});
    write_config(&config, vault.path(), http.clone());
    let server = HttpServer::start(&["serve", "--http", "--config", &arg(&config)], port);
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
    let mut hidden = http;
    hidden["toolVisibility"] = json!({"hide": ["get_metrics"]});
    write_config(&config, vault.path(), hidden);
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
