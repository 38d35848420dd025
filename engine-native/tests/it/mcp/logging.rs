//! MCP logging against the real binary with real rmcp clients: nothing before a client asks;
//! after `logging/setLevel` (2025-11-25 session) or with a per-request `logLevel` (2026-07-28)
//! one `notifications/message` per call at or above the level, carrying the tool and its
//! outcome, never the arguments.
#![allow(deprecated)] // MCP logging is deprecated by SEP-2577; rmcp marks its types so

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, LoggingLevel, LoggingMessageNotificationParam, RequestMetaObject,
    SetLevelRequestParams,
};
use rmcp::service::{ClientServiceExt, NotificationContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::support::mcp::{HttpServer, discover_first};

/// A client that keeps every log message it receives.
#[derive(Clone, Default)]
struct Listener {
    messages: Arc<Mutex<Vec<LoggingMessageNotificationParam>>>,
}

impl ClientHandler for Listener {
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.messages.lock().expect("messages").push(params);
    }
}

impl Listener {
    /// The messages once `count` arrived (or after 3 s), plus a grace period for extras.
    async fn received(&self, count: usize) -> Vec<(String, Value)> {
        for _ in 0..300 {
            if self.messages.lock().expect("messages").len() >= count {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        self.messages
            .lock()
            .expect("messages")
            .iter()
            .map(|m| {
                assert_eq!(m.logger.as_deref(), Some("obsidian-tc"));
                (format!("{:?}", m.level), m.data.clone())
            })
            .collect()
    }
}

fn vault() -> TempDir {
    let dir = tempfile::tempdir().expect("vault");
    std::fs::write(dir.path().join("Note.md"), "# Note\nsecret words\n").expect("note");
    dir
}

fn read(path: &str, level: Option<LoggingLevel>) -> CallToolRequestParams {
    let Value::Object(args) = json!({ "path": path }) else {
        unreachable!()
    };
    let mut params = CallToolRequestParams::new("read_note").with_arguments(args);
    if let Some(level) = level {
        let mut meta = RequestMetaObject::default();
        meta.set_log_level(level);
        params.meta = Some(meta);
    }
    params
}

async fn call(client: &RunningService<RoleClient, Listener>, params: CallToolRequestParams) {
    client.call_tool(params).await.expect("tools/call answers");
}

/// `(level, tool, outcome)` of each message, and no message carries the note's words.
fn summary(messages: &[(String, Value)]) -> Vec<(String, String, String)> {
    messages
        .iter()
        .map(|(level, data)| {
            assert!(!data.to_string().contains("secret"), "{data}");
            (
                level.clone(),
                data["tool"].as_str().unwrap_or_default().to_owned(),
                data["outcome"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn entry(level: &str, outcome: &str) -> (String, String, String) {
    (level.to_owned(), "read_note".to_owned(), outcome.to_owned())
}

#[tokio::test]
async fn a_session_gets_messages_at_its_level_only_after_it_asks() {
    let vault = vault();
    let server = HttpServer::serve_vault(vault.path());
    let listener = Listener::default();
    let client = listener
        .clone()
        .serve(StreamableHttpClientTransport::from_uri(server.url()))
        .await
        .expect("initialize");
    assert!(
        client
            .peer_info()
            .expect("server info")
            .capabilities
            .logging
            .is_some()
    );
    // Before setLevel: silence.
    call(&client, read("Note.md", None)).await;
    client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Info))
        .await
        .expect("logging/setLevel answers {}");
    call(&client, read("Note.md", None)).await;
    call(&client, read("Missing.md", None)).await;
    client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Warning))
        .await
        .expect("setLevel");
    // Below warning: neither a success (info) nor a refusal (notice) is sent.
    call(&client, read("Note.md", None)).await;
    call(&client, read("Missing.md", None)).await;
    client
        .set_level(SetLevelRequestParams::new(LoggingLevel::Notice))
        .await
        .expect("setLevel");
    call(&client, read("Missing.md", None)).await;
    let messages = listener.received(3).await;
    assert_eq!(
        summary(&messages),
        [
            entry("Info", "ok"),
            entry("Notice", "not_found"),
            entry("Notice", "not_found"),
        ]
    );
    assert_eq!(messages[0].1["vault"], "main");
    client.cancel().await.expect("close");
    server.stop();
}

#[tokio::test]
async fn a_2026_07_28_request_carries_its_own_level() {
    let vault = vault();
    let server = HttpServer::serve_vault(vault.path());
    let listener = Listener::default();
    let mode = discover_first();
    let client = listener
        .clone()
        .serve_with_lifecycle(StreamableHttpClientTransport::from_uri(server.url()), mode)
        .await
        .expect("connect");
    call(&client, read("Note.md", None)).await;
    call(&client, read("Note.md", Some(LoggingLevel::Debug))).await;
    call(&client, read("Missing.md", Some(LoggingLevel::Error))).await;
    call(&client, read("Missing.md", Some(LoggingLevel::Notice))).await;
    let messages = listener.received(2).await;
    assert_eq!(
        summary(&messages),
        [entry("Info", "ok"), entry("Notice", "not_found")]
    );
    client.cancel().await.expect("close");
    server.stop();
}
