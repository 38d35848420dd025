//! The auth seam of the HTTP transport: one function from a request's parts to the
//! [`Caller`] the tools run as, applied by the [`authenticate`] middleware, which puts the
//! caller in the request's extensions (or answers the rejection's status). Tools never see
//! headers or tokens, only the caller; adding bearer JWTs later changes this file only.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use engine_core::acl::Scope;

use crate::config::{AuthConfig, AuthMode};
use crate::dispatch::Caller;

/// The caller id of an unauthenticated HTTP client (`auth.mode: none`, loopback only).
pub const LOOPBACK_CALLER_ID: &str = "http-loopback";

/// Why a request gets no caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthRejection {
    /// The HTTP status to answer.
    pub status: StatusCode,
    /// What the client should do.
    pub message: String,
}

/// Checks that the HTTP transport can authenticate callers under `auth` (done once, at start):
/// `none` can; `jwt` is refused until bearer tokens are implemented, with a message saying so.
pub fn check_supported(auth: &AuthConfig) -> Result<(), String> {
    match auth.mode {
        AuthMode::None => Ok(()),
        AuthMode::Jwt => Err(
            "auth.mode \"jwt\" is not supported by this build's HTTP transport yet; use \
             auth.mode \"none\" on a loopback host, or the stdio transport"
                .to_owned(),
        ),
    }
}

/// The caller of one HTTP request. With `auth.mode: none` (which the config loader allows on
/// loopback binds only) every request is the loopback caller with every scope.
pub fn caller_for_request(_parts: &Parts, auth: &AuthConfig) -> Result<Caller, AuthRejection> {
    match auth.mode {
        AuthMode::None => Ok(Caller {
            id: LOOPBACK_CALLER_ID.to_owned(),
            scopes: vec![Scope::everything()],
            vault_binding: None,
        }),
        AuthMode::Jwt => Err(AuthRejection {
            status: StatusCode::UNAUTHORIZED,
            message: "bearer tokens are not supported by this build".to_owned(),
        }),
    }
}

/// The axum middleware: establishes the request's [`Caller`] and stores it in the request's
/// extensions, or answers the rejection without reaching MCP.
pub async fn authenticate(
    State(auth): State<Arc<AuthConfig>>,
    request: Request,
    next: Next,
) -> Response {
    let (mut parts, body) = request.into_parts();
    match caller_for_request(&parts, &auth) {
        Ok(caller) => {
            parts.extensions.insert(caller);
            next.run(Request::from_parts(parts, body)).await
        }
        Err(rejection) => (rejection.status, rejection.message).into_response(),
    }
}
