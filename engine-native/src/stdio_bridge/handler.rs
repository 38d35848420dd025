//! [`BridgeHandler`]: the rmcp server handler of `obsidian-tc bridge` — the mirrored tools,
//! calls forwarded to TC Bridge, and `notifications/tools/list_changed` when the mirror moves.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, SubscriptionFilter,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use tokio::sync::Notify;

use crate::mcp::handler::{
    forward_to_subscription, forward_tool_list_changes, tool_list_changes_only,
};
use crate::stdio_bridge::client::{BridgeClient, CallReply};
use crate::stdio_bridge::mirror::{Link, ToolMirror};
use crate::stdio_bridge::poller::log_failure;
use crate::stdio_bridge::results;

/// The server name reported in `initialize` / `server/discover`.
pub const BRIDGE_SERVER_NAME: &str = "obsidian-tc-bridge";

/// What the bridge tells the model about itself.
const INSTRUCTIONS: &str = "obsidian-tc bridge relays the tools of TC Bridge, the Obsidian \
plugin running in the user's open vault. When a call answers plugin_unreachable, Obsidian is \
closed or TC Bridge is disabled: retry later; the tool list comes back by itself.";

/// The MCP side of the bridge.
#[derive(Debug, Clone)]
pub struct BridgeHandler {
    client: BridgeClient,
    mirror: Arc<ToolMirror>,
    wake: Arc<Notify>,
    authority: String,
}

impl BridgeHandler {
    /// A handler serving `mirror`'s tools and calling them through `client`; `wake` tells the
    /// poller to read the tool list now; `authority` (`host:port`) names the plugin in errors.
    pub fn new(
        client: BridgeClient,
        mirror: Arc<ToolMirror>,
        wake: Arc<Notify>,
        authority: String,
    ) -> BridgeHandler {
        BridgeHandler {
            client,
            mirror,
            wake,
            authority,
        }
    }

    /// Forwards one call and maps the answer; the poller is woken when the call shows the
    /// mirror is stale (the plugin went away, came back, or does not know the tool).
    async fn forward(&self, request: CallToolRequestParams) -> Result<CallToolResponse, McpError> {
        let was_up = self.mirror.link() == Link::Up;
        let arguments = request.arguments.unwrap_or_default();
        match self.client.call(&request.name, arguments).await {
            Ok(reply) => {
                if !was_up || matches!(reply, CallReply::ToolNotFound(_)) {
                    self.wake.notify_one();
                }
                results::from_reply(reply).map(Into::into)
            }
            Err(error) => {
                if was_up {
                    let failures = self.mirror.failed(error.0.clone());
                    log_failure(&self.authority, failures, &error.0);
                    self.wake.notify_one();
                }
                let link = self.mirror.link();
                Ok(results::unreachable(&self.authority, &error, &link).into())
            }
        }
    }
}

impl ServerHandler for BridgeHandler {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(
                BRIDGE_SERVER_NAME,
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(INSTRUCTIONS)
    }

    /// Once a 2025-11-25 client is initialized, tell it each time the mirrored list changes.
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        tokio::spawn(forward_tool_list_changes(context.peer, self.mirror.watch()));
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(
            self.mirror.tools().as_ref().clone(),
        ))
    }

    /// Forwards the call; a client's cancellation drops the HTTP request.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        tokio::select! {
            answer = self.forward(request) => answer,
            () = context.ct.cancelled() => Err(McpError::internal_error("the call was cancelled", None)),
        }
    }

    /// `subscriptions/listen` (2026-07-28): tool-list changes only.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(tool_list_changes_only(requested))
    }

    /// Runs one accepted subscription: tool-list changes until the client ends it.
    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), McpError> {
        if subscription.accepted().tools_list_changed == Some(true) {
            forward_to_subscription(&subscription, self.mirror.watch()).await;
        } else {
            subscription.cancelled().await;
        }
        Ok(())
    }
}
