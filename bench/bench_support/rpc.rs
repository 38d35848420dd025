//! JSON-RPC messages of MCP and the one interface both clients (stdio, HTTP) offer.

use std::time::Duration;

use serde_json::{Value, json};

/// The protocol version the clients ask for (HTTP sessions are on for it).
pub const PROTOCOL_VERSION: &str = "2025-11-25";

/// The protocol version of stateless clients (no `initialize`, no session).
pub const STATELESS_PROTOCOL_VERSION: &str = "2026-07-28";

/// A client connection that answers one request at a time.
pub trait Session {
    /// Sends request `id` for `method` and returns the time until its response had fully
    /// arrived, and the response (parsed after the clock stopped).
    fn request(
        &mut self,
        id: u64,
        method: &str,
        params: Value,
    ) -> Result<(Duration, Value), String>;

    /// Sends a notification (no response expected).
    fn notify(&mut self, method: &str) -> Result<(), String>;
}

/// The `initialize` request's parameters.
pub fn initialize_params() -> Value {
    json!({
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "bench_server", "version": "0"}
    })
}

/// The text of request `id`.
pub fn request_line(id: u64, method: &str, params: &Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// The text of a notification.
pub fn notification_line(method: &str) -> String {
    json!({"jsonrpc": "2.0", "method": method}).to_string()
}

/// Whether `message` is the response to request `id`.
pub fn is_response_to(message: &Value, id: u64) -> bool {
    message.get("id").and_then(Value::as_u64) == Some(id)
        && (message.get("result").is_some() || message.get("error").is_some())
}

/// The `result` of a successful response; a tool result must not be `isError`.
pub fn expect_success(response: &Value, what: &str) -> Result<(), String> {
    let Some(result) = response.get("result") else {
        return Err(format!("{what}: the server answered an error: {response}"));
    };
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        return Err(format!("{what}: the tool failed: {result}"));
    }
    Ok(())
}

/// Runs the MCP handshake (`initialize`, then `notifications/initialized`) on `session`.
pub fn handshake(session: &mut dyn Session) -> Result<(), String> {
    let (_, response) = session.request(0, "initialize", initialize_params())?;
    expect_success(&response, "initialize")?;
    session.notify("notifications/initialized")
}

/// The 2026-07-28 lifecycle on `session`: `server/discover`, which must list that version.
pub fn discover(session: &mut dyn Session) -> Result<(), String> {
    let (_, response) = session.request(0, "server/discover", json!({}))?;
    expect_success(&response, "server/discover")?;
    let versions = &response["result"]["supportedVersions"];
    let listed = versions
        .as_array()
        .is_some_and(|all| all.iter().any(|v| v == STATELESS_PROTOCOL_VERSION));
    if listed {
        Ok(())
    } else {
        Err(format!(
            "server/discover does not list {STATELESS_PROTOCOL_VERSION}: {versions}"
        ))
    }
}
