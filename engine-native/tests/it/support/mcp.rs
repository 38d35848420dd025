//! Shared helpers of the MCP and CLI tests: a temp vault, the built binary, rmcp clients.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, RoleClient, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::support::cache_home::{cache_env, test_cache_root};

/// The built `obsidian-tc` binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_obsidian-tc");

/// The binary the end-to-end tests drive: `OBSIDIAN_TC_BIN` (scripts/test.sh passes the
/// release build), else [`BIN`].
pub fn bin() -> String {
    std::env::var("OBSIDIAN_TC_BIN").unwrap_or_else(|_| BIN.to_owned())
}

/// A temp vault with `hello.md` ("# Hello\n") and `gone.md`.
pub fn vault() -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("hello.md"), "# Hello\n").expect("write note");
    std::fs::write(dir.path().join("gone.md"), "bye\n").expect("write note");
    dir
}

/// The environment variable that turns embeddings off for the binaries these helpers start:
/// the tests that are not about embeddings stay lexical, never download a model and never
/// depend on a model in the machine's Hugging Face cache (the embedding tests set their own).
pub const EMBEDDINGS_OFF: (&str, &str) = ("OBSIDIAN_TC_EMBEDDINGS_PROVIDER", "none");

/// A fresh copy of `tests/fixtures/sample-vault` (without any cache a local run left in it).
pub fn fresh_vault() -> TempDir {
    copy_of_vault(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/sample-vault"))
}

/// A temporary copy of the vault at `from`, without the `.obsidian-tc` cache a run left in it.
pub fn copy_of_vault(from: &Path) -> TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("create folder");
        for entry in std::fs::read_dir(from).expect("read vault") {
            let entry = entry.expect("vault entry");
            let name = entry.file_name();
            if name == ".obsidian-tc" {
                continue;
            }
            let target = to.join(&name);
            if entry.file_type().expect("file type").is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).expect("copy note");
            }
        }
    }
    let dir = tempfile::tempdir().expect("temp dir");
    copy(from, dir.path());
    dir
}

/// Runs the binary with `args` to completion.
pub fn run(args: &[&str]) -> Output {
    std::process::Command::new(BIN)
        .args(args)
        .env_remove("OBSIDIAN_TC_CONFIG")
        .env(EMBEDDINGS_OFF.0, EMBEDDINGS_OFF.1)
        .envs(cache_env(&test_cache_root()))
        .output()
        .expect("run obsidian-tc")
}

/// Runs `obsidian-tc call <tool> --args <args> <vault>` to completion.
pub fn run_call(vault: &Path, tool: &str, args: &str) -> Output {
    run(&["call", tool, "--args", args, &arg(vault)])
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
    stdio_client_with((), args).await
}

/// An rmcp client with the notification handler `handler` over stdio to `obsidian-tc <args>`.
pub async fn stdio_client_with<H: rmcp::ClientHandler>(
    handler: H,
    args: &[&str],
) -> RunningService<RoleClient, H> {
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    let command = tokio::process::Command::new(BIN).configure(|c| {
        c.args(&args)
            .env_remove("OBSIDIAN_TC_CONFIG")
            .env(EMBEDDINGS_OFF.0, EMBEDDINGS_OFF.1)
            .envs(cache_env(&test_cache_root()));
    });
    handler
        .serve(TokioChildProcess::new(command).expect("spawn obsidian-tc"))
        .await
        .expect("initialize over stdio")
}

/// An rmcp client over stdio to the binary under test ([`bin`]) with `args`, as a user's
/// client starts it (no config file named by the environment, no embedding download).
pub async fn product_stdio_client(args: &[&str]) -> RunningService<RoleClient, ()> {
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    let command = tokio::process::Command::new(bin()).configure(|c| {
        c.args(&args)
            .env_remove("OBSIDIAN_TC_CONFIG")
            .env("OBSIDIAN_TC_EMBEDDINGS_PROVIDER", "none")
            .envs(cache_env(&test_cache_root()));
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

/// The 2026-07-28 lifecycle for an rmcp client: `server/discover` first.
pub fn discover_first() -> ClientLifecycleMode {
    ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::LATEST],
        legacy_version: None,
    }
}

/// A free TCP port on loopback (bound then released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A config file at `path` serving `vault` as `main`, with `extra` merged into its root.
pub fn write_config(path: &Path, vault: &Path, extra: Value) {
    let mut config = json!({ "vaults": [{"id": "main", "path": arg(vault)}] });
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    std::fs::write(path, config.to_string()).expect("config file");
}

/// `<bin> serve --http ...` listening on a loopback port: killed when dropped, or stopped
/// gracefully by [`HttpServer::stop`].
pub struct HttpServer {
    child: Child,
    port: u16,
}

impl HttpServer {
    /// The command line of a test server: `bin` with `args`, no config file from the
    /// environment, embeddings off, its zero-config cache under the tests' cache root. Installs
    /// the TLS provider the tests' HTTP clients (reqwest, rmcp's) need, as the binary's `main`
    /// does.
    fn command(bin: &str, args: &[&str]) -> Command {
        obsidian_tc::http_client::install_tls_provider();
        let mut command = Command::new(bin);
        command
            .args(args)
            .env_remove("OBSIDIAN_TC_CONFIG")
            .env(EMBEDDINGS_OFF.0, EMBEDDINGS_OFF.1)
            .envs(cache_env(&test_cache_root()));
        command
    }

    /// Runs the built binary with `args` (a `serve --http` command line that listens on
    /// `port`) and waits until the port accepts connections.
    pub fn start(args: &[&str], port: u16) -> HttpServer {
        HttpServer::start_binary(BIN, args, port)
    }

    /// Like [`HttpServer::start`], with the binary at `bin`.
    pub fn start_binary(bin: &str, args: &[&str], port: u16) -> HttpServer {
        let child = HttpServer::command(bin, args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("spawn obsidian-tc serve --http");
        let server = HttpServer { child, port };
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "the server did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(25));
        }
        server
    }

    /// `serve --http --port 0 <vault>` with the binary under test ([`bin`]): the server binds
    /// a port the kernel picks and logs it, so no other process can take it in between (a
    /// port picked by the test and released first can be).
    pub fn serve_vault(vault: &Path) -> HttpServer {
        HttpServer::serve_vault_with(vault, &[])
    }

    /// [`HttpServer::serve_vault`] with the environment variables `env` set, as TC Bridge
    /// starts its sidecar.
    pub fn serve_vault_with(vault: &Path, env: &[(&str, &str)]) -> HttpServer {
        let mut child =
            HttpServer::command(&bin(), &["serve", "--http", "--port", "0", &arg(vault)])
                .envs(env.iter().copied())
                .env("RUST_LOG", "warn,obsidian_tc::mcp::http=info")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn obsidian-tc serve --http");
        let stderr = child.stderr.take().expect("stderr piped");
        let (found, port) = std::sync::mpsc::channel();
        // Reads the log until the address shows, then keeps draining it so the server
        // never blocks on a full pipe.
        std::thread::spawn(move || {
            use std::io::BufRead;
            let mut found = Some(found);
            for line in std::io::BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let bound = line
                    .split("MCP over HTTP on http://127.0.0.1:")
                    .nth(1)
                    .and_then(|rest| rest.split('/').next())
                    .and_then(|port| port.parse::<u16>().ok());
                if let (Some(port), Some(sender)) = (bound, found.as_ref()) {
                    let _ = sender.send(port);
                    found = None;
                }
            }
        });
        let port = port
            .recv_timeout(Duration::from_secs(20))
            .expect("the server logs the address it listens on");
        HttpServer { child, port }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The MCP endpoint's URL.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// Stops the server with SIGTERM and asserts it exits 0 within 10 s (graceful shutdown).
    pub fn stop(mut self) {
        let pid = libc::pid_t::try_from(self.child.id()).expect("pid fits");
        // SAFETY: `kill` with a pid this test spawned and SIGTERM has no memory effects.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0, "SIGTERM");
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait for the server") {
                break status;
            }
            assert!(Instant::now() < deadline, "the server ignored SIGTERM");
            std::thread::sleep(Duration::from_millis(50));
        };
        assert!(status.success(), "graceful shutdown exits 0, got {status}");
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// POSTs a raw `initialize` to `/mcp` on `port` with `headers` (`Host` among them, each
/// `Name: value`); returns the response's status line.
pub fn post_initialize(port: u16, headers: &[String]) -> String {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let headers: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
    let request = format!(
        "POST /mcp HTTP/1.1\r\n{headers}Content-Type: application/json\r\n\
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
    text.lines().next().unwrap_or_default().to_owned()
}
