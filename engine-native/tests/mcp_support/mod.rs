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

/// The binary the end-to-end tests drive: `OBSIDIAN_TC_BIN` (scripts/test.sh passes the
/// release build), else [`BIN`].
pub fn bin() -> String {
    std::env::var("OBSIDIAN_TC_BIN").unwrap_or_else(|_| BIN.to_owned())
}

/// `obsidian-tc serve --http` on a free loopback port: stopped with SIGTERM (and must exit 0)
/// by [`HttpServer::stop`], killed if a failed test drops it.
pub struct HttpServer {
    child: std::process::Child,
    url: String,
}

impl HttpServer {
    /// Starts [`bin`] serving `vault` and waits until the port accepts connections.
    pub fn start(vault: &Path) -> HttpServer {
        let port = free_port();
        let child = std::process::Command::new(bin())
            .args(["serve", "--http", "--port", &port.to_string(), &arg(vault)])
            .env_remove("OBSIDIAN_TC_CONFIG")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("spawn obsidian-tc serve --http");
        let server = HttpServer {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
        };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "no listener on {port}"
            );
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        server
    }

    /// The MCP endpoint.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// SIGTERM; the server must shut down gracefully and exit 0.
    pub fn stop(mut self) {
        let pid = i32::try_from(self.child.id()).expect("pid");
        // SAFETY: `kill` with a pid this test spawned and SIGTERM has no memory effects.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0, "SIGTERM");
        let status = self.child.wait().expect("wait for the server");
        assert!(status.success(), "graceful shutdown exits 0, got {status}");
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

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
