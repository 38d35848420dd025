//! The lightest honest MCP server: rmcp over stdio with one tool, `empty`, that does nothing.
//!
//! `bench_server` times its start-up (process start to the `initialize` response) next to
//! obsidian-tc's, so the ratio shows what obsidian-tc adds over the SDK and the runtime
//! themselves. Same rmcp version, same multi-threaded tokio runtime, same release profile.
//!
//! ```text
//! cargo build --release -p bench --bin empty_mcp_server
//! ```

use std::process::ExitCode;

use rmcp::{ServiceExt, tool, tool_router};

/// A server whose only tool returns an empty result.
#[derive(Debug, Clone, Copy)]
struct EmptyServer;

#[tool_router(server_handler)]
impl EmptyServer {
    /// Does nothing.
    #[tool(
        name = "empty",
        description = "Does nothing and returns an empty text."
    )]
    fn empty(&self) -> String {
        String::new()
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let running = match EmptyServer.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(e) => {
            eprintln!("the stdio MCP session did not start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match running.waiting().await {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("the stdio MCP session failed: {e}");
            ExitCode::FAILURE
        }
    }
}
