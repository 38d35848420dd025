//! HTTP session lifecycle of the built binary: `DELETE` ends a session with `200 OK` (what
//! the Python and TypeScript clients expect) and a later request on it gets `404`.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::mcp::{HttpServer, arg, free_port, vault};

const ACCEPT: &str = "application/json, text/event-stream";

#[tokio::test]
async fn delete_ends_the_session_with_200_and_later_requests_get_404() {
    let vault = vault();
    let port = free_port();
    let server = HttpServer::start(
        &[
            "serve",
            "--http",
            "--port",
            &port.to_string(),
            &arg(vault.path()),
        ],
        port,
    );
    let http = reqwest::Client::new();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "session-test", "version": "0"}}});
    let response = http
        .post(server.url())
        .header("accept", ACCEPT)
        .json(&initialize)
        .send()
        .await
        .expect("initialize");
    assert_eq!(response.status(), StatusCode::OK);
    let session = response
        .headers()
        .get("mcp-session-id")
        .expect("a session id")
        .to_str()
        .expect("ASCII")
        .to_owned();
    let ended = http
        .delete(server.url())
        .header("mcp-session-id", &session)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(ended.status(), StatusCode::OK);
    let after = http
        .post(server.url())
        .header("accept", ACCEPT)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-11-25")
        .json(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
        .send()
        .await
        .expect("request on the ended session");
    assert_eq!(after.status(), StatusCode::NOT_FOUND);
}
