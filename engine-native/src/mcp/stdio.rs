//! MCP over the process's stdin and stdout (stdout carries only protocol messages; logs go to
//! stderr).

use std::sync::Arc;

use rmcp::{RoleServer, Service, ServiceExt};
use tokio_util::sync::CancellationToken;

use crate::auth::Caller;
use crate::dispatch::Dispatcher;
use crate::mcp::handler::{CallerSource, McpHandler};

/// Serves MCP on stdio as the trusted [`Caller::stdio`] until the client closes stdin or
/// `cancel` fires.
pub async fn serve_stdio(
    dispatcher: Arc<Dispatcher>,
    cancel: CancellationToken,
) -> Result<(), String> {
    let server = McpHandler::new(dispatcher, CallerSource::Fixed(Caller::stdio()));
    serve_handler_on_stdio(server, cancel).await
}

/// Serves `handler` on stdio until the client closes stdin or `cancel` fires (also the
/// transport of `obsidian-tc bridge`).
pub(crate) async fn serve_handler_on_stdio<H: Service<RoleServer>>(
    handler: H,
    cancel: CancellationToken,
) -> Result<(), String> {
    let running = handler
        .serve_with_ct(rmcp::transport::stdio(), cancel)
        .await
        .map_err(|e| format!("the stdio MCP session did not start: {e}"))?;
    running
        .waiting()
        .await
        .map(|_| ())
        .map_err(|e| format!("the stdio MCP session failed: {e}"))
}
