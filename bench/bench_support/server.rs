//! The product binary as a server process for a benchmark: its command line (embeddings and
//! optionally the rate limit off), a free port, and the child process killed when dropped.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// `obsidian-tc <vault> --cache-dir <cache>` (stdio), or `serve --http --port <port>`, with
/// embeddings off (`OBSIDIAN_TC_EMBEDDINGS_PROVIDER=none`): a model loading or embedding in
/// the background would take the cores the calls are timed on (`bench_first_run` measures
/// that).
pub fn obsidian_tc(bin: &Path, vault: &Path, cache: &Path, http_port: Option<u16>) -> Command {
    let mut command = Command::new(bin);
    command.env("OBSIDIAN_TC_EMBEDDINGS_PROVIDER", "none");
    if let Some(port) = http_port {
        command.args(["serve", "--http", "--port", &port.to_string()]);
    }
    command.arg(vault).arg("--cache-dir").arg(cache);
    command
}

/// `command` with the rate limit off (`OBSIDIAN_TC_THROTTLE_ENABLED=false`): thousands of
/// calls a second would otherwise meet `throttled` after the burst of 100.
pub fn unthrottled(mut command: Command) -> Command {
    command.env("OBSIDIAN_TC_THROTTLE_ENABLED", "false");
    command
}

/// A free loopback port (released before the server binds it).
pub fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|e| format!("cannot find a free port: {e}"))
}

/// A server child process, killed when dropped.
pub struct ServerProcess(Child);

impl ServerProcess {
    /// Starts `command` with no standard streams.
    pub fn spawn(mut command: Command) -> Result<ServerProcess, String> {
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map(ServerProcess)
            .map_err(|e| format!("cannot start {command:?}: {e}"))
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
