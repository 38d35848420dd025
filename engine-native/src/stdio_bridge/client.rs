//! The HTTP client of TC Bridge's Bridge API v1 (`/bridge/v1/tools`, `/bridge/v1/tools/{name}/call`),
//! with the bearer token and bounded waits.

use std::time::Duration;

use reqwest::StatusCode;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::stdio_bridge::settings::ConnectionSettings;

/// How long connecting may take (a refused connection on loopback fails at once).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long `GET /tools` may take.
const LIST_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a tool call may take: a call may wait for the human's approval in Obsidian, which
/// TC Bridge bounds at an hour; the MCP client can cancel sooner.
const CALL_TIMEOUT: Duration = Duration::from_secs(3660);

/// One tool as TC Bridge lists it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedTool {
    /// The tool name.
    pub name: String,
    /// What it does.
    #[serde(default)]
    pub description: String,
    /// Its JSON Schema (an object).
    pub input_schema: Map<String, Value>,
}

/// `GET /bridge/v1/tools`: the tools and their list hash.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ToolList {
    /// The tools, in the plugin's order.
    pub tools: Vec<ListedTool>,
    /// SHA-256 of the normalized list (seed 001): changes exactly when the list does.
    pub hash: String,
}

/// What `POST /bridge/v1/tools/{name}/call` answered.
#[derive(Debug, Clone, PartialEq)]
pub enum CallReply {
    /// HTTP 200: the tool ran; `content` is MCP content, `is_error` a tool-level failure.
    Ran {
        /// The MCP content items, as sent.
        content: Vec<Value>,
        /// The tool reported a failure.
        is_error: bool,
    },
    /// HTTP 404 `TOOL_NOT_FOUND`.
    ToolNotFound(String),
    /// HTTP 400 `INVALID_ARGUMENTS` with its details.
    InvalidArguments {
        /// The plugin's message.
        message: String,
        /// The plugin's details (`{missing: [...]}`), `{}` when none.
        details: Value,
    },
    /// HTTP 500 `EXECUTION_ERROR`.
    ExecutionError(String),
    /// HTTP 401/403: the token (or the host) was refused.
    Refused(String),
    /// Any other answer the protocol does not define.
    Unexpected(String),
}

/// The plugin could not be reached, or answered something that is not Bridge API v1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreachable(pub String);

/// The Bridge API client.
#[derive(Debug, Clone)]
pub struct BridgeClient {
    http: reqwest::Client,
    base: String,
    authorization: String,
}

/// An error body of the Bridge API.
#[derive(Debug, Default, Deserialize)]
struct ErrorBody {
    #[serde(default)]
    error: String,
    #[serde(default)]
    message: String,
    #[serde(default)]
    details: Option<Value>,
}

/// A 200 call body.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CallBody {
    #[serde(default)]
    content: Vec<Value>,
    #[serde(default)]
    is_error: Option<bool>,
    #[serde(default)]
    success: Option<bool>,
}

impl BridgeClient {
    /// A client of TC Bridge at `settings`.
    pub fn new(settings: &ConnectionSettings) -> Result<BridgeClient, String> {
        let http = crate::http_client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .no_proxy()
            .build()
            .map_err(|error| format!("cannot build the HTTP client: {error}"))?;
        Ok(BridgeClient {
            http,
            base: format!("http://{}/bridge/v1", settings.authority()),
            authorization: format!("Bearer {}", settings.token),
        })
    }

    /// `GET /bridge/v1/tools`.
    pub async fn tools(&self) -> Result<ToolList, Unreachable> {
        let response = self
            .http
            .get(format!("{}/tools", self.base))
            .header(reqwest::header::AUTHORIZATION, &self.authorization)
            .timeout(LIST_TIMEOUT)
            .send()
            .await
            .map_err(|error| Unreachable(describe(&error)))?;
        let status = response.status();
        if !status.is_success() {
            let body: ErrorBody = response.json().await.unwrap_or_default();
            return Err(Unreachable(format!(
                "GET /bridge/v1/tools answered {status} {} {}",
                body.error, body.message
            )));
        }
        response
            .json::<ToolList>()
            .await
            .map_err(|error| Unreachable(format!("GET /bridge/v1/tools: not a tool list: {error}")))
    }

    /// `POST /bridge/v1/tools/{name}/call` with `{"arguments": arguments}`.
    pub async fn call(
        &self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<CallReply, Unreachable> {
        if name == "." || name == ".." {
            // A URL would read these as its own path steps; no tool can be called so.
            return Ok(CallReply::ToolNotFound(format!("Tool '{name}' not found")));
        }
        let response = self
            .http
            .post(format!("{}/tools/{}/call", self.base, path_segment(name)))
            .header(reqwest::header::AUTHORIZATION, &self.authorization)
            .timeout(CALL_TIMEOUT)
            .json(&json!({ "arguments": arguments }))
            .send()
            .await
            .map_err(|error| Unreachable(describe(&error)))?;
        let status = response.status();
        if status == StatusCode::OK {
            let body: CallBody = response.json().await.map_err(|error| {
                Unreachable(format!("the call's answer is not Bridge API v1: {error}"))
            })?;
            let is_error = body.is_error.unwrap_or(false) || body.success == Some(false);
            return Ok(CallReply::Ran {
                content: body.content,
                is_error,
            });
        }
        let body: ErrorBody = response.json().await.unwrap_or_default();
        Ok(match (status, body.error.as_str()) {
            (StatusCode::NOT_FOUND, "TOOL_NOT_FOUND") => CallReply::ToolNotFound(body.message),
            (StatusCode::BAD_REQUEST, "INVALID_ARGUMENTS") => CallReply::InvalidArguments {
                message: body.message,
                details: body.details.unwrap_or_else(|| json!({})),
            },
            (StatusCode::INTERNAL_SERVER_ERROR, _) => CallReply::ExecutionError(body.message),
            (StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN, _) => {
                CallReply::Refused(format!("{status}: {}", body.message))
            }
            _ => CallReply::Unexpected(format!("{status} {} {}", body.error, body.message)),
        })
    }
}

/// A tool name as one URL path segment (tool names are `A-Z a-z 0-9 _ - .`; anything else
/// is percent-encoded so it cannot change the route).
fn path_segment(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'.') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A transport error in a few words.
fn describe(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        "timed out".to_owned()
    } else if error.is_connect() {
        "connection refused".to_owned()
    } else {
        error.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::path_segment;

    #[test]
    fn tool_names_cannot_escape_their_path_segment() {
        assert_eq!(path_segment("search"), "search");
        assert_eq!(path_segment("a.b-c_d"), "a.b-c_d");
        assert_eq!(path_segment("../health"), "..%2Fhealth");
        assert_eq!(path_segment("x?y"), "x%3Fy");
    }
}
