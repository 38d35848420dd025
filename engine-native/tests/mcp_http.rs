//! The built binary serving MCP over Streamable HTTP, driven by the rmcp HTTP client.

mod mcp_support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mcp_support::{BIN, arg, call, free_port, structured, vault};
use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;

/// The server process, killed when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `serve --http --port <port> <vault>` and waits until the port accepts connections.
fn start(vault: &std::path::Path, port: u16) -> Server {
    let child = Command::new(BIN)
        .args(["serve", "--http", "--port", &port.to_string(), &arg(vault)])
        .env_remove("OBSIDIAN_TC_CONFIG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .expect("spawn obsidian-tc serve --http");
    let server = Server(child);
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "the server did not listen on {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    server
}

/// Sends a raw `initialize` POST with `host` as the Host header; returns the status line.
fn post_with_host(port: u16, host: &str) -> String {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    stream.write_all(request.as_bytes()).expect("send");
    let mut response = Vec::new();
    let mut buf = [0u8; 1024];
    while let Ok(n) = stream.read(&mut buf) {
        if n == 0 {
            break;
        }
        response.extend_from_slice(&buf[..n]);
        if response.windows(2).any(|w| w == b"\r\n") {
            break;
        }
    }
    let text = String::from_utf8_lossy(&response);
    text.lines().next().unwrap_or_default().to_owned()
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
    assert!(tools.iter().any(|t| t.name == "read_note"));
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
    let out = Command::new(BIN)
        .args([
            "serve",
            "--http",
            "--port",
            &port.to_string(),
            &arg(vault.path()),
        ])
        .env_remove("OBSIDIAN_TC_CONFIG")
        .stdin(Stdio::null())
        .output()
        .expect("run");
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
    let mut server = start(vault.path(), port);
    let pid = libc::pid_t::try_from(server.0.id()).expect("pid fits");
    // SAFETY: kill(2) on the child this test spawned and still owns.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = server.0.try_wait().expect("wait") {
            break status;
        }
        assert!(Instant::now() < deadline, "the server ignored SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0));
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "port released"
    );
}
