//! Limits on the HTTP sessions (`transports.http.maxSessions`, `sessionIdleSeconds`).
//!
//! - [`BoundedSessionManager`] is rmcp's [`LocalSessionManager`] with a cap: an `initialize`
//!   that would open one session more than the cap is refused. The check and the insertion
//!   happen under one lock, so simultaneous `initialize`s cannot overshoot it.
//! - A session is closed after the idle time without any request or message (rmcp's session
//!   keep-alive); rmcp then answers its `Mcp-Session-Id` with 404, so clients initialize again.
//! - [`refusal_answers_503`] turns a refused `initialize` (rmcp would answer 500) into
//!   `503 Service Unavailable` with a JSON-RPC error that says what to do. The refusal is
//!   reported to it through a task-local flag: rmcp creates the session inside the request's
//!   own future.

use std::cell::Cell;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId,
};
use tokio::sync::Mutex;

tokio::task_local! {
    /// Set when this request's `initialize` was refused for the session cap.
    static REFUSED: Cell<bool>;
}

/// rmcp's in-memory session manager with a cap on open sessions and an idle expiry.
pub struct BoundedSessionManager {
    inner: LocalSessionManager,
    max_sessions: usize,
    creating: Mutex<()>,
}

impl BoundedSessionManager {
    /// At most `max_sessions` open sessions, each closed after `idle` without traffic.
    pub fn new(max_sessions: usize, idle: Duration) -> BoundedSessionManager {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(idle);
        BoundedSessionManager {
            inner,
            max_sessions,
            creating: Mutex::new(()),
        }
    }

    /// How many sessions are open now.
    pub async fn open_sessions(&self) -> usize {
        self.inner.sessions.read().await.len()
    }
}

/// Why a session operation failed.
#[derive(Debug)]
pub enum SessionLimitError {
    /// The cap of open sessions is reached.
    Full {
        /// The cap (`transports.http.maxSessions`).
        max_sessions: usize,
    },
    /// rmcp's session manager failed.
    Local(LocalSessionManagerError),
}

impl fmt::Display for SessionLimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionLimitError::Full { max_sessions } => write!(
                f,
                "the server already has {max_sessions} open MCP sessions \
                 (transports.http.maxSessions); end a session you no longer use (HTTP DELETE \
                 with its Mcp-Session-Id), wait until idle sessions expire \
                 (transports.http.sessionIdleSeconds), or raise the limit"
            ),
            SessionLimitError::Local(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SessionLimitError {}

impl From<LocalSessionManagerError> for SessionLimitError {
    fn from(e: LocalSessionManagerError) -> SessionLimitError {
        SessionLimitError::Local(e)
    }
}

impl SessionManager for BoundedSessionManager {
    type Error = SessionLimitError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let _creating = self.creating.lock().await;
        if self.open_sessions().await >= self.max_sessions {
            // Outside a request (no scope) there is no response to fix: the error is enough.
            let _ = REFUSED.try_with(|refused| refused.set(true));
            return Err(SessionLimitError::Full {
                max_sessions: self.max_sessions,
            });
        }
        Ok(self.inner.create_session().await?)
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.resume(id, last_event_id).await?)
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        Ok(self.inner.restore_session(id).await?)
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}

/// Answers a request whose `initialize` hit the session cap with 503 and a JSON-RPC error
/// (`-32000`) carrying the reason, instead of rmcp's bare 500.
pub async fn refusal_answers_503(max_sessions: usize, request: Request, next: Next) -> Response {
    let (refused, response) = REFUSED
        .scope(Cell::new(false), async {
            let response = next.run(request).await;
            (REFUSED.with(Cell::get), response)
        })
        .await;
    if !refused {
        return response;
    }
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {
            "code": -32000,
            "message": SessionLimitError::Full { max_sessions }.to_string(),
        },
    });
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}
