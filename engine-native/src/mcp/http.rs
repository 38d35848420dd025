//! MCP over Streamable HTTP on axum at [`MCP_PATH`].
//!
//! - Sessions are on (protocol 2025-11-25 clients get `Mcp-Session-Id` and unsolicited
//!   notifications); 2026-07-28 clients are served statelessly by rmcp on the same endpoint.
//! - `Host` is checked against the loopback names and the configured bind host: anything else
//!   answers 403 (DNS-rebinding defence).
//! - `Origin`, when a request carries one (browsers do), must be a loopback origin
//!   (`localhost`, `127.0.0.1`, `[::1]`, any port, http or https) or one of
//!   `transports.http.allowedOrigins`; anything else answers 403 before MCP. Requests without
//!   `Origin` (non-browser clients) pass. rmcp's own Origin validation does the matching.
//! - At most `transports.http.maxSessions` sessions are open at once (an `initialize` beyond
//!   answers 503), and a session without traffic for `sessionIdleSeconds` is closed (its id
//!   then answers 404): see [`sessions`].
//! - The caller of each request comes from the [`crate::mcp::auth::authenticate`] middleware.
//! - `GET /metrics` serves the Prometheus metrics ([`mod@metrics_route`]), behind the same
//!   authentication unless `observability.metrics.public` is set on a loopback bind (404 to
//!   everyone when they are off).
//! - Accepted connections get `TCP_NODELAY`: a response goes out in several writes (headers,
//!   SSE events, the last chunk), and with Nagle's algorithm the last one waited for the
//!   client's delayed ACK — about 40 ms on every back-to-back request of a keep-alive client.

pub mod metrics_route;
mod rebinding;
pub mod sessions;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::Request;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use axum::serve::ListenerExt;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::config::LoadedConfig;
use crate::dispatch::Dispatcher;
use crate::mcp::auth::{HttpAuth, authenticate};
use crate::mcp::handler::{CallerSource, McpHandler};
use crate::mcp::http::metrics_route::{MetricsRoute, metrics_route};
use crate::mcp::http::sessions::{BoundedSessionManager, refusal_answers_503};

/// The path of the MCP endpoint.
pub const MCP_PATH: &str = "/mcp";

/// The largest request body accepted, in bytes (413 beyond).
const MAX_REQUEST_BODY_BYTES: usize = 4 << 20;

/// The `Host` names accepted: the loopback names and the configured bind host (any port).
pub fn allowed_hosts(config_host: &str) -> Vec<String> {
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1", "[::1]"]
        .into_iter()
        .map(str::to_owned)
        .collect();
    if !hosts.iter().any(|host| host == config_host) {
        hosts.push(config_host.to_owned());
    }
    hosts
}

/// The `Origin`s accepted: the loopback origins on any port, then `configured`.
pub fn allowed_origins(configured: &[String]) -> Vec<String> {
    let mut origins: Vec<String> = ["localhost", "127.0.0.1", "[::1]"]
        .into_iter()
        .flat_map(|host| ["http", "https"].map(|scheme| format!("{scheme}://{host}:*")))
        .collect();
    origins.extend(configured.iter().cloned());
    origins
}

/// A `DELETE` that ended a session answers `200 OK`, as the reference SDK servers do: rmcp
/// answers `202 Accepted`, which the Python client logs as a failed session termination.
async fn session_end_answers_ok(request: Request, next: Next) -> Response {
    let ends_session = request.method() == Method::DELETE;
    let mut response = next.run(request).await;
    if ends_session && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::OK;
    }
    response
}

/// Binds the configured HTTP address; a clear error when it is taken or not bindable.
pub async fn bind(config: &LoadedConfig) -> Result<TcpListener, String> {
    let http = &config.config.transports.http;
    let address = format!("{}:{}", http.host, http.port);
    TcpListener::bind(&address).await.map_err(|e| {
        format!(
            "cannot listen on {address}: {e}; choose another port with --port (or \
             transports.http.port), or stop what is using it"
        )
    })
}

/// Serves MCP over HTTP on `listener` until `cancel` fires, then finishes open requests.
pub async fn serve_http(
    dispatcher: Arc<Dispatcher>,
    listener: TcpListener,
    cancel: CancellationToken,
) -> Result<(), String> {
    let config = dispatcher.runtime().config().config.clone();
    let auth = Arc::new(HttpAuth::new(&config.auth)?);
    let server = McpHandler::new(Arc::clone(&dispatcher), CallerSource::HttpRequest);
    let service_config = StreamableHttpServerConfig::default()
        .with_cancellation_token(cancel.child_token())
        .with_legacy_session_mode(true)
        .with_allowed_hosts(allowed_hosts(&config.transports.http.host))
        .with_allowed_origins(allowed_origins(&config.transports.http.allowed_origins))
        .enforce_origin_validation()
        .with_max_request_body_bytes(MAX_REQUEST_BODY_BYTES);
    let http = &config.transports.http;
    let max_sessions = usize::try_from(http.max_sessions).unwrap_or(usize::MAX);
    let sessions = Arc::new(BoundedSessionManager::new(
        max_sessions,
        Duration::from_secs(http.session_idle_seconds),
    ));
    let metrics = metrics_route(&dispatcher, Arc::clone(&sessions), &config);
    let service =
        StreamableHttpService::new(move || Ok(server.for_session()), sessions, service_config);
    let mut authenticated = axum::Router::new()
        .nest_service(MCP_PATH, service)
        .layer(axum::middleware::from_fn(move |request, next| {
            refusal_answers_503(max_sessions, request, next)
        }))
        .layer(axum::middleware::from_fn(session_end_answers_ok));
    let mut open = auth.metadata_routes();
    match metrics {
        MetricsRoute::Authenticated(route) => authenticated = authenticated.merge(route),
        MetricsRoute::Open(route) => open = open.merge(route),
    }
    let router = authenticated
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&auth),
            authenticate,
        ))
        .merge(open);
    let local: Option<SocketAddr> = listener.local_addr().ok();
    if let Some(address) = local {
        tracing::info!("MCP over HTTP on http://{address}{MCP_PATH}");
    }
    let listener = listener.tap_io(|stream| {
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!("cannot set TCP_NODELAY on a connection: {e}");
        }
    });
    axum::serve(listener, router)
        .with_graceful_shutdown(async move { cancel.cancelled().await })
        .await
        .map_err(|e| format!("the HTTP server failed: {e}"))
}
