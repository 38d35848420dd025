//! A JSON-RPC client over a child process's stdin/stdout (one message per line).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::rpc::{Session, is_response_to, notification_line, request_line};

/// A running stdio MCP server.
pub struct StdioSession {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl StdioSession {
    /// Starts `command` with piped stdin/stdout and stderr discarded.
    pub fn spawn(mut command: Command) -> Result<StdioSession, String> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {command:?}: {e}"))?;
        let stdin = child.stdin.take().ok_or("the child has no stdin")?;
        let stdout = child.stdout.take().ok_or("the child has no stdout")?;
        Ok(StdioSession {
            child,
            stdin: Some(stdin),
            stdout: BufReader::new(stdout),
        })
    }

    fn write_line(&mut self, line: &str) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("stdin is closed")?;
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot write to the server: {e}"))
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Closes stdin (the server's cue to stop) and waits for the process to end.
    pub fn close(mut self) -> Result<(), String> {
        drop(self.stdin.take());
        self.child
            .wait()
            .map(|_| ())
            .map_err(|e| format!("cannot wait for the server: {e}"))
    }
}

impl Drop for StdioSession {
    fn drop(&mut self) {
        if self.stdin.take().is_some() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl Session for StdioSession {
    fn request(
        &mut self,
        id: u64,
        method: &str,
        params: Value,
    ) -> Result<(Duration, Value), String> {
        let line = request_line(id, method, &params);
        let start = Instant::now();
        self.write_line(&line)?;
        let mut buffer = String::new();
        loop {
            buffer.clear();
            let read = self
                .stdout
                .read_line(&mut buffer)
                .map_err(|e| format!("cannot read from the server: {e}"))?;
            let elapsed = start.elapsed();
            if read == 0 {
                return Err(format!(
                    "the server closed stdout before answering {method}"
                ));
            }
            let message: Value = serde_json::from_str(buffer.trim_end())
                .map_err(|e| format!("the server wrote a line that is not JSON ({e}): {buffer}"))?;
            if is_response_to(&message, id) {
                return Ok((elapsed, message));
            }
        }
    }

    fn notify(&mut self, method: &str) -> Result<(), String> {
        self.write_line(&notification_line(method))
    }
}
