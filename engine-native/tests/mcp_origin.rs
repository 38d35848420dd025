//! The HTTP transport's `Origin` check over real HTTP: a browser origin that is neither
//! loopback nor in `transports.http.allowedOrigins` gets 403 before MCP; configured and
//! loopback origins, and requests without `Origin`, are served.

mod mcp_support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mcp_support::{BIN, arg, free_port, vault};
use serde_json::json;

/// The server process, killed when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Serves `vault` over HTTP on `port` with `allowed` as `transports.http.allowedOrigins`.
fn start(vault: &std::path::Path, port: u16, allowed: &[&str]) -> Server {
    let config = vault.join("obsidian-tc.json");
    let text = json!({
        "vaults": [{"id": "main", "path": arg(vault)}],
        "transports": {"http": {"enabled": true, "port": port, "allowedOrigins": allowed}}
    });
    std::fs::write(&config, text.to_string()).expect("config file");
    let server = Server(
        Command::new(BIN)
            .args(["serve", "--http", "--config", &arg(&config)])
            .env_remove("OBSIDIAN_TC_CONFIG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("spawn obsidian-tc serve --http"),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the server did not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    server
}

/// POSTs an `initialize` with `origin` as the `Origin` header (none when `None`); returns the
/// HTTP status code.
fn initialize_from(port: u16, origin: Option<&str>) -> u16 {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let origin = origin.map_or_else(String::new, |o| format!("Origin: {o}\r\n"));
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{origin}Content-Type: application/json\r\n\
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
    while !response.windows(2).any(|w| w == b"\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => response.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&response);
    text.split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"))
}

#[test]
fn foreign_origins_are_refused_and_allowed_or_loopback_ones_served() {
    let vault = vault();
    let port = free_port();
    let _server = start(vault.path(), port, &["http://app.example.com:3000"]);
    for refused in [
        "http://evil.example",
        "https://evil.example:3000",
        "http://app.example.com:3001",
        "https://app.example.com:3000",
        "null",
    ] {
        assert_eq!(initialize_from(port, Some(refused)), 403, "{refused}");
    }
    for served in [
        "http://app.example.com:3000",
        "http://localhost:5173",
        "https://localhost",
        "http://127.0.0.1:9",
        "http://[::1]:8080",
    ] {
        assert_eq!(initialize_from(port, Some(served)), 200, "{served}");
    }
    assert_eq!(initialize_from(port, None), 200, "no Origin");
}

#[test]
fn a_malformed_allowed_origin_is_a_config_error_with_its_path() {
    let vault = vault();
    let config = vault.path().join("obsidian-tc.json");
    let text = json!({
        "vaults": [{"id": "main", "path": arg(vault.path())}],
        "transports": {"http": {"allowedOrigins": ["localhost:3000"]}}
    });
    std::fs::write(&config, text.to_string()).expect("config file");
    let out = Command::new(BIN)
        .args(["serve", "--http", "--config", &arg(&config)])
        .env_remove("OBSIDIAN_TC_CONFIG")
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("transports.http.allowedOrigins[0]"), "{said}");
}
