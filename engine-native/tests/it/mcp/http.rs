//! The built binary serving MCP over Streamable HTTP, driven by the rmcp HTTP client.

use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;

use crate::support::mcp::{
    HttpServer, arg, call, free_port, post_initialize, run, structured, vault,
};

/// Starts `serve --http --port <port> <vault>`.
fn start(vault: &std::path::Path, port: u16) -> HttpServer {
    HttpServer::start(
        &["serve", "--http", "--port", &port.to_string(), &arg(vault)],
        port,
    )
}

/// Sends a raw `initialize` POST with `host` as the Host header; returns the status line.
fn post_with_host(port: u16, host: &str) -> String {
    post_initialize(port, &[format!("Host: {host}")])
}

#[tokio::test]
async fn http_client_lists_and_calls_tools() {
    let vault = vault();
    let port = free_port();
    let _server = start(vault.path(), port);
    let transport = StreamableHttpClientTransport::from_uri(format!("http://127.0.0.1:{port}/mcp"));
    let client = ().serve(transport).await.expect("initialize over HTTP");
    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().map(|s| s.name.as_str()),
        Some("obsidian-tc")
    );
    let tools = client.list_all_tools().await.expect("tools/list");
    assert!(tools.iter().any(|t| t.name == "call_capability"));
    let read = call(&client, "read_note", json!({"path": "hello.md"})).await;
    assert_eq!(read.is_error, Some(false));
    assert_eq!(structured(&read)["content"], json!("# Hello\n"));
    let missing = call(&client, "read_note", json!({"path": "nope.md"})).await;
    assert_eq!(missing.is_error, Some(true));
    assert_eq!(structured(&missing)["code"], json!("not_found"));
    client.cancel().await.expect("close");
}

#[test]
fn a_foreign_host_header_is_refused_and_loopback_is_served() {
    let vault = vault();
    let port = free_port();
    let _server = start(vault.path(), port);
    let refused = post_with_host(port, "evil.example");
    assert!(refused.contains(" 403"), "got {refused:?}");
    let served = post_with_host(port, &format!("localhost:{port}"));
    assert!(served.contains(" 200"), "got {served:?}");
}

#[test]
fn a_taken_port_fails_with_what_to_do() {
    let vault = vault();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("addr").port();
    let out = run(&[
        "serve",
        "--http",
        "--port",
        &port.to_string(),
        &arg(vault.path()),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("cannot listen") && said.contains("--port"),
        "{said}"
    );
}

#[cfg(unix)]
#[test]
fn sigterm_stops_the_http_server_cleanly() {
    let vault = vault();
    let port = free_port();
    start(vault.path(), port).stop();
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "port released"
    );
}
