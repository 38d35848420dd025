//! `obsidian-tc bridge`: a stdio MCP server that relays the tools of TC Bridge, the Obsidian
//! plugin, through its Bridge API v1 (seed 001) on `127.0.0.1`, so that clients that only
//! speak stdio (Claude Desktop) reach a running Obsidian.
//!
//! - [`settings`]: host (loopback only), port and token — flag > `OBSIDIAN_MCP_*` environment
//!   > the vault's `.obsidian/plugins/tc-bridge/data.json` > default port 27190;
//! - [`client`]: the Bridge API client (bearer token; 2 s to connect, 5 s for the tool list,
//!   an hour for a call, which may wait for the human's approval in Obsidian);
//! - [`mirror`]: the plugin's tools exactly as listed (name, description, inputSchema), the
//!   list's hash, and whether the plugin answers;
//! - [`poller`]: `GET /tools` every 5 s; a new hash replaces the tools and sends
//!   `notifications/tools/list_changed`;
//! - [`handler`]: the rmcp `ServerHandler`; [`results`]: the answers' mapping.
//!
//! # Mapping of Bridge API answers
//!
//! | Bridge API answer | MCP answer |
//! |---|---|
//! | 200 `{success, content, isError?}` | a tool result: `content` relayed item by item, `isError` kept (`success: false` also counts as an error) |
//! | 404 `TOOL_NOT_FOUND` | JSON-RPC error -32602 (invalid params, "Unknown tool"), as MCP treats unknown tools; the poller re-reads the tools at once |
//! | 400 `INVALID_ARGUMENTS` | an `isError` result with structured `validation_error` and the plugin's `details` (MCP reports input validation as tool errors so the model can correct itself) |
//! | 500 `EXECUTION_ERROR` | an `isError` result with structured `internal` |
//! | 401 / 403 | an `isError` result with structured `unauthorized`: the token is wrong (not retryable) |
//! | no answer (refused, timed out) | an `isError` result with structured `plugin_unreachable`, retryable, naming the address and asking "is Obsidian running with TC Bridge enabled?" |
//!
//! A content item of a type MCP does not define becomes a text item holding its JSON.
//!
//! # While the plugin is down
//!
//! A failed request marks the link down; the poller retries with exponential backoff (250 ms
//! doubling to 5 s) for 30 attempts (seed 001), then every 30 s for as long as the bridge
//! runs, so it recovers however late Obsidian starts. Calls are still tried (a refused
//! connection on loopback fails at once), so a call never hangs on a closed Obsidian and the
//! first call after Obsidian returns already succeeds. The last known tools stay listed. The
//! first answer after a failure re-reads the tools, replaces them and sends
//! `notifications/tools/list_changed` (the plugin may have restarted with other tools).
//!
//! Clients on protocol 2025-11-25 get `list_changed` after `initialize`; 2026-07-28 clients
//! through `subscriptions/listen`.

pub mod client;
pub mod handler;
pub mod mirror;
pub mod poller;
pub mod results;
pub mod settings;

use std::sync::Arc;

use crate::mcp::stdio::serve_handler_on_stdio;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::stdio_bridge::client::BridgeClient;
use crate::stdio_bridge::handler::BridgeHandler;
use crate::stdio_bridge::mirror::ToolMirror;
use crate::stdio_bridge::poller::Poller;
use crate::stdio_bridge::settings::ConnectionSettings;

/// Serves the bridge on stdio until the client closes stdin or `cancel` fires. The tool list
/// is read once before serving (so the first `tools/list` has it when Obsidian runs), then
/// kept fresh by the poller.
pub async fn serve_bridge(
    settings: &ConnectionSettings,
    cancel: CancellationToken,
) -> Result<(), String> {
    let client = BridgeClient::new(settings)?;
    let mirror = Arc::new(ToolMirror::new());
    let wake = Arc::new(Notify::new());
    let authority = settings.authority();
    let poller = Poller::new(
        client.clone(),
        Arc::clone(&mirror),
        Arc::clone(&wake),
        authority.clone(),
    );
    poller.poll_once().await;
    let polling = tokio::spawn(poller.run(cancel.child_token()));
    let handler = BridgeHandler::new(client, mirror, wake, authority);
    let outcome = serve_handler_on_stdio(handler, cancel.child_token()).await;
    cancel.cancel();
    let _ = polling.await;
    outcome
}
