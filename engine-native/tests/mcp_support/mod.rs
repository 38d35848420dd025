//! Shared helpers of the MCP and CLI tests: a temp vault, the built binary, rmcp clients.
#![allow(dead_code)]

use std::path::Path;
use std::process::Output;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::Value;
use tempfile::TempDir;

/// The built `obsidian-tc` binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_obsidian-tc");

/// A temp vault with `hello.md` ("# Hello\n") and `gone.md`.
pub fn vault() -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("hello.md"), "# Hello\n").expect("write note");
    std::fs::write(dir.path().join("gone.md"), "bye\n").expect("write note");
    dir
}

/// Runs the binary with `args` to completion.
pub fn run(args: &[&str]) -> Output {
    std::process::Command::new(BIN)
        .args(args)
        .env_remove("OBSIDIAN_TC_CONFIG")
        .output()
        .expect("run obsidian-tc")
}

/// The stdout of `output` as JSON.
pub fn stdout_json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// An rmcp client over stdio to `obsidian-tc <args>`.
pub async fn stdio_client(args: &[&str]) -> RunningService<RoleClient, ()> {
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    let command = tokio::process::Command::new(BIN).configure(|c| {
        c.args(&args).env_remove("OBSIDIAN_TC_CONFIG");
    });
    ().serve(TokioChildProcess::new(command).expect("spawn obsidian-tc"))
        .await
        .expect("initialize over stdio")
}

/// Calls `name` with the object `args`.
pub async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &str,
    args: Value,
) -> CallToolResult {
    let Value::Object(args) = args else {
        panic!("arguments must be an object")
    };
    client
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(args))
        .await
        .expect("tools/call answers")
}

/// The structured content of a result.
pub fn structured(result: &CallToolResult) -> &Value {
    result
        .structured_content
        .as_ref()
        .expect("structuredContent present")
}

/// The vault folder as a command-line argument.
pub fn arg(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// A free TCP port on loopback (bound then released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}
