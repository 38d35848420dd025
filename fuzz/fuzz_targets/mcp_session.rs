//! Fuzzes MCP sessions: arbitrary bytes sent, after a valid `initialize` handshake, to the
//! real server handler (`McpHandler`, the one `obsidian-tc serve` runs on stdio) over an
//! in-memory pipe, its JSON-RPC framing and parsing from rmcp, its requests going through the
//! dispatcher on a temporary vault.
//!
//! The server must not panic, must end the session once the client closes its side, and
//! every line it writes must be a JSON-RPC 2.0 message.
#![no_main]

use std::time::Duration;

use fuzz_support::fixture;
use libfuzzer_sys::fuzz_target;
use obsidian_tc::auth::Caller;
use obsidian_tc::mcp::handler::{CallerSource, McpHandler};
use rmcp::ServiceExt;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The client's side of the handshake, before the fuzzed bytes.
const HANDSHAKE: &str = concat!(
    r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"0"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "\n"
);

/// How long a session may run after the client has closed its side.
const SESSION_LIMIT: Duration = Duration::from_secs(20);

fuzz_target!(|data: &[u8]| {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let output = runtime.block_on(session(data));
    for line in output
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
    {
        let message: Value = serde_json::from_slice(line).unwrap_or_else(|error| {
            panic!(
                "the server wrote a line that is not JSON ({error}): {}",
                String::from_utf8_lossy(line)
            )
        });
        assert_eq!(
            message["jsonrpc"], "2.0",
            "not a JSON-RPC 2.0 message: {message}"
        );
    }
});

/// Runs one session: the handshake and `data` in, everything the server wrote out.
async fn session(data: &[u8]) -> Vec<u8> {
    let server = McpHandler::new(
        fixture().dispatcher.clone(),
        CallerSource::Fixed(Caller::stdio()),
    );
    let (client, server_side) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_side);
    let serving = tokio::spawn(async move {
        if let Ok(running) = server.serve((server_read, server_write)).await {
            let _ = running.waiting().await;
        }
    });
    let (mut client_read, mut client_write) = tokio::io::split(client);
    let send = async move {
        let _ = client_write.write_all(HANDSHAKE.as_bytes()).await;
        let _ = client_write.write_all(data).await;
        let _ = client_write.write_all(b"\n").await;
        let _ = client_write.shutdown().await;
    };
    let mut output = Vec::new();
    let receive = client_read.read_to_end(&mut output);
    let ((), received) = tokio::time::timeout(SESSION_LIMIT, async { tokio::join!(send, receive) })
        .await
        .expect("the session did not end after the client closed its side");
    received.expect("reading the server's output");
    serving.await.expect("the server task panicked");
    output
}
