//! The HTTP transport's `Origin` check over real HTTP: a browser origin that is neither
//! loopback nor in `transports.http.allowedOrigins` gets 403 before MCP; configured and
//! loopback origins, and requests without `Origin`, are served.

use serde_json::json;

use crate::support::mcp::{HttpServer, arg, free_port, post_initialize, run, vault, write_config};

/// Serves `vault` over HTTP on `port` with `allowed` as `transports.http.allowedOrigins`.
fn start(vault: &std::path::Path, port: u16, allowed: &[&str]) -> HttpServer {
    let config = vault.join("obsidian-tc.json");
    let http =
        json!({"transports": {"http": {"enabled": true, "port": port, "allowedOrigins": allowed}}});
    write_config(&config, vault, http);
    HttpServer::start(&["serve", "--http", "--config", &arg(&config)], port)
}

/// POSTs an `initialize` with `origin` as the `Origin` header (none when `None`); returns the
/// HTTP status code.
fn initialize_from(port: u16, origin: Option<&str>) -> u16 {
    let mut headers = vec![format!("Host: 127.0.0.1:{port}")];
    headers.extend(origin.map(|o| format!("Origin: {o}")));
    let status = post_initialize(port, &headers);
    status
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {status:?}"))
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
    let http = json!({"transports": {"http": {"allowedOrigins": ["localhost:3000"]}}});
    write_config(&config, vault.path(), http);
    let out = run(&["serve", "--http", "--config", &arg(&config)]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("transports.http.allowedOrigins[0]"), "{said}");
}
