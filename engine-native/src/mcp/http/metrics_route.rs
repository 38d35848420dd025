//! `GET /metrics`: the server's Prometheus metrics on the HTTP transport
//! (`observability.metrics`).
//!
//! - Off (`enabled: false`): `/metrics` answers 404 to everyone, with or without a token.
//! - By default behind the same authentication as MCP: the caller needs the scope
//!   `admin:metrics` (the scope of the `get_metrics` tool; under `auth.mode` `none` and `token`
//!   the caller has every scope) and must not be bound to one vault, since the text covers
//!   every vault and the process; otherwise 403.
//! - `public: true` serves it without authentication, but only while the transport is bound
//!   to a loopback address; on any other address a warning is logged at start and
//!   authentication stays.
//! - `Host` and `Origin` are checked as for MCP (the `rebinding` module): 403 otherwise.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use engine_core::acl::{Scope, satisfies_all};

use crate::auth::Caller;
use crate::config::ServerConfig;
use crate::config::checks::is_loopback;
use crate::dispatch::Dispatcher;
use crate::mcp::http::rebinding::refusal;
use crate::mcp::http::sessions::BoundedSessionManager;
use crate::mcp::http::{allowed_hosts, allowed_origins};
use crate::runtime::metrics::families::EXPOSITION_CONTENT_TYPE;

/// The path of the metrics endpoint.
pub const METRICS_PATH: &str = "/metrics";

/// The scope a caller needs to read `/metrics`.
pub const METRICS_SCOPE: &str = "admin:metrics";

/// Where the metrics route goes: behind MCP's authentication or in front of it.
pub enum MetricsRoute {
    /// Served to authenticated callers with [`METRICS_SCOPE`].
    Authenticated(Router),
    /// Answered without authentication: the metrics with `public: true` on a loopback bind,
    /// or the 404 of metrics turned off.
    Open(Router),
}

/// What a scrape needs.
struct Endpoint {
    dispatcher: Arc<Dispatcher>,
    sessions: Arc<BoundedSessionManager>,
    hosts: Vec<String>,
    origins: Vec<String>,
    authenticated: bool,
}

/// The metrics route of `config`. `sessions` is the transport's session manager (for
/// `obsidian_tc_http_sessions_open`).
pub fn metrics_route(
    dispatcher: &Arc<Dispatcher>,
    sessions: Arc<BoundedSessionManager>,
    config: &ServerConfig,
) -> MetricsRoute {
    let wanted = config.observability.metrics;
    if !wanted.enabled {
        return MetricsRoute::Open(Router::new().route(METRICS_PATH, get(turned_off)));
    }
    let http = &config.transports.http;
    let public = wanted.public && is_loopback(&http.host);
    if wanted.public && !public {
        tracing::warn!(
            host = %http.host,
            "observability.metrics.public is ignored: the HTTP transport is not bound to a \
             loopback address, so {METRICS_PATH} takes the same bearer token as MCP"
        );
    }
    let endpoint = Arc::new(Endpoint {
        dispatcher: Arc::clone(dispatcher),
        sessions,
        hosts: allowed_hosts(&http.host),
        origins: allowed_origins(&http.allowed_origins),
        authenticated: !public,
    });
    let router = Router::new()
        .route(METRICS_PATH, get(scrape))
        .with_state(endpoint);
    if public {
        MetricsRoute::Open(router)
    } else {
        MetricsRoute::Authenticated(router)
    }
}

/// The answer of `/metrics` while metrics are off.
async fn turned_off() -> Response {
    (
        StatusCode::NOT_FOUND,
        "metrics are off on this server (observability.metrics.enabled)",
    )
        .into_response()
}

/// One scrape: the checks, then the text.
async fn scrape(State(endpoint): State<Arc<Endpoint>>, request: Request) -> Response {
    if let Some(why) = refusal(
        request.headers(),
        request.uri(),
        &endpoint.hosts,
        &endpoint.origins,
    ) {
        return (StatusCode::FORBIDDEN, why).into_response();
    }
    if endpoint.authenticated
        && let Err(why) = permitted(request.extensions().get::<Caller>())
    {
        return (StatusCode::FORBIDDEN, why).into_response();
    }
    let sessions = endpoint.sessions.open_sessions().await;
    let dispatcher = Arc::clone(&endpoint.dispatcher);
    let text =
        tokio::task::spawn_blocking(move || dispatcher.runtime().metrics_text(sessions)).await;
    match text {
        Ok(Ok(text)) => ([(header::CONTENT_TYPE, EXPOSITION_CONTENT_TYPE)], text).into_response(),
        Ok(Err(error)) => (StatusCode::INTERNAL_SERVER_ERROR, error).into_response(),
        Err(error) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the scrape failed: {error}"),
        )
            .into_response(),
    }
}

/// Whether the authenticated `caller` may read the metrics; the reason when not.
fn permitted(caller: Option<&Caller>) -> Result<(), String> {
    let caller = caller.ok_or("the request has no authenticated caller")?;
    let required = [Scope::parse(METRICS_SCOPE).map_err(|error| error.to_string())?];
    if !satisfies_all(&caller.scopes, &required) {
        return Err(format!(
            "Forbidden: {METRICS_PATH} needs the scope {METRICS_SCOPE} (mint a token with \
             `obsidian-tc token mint --scope {METRICS_SCOPE}`)"
        ));
    }
    if let Some(vault) = &caller.vault_binding {
        return Err(format!(
            "Forbidden: this token is bound to vault '{vault}'; {METRICS_PATH} covers every \
             vault and the process, so it needs a token without a vault"
        ));
    }
    Ok(())
}
