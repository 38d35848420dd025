//! The auth seam of the HTTP transport: one function from a request's parts to the
//! [`Caller`] the tools run as, applied by the [`authenticate`] middleware, which puts the
//! caller in the request's extensions or answers 401 before MCP. Tools never see headers or
//! tokens, only the caller.
//!
//! - `auth.mode: none` (loopback only, enforced at config load): every request is the
//!   loopback caller with every scope;
//! - `auth.mode: token` (loopback only): `Authorization: Bearer <auth.token>`, compared in
//!   constant time ([`StaticToken`]); the caller is the local user, with every scope, as on
//!   stdio;
//! - `auth.mode: jwt`: `Authorization: Bearer <token>` verified by [`Verifier`].
//!
//! A missing or refused token answers 401 with a `WWW-Authenticate: Bearer` challenge (naming
//! the RFC 9728 metadata when `auth.resourceMetadata` is set) and a JSON-RPC error `-32001`
//! whose message says what to do and whose `data.reason` is the reason code.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Json;
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use engine_core::acl::Scope;
use serde_json::json;

use crate::auth::Caller;
use crate::auth::metadata::{WELL_KNOWN_PATH, metadata_document, metadata_url};
use crate::auth::{AuthFailure, FailureReason, StaticToken, Verifier};
use crate::config::{AuthConfig, AuthMode};

/// The caller id of an unauthenticated HTTP client (`auth.mode: none`, loopback only).
pub const LOOPBACK_CALLER_ID: &str = "http-loopback";

/// The caller id of an HTTP client that presented the static token (`auth.mode: token`).
pub const TOKEN_CALLER_ID: &str = "http-token";

/// The JSON-RPC error code of a 401 (as the shipped server answers).
pub const UNAUTHORIZED_RPC_CODE: i64 = -32001;

/// How the HTTP transport authenticates callers, built once at start.
pub struct HttpAuth {
    check: Check,
    metadata_url: Option<String>,
    config: AuthConfig,
}

/// What a request must present.
enum Check {
    /// Nothing (`auth.mode: none`).
    Open,
    /// The static token (`auth.mode: token`).
    Token(StaticToken),
    /// A JWT the verifier accepts (`auth.mode: jwt`).
    Jwt(Verifier),
}

/// Why a request gets no caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthRejection {
    /// The HTTP status to answer.
    pub status: StatusCode,
    /// The refused token's failure (reason and what to do).
    pub failure: AuthFailure,
}

impl HttpAuth {
    /// The authenticator of `auth`: with `jwt`, its keys are loaded now (once); with `token`,
    /// a missing or short token is refused.
    pub fn new(auth: &AuthConfig) -> Result<HttpAuth, String> {
        let check = match auth.mode {
            AuthMode::None => Check::Open,
            AuthMode::Token => {
                let token = auth.token.as_deref().ok_or(
                    "auth.mode \"token\" needs auth.token (or env OBSIDIAN_TC_HTTP_TOKEN)",
                )?;
                Check::Token(
                    StaticToken::new(token).map_err(|problem| format!("auth.token {problem}"))?,
                )
            }
            AuthMode::Jwt => Check::Jwt(Verifier::new(auth).map_err(|problems| {
                let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
                format!("cannot load the JWT keys: {}", lines.join("; "))
            })?),
        };
        let metadata_url = auth
            .resource_metadata
            .as_ref()
            .and_then(|m| metadata_url(&m.resource));
        Ok(HttpAuth {
            check,
            metadata_url,
            config: auth.clone(),
        })
    }

    /// The router of the RFC 9728 metadata document (outside authentication): empty unless
    /// `auth.resourceMetadata` is set. Served at the well-known path with or without the
    /// resource's path after it.
    pub fn metadata_routes<S: Clone + Send + Sync + 'static>(&self) -> axum::Router<S> {
        let Some(config) = &self.config.resource_metadata else {
            return axum::Router::new();
        };
        let document = Arc::new(metadata_document(config));
        let serve = move || {
            let document = Arc::clone(&document);
            async move { Json(document.as_ref().clone()) }
        };
        axum::Router::new()
            .route(WELL_KNOWN_PATH, get(serve.clone()))
            .route(&format!("{WELL_KNOWN_PATH}/{{*resource}}"), get(serve))
    }

    /// The `WWW-Authenticate` challenge of a 401 for `failure`.
    fn challenge(&self, failure: &AuthFailure) -> String {
        let mut parts = vec!["Bearer realm=\"obsidian-tc\"".to_owned()];
        if failure.reason != FailureReason::MissingToken {
            parts.push("error=\"invalid_token\"".to_owned());
        }
        if let Some(url) = &self.metadata_url {
            parts.push(format!("resource_metadata=\"{url}\""));
        }
        parts.join(", ")
    }
}

/// The caller of one HTTP request: the loopback caller under `auth.mode: none`, the local
/// user for the static token under `token`, else the caller of its verified bearer JWT.
pub fn caller_for_request(parts: &Parts, auth: &HttpAuth) -> Result<Caller, AuthRejection> {
    let reject = |failure| AuthRejection {
        status: StatusCode::UNAUTHORIZED,
        failure,
    };
    let presented = |which: &str| {
        bearer_token(parts).ok_or_else(|| {
            reject(AuthFailure::new(
                FailureReason::MissingToken,
                format!("missing bearer token: send Authorization: Bearer <token> ({which})"),
            ))
        })
    };
    match &auth.check {
        Check::Open => Ok(local_caller(LOOPBACK_CALLER_ID)),
        Check::Token(token) => {
            let sent = presented(
                "the token TC Bridge's settings show, or the OBSIDIAN_TC_HTTP_TOKEN the server \
                 was started with",
            )?;
            token.check(sent).map_err(reject)?;
            Ok(local_caller(TOKEN_CALLER_ID))
        }
        Check::Jwt(verifier) => {
            let sent = presented("an operator mints one with `obsidian-tc token mint`")?;
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            verifier.verify(sent, now).map_err(reject)
        }
    }
}

/// A caller on this machine: every scope, as the stdio caller, under the id `id`.
fn local_caller(id: &str) -> Caller {
    Caller {
        id: id.to_owned(),
        scopes: vec![Scope::everything()],
        vault_binding: None,
        token_without_vault: false,
    }
}

/// The token of an `Authorization: Bearer <token>` header (scheme in any case).
fn bearer_token(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// The axum middleware: establishes the request's [`Caller`] and stores it in the request's
/// extensions, or answers the 401 without reaching MCP.
pub async fn authenticate(
    State(auth): State<Arc<HttpAuth>>,
    request: Request,
    next: Next,
) -> Response {
    let (mut parts, body) = request.into_parts();
    match caller_for_request(&parts, &auth) {
        Ok(caller) => {
            parts.extensions.insert(caller);
            next.run(Request::from_parts(parts, body)).await
        }
        Err(rejection) => rejection_response(&auth, &rejection),
    }
}

/// The 401: the challenge header and a JSON-RPC error body (never the token).
fn rejection_response(auth: &HttpAuth, rejection: &AuthRejection) -> Response {
    let body = json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {
            "code": UNAUTHORIZED_RPC_CODE,
            "message": rejection.failure.message,
            "data": {"reason": rejection.failure.reason.as_str()},
        },
    });
    let mut response = (rejection.status, Json(body)).into_response();
    if let Ok(challenge) = HeaderValue::from_str(&auth.challenge(&rejection.failure)) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, challenge);
    }
    response
}
