//! The baseline server: obsidian-tc's own library — config loading, [`Dispatcher`], the
//! dispatch pipeline, [`serve_stdio`] / [`serve_http`] — with every built-in tool plus
//! [`EMPTY_TOOL`], a scope-free tool that takes no arguments and returns `{}`. A call to it
//! pays for exactly what every tool call pays for (transport, rmcp, the gates, the event
//! row, the result conversion) and nothing a tool does.

use std::path::PathBuf;
use std::sync::Arc;

use obsidian_tc::cli::source::load_config;
use obsidian_tc::config::ConfigFlags;
use obsidian_tc::dispatch::Dispatcher;
use obsidian_tc::dispatch::register_builtin;
use obsidian_tc::errors::ToolError;
use obsidian_tc::mcp::http::{bind, serve_http};
use obsidian_tc::mcp::stdio::serve_stdio;
use obsidian_tc::server::{Registry, SystemClock, ToolContext, ToolDef};
use obsidian_tc::tools::args::input_schema;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// The name of the no-op tool.
pub const EMPTY_TOOL: &str = "bench_empty";

/// No arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

fn empty(_ctx: &ToolContext<'_>, _args: Value) -> Result<Value, ToolError> {
    Ok(json!({}))
}

fn empty_tool() -> ToolDef {
    ToolDef::scope_free(
        (EMPTY_TOOL, "Empty", "admin"),
        "Does nothing (benchmark baseline).",
        (input_schema::<NoArgs>(), None),
        false,
        empty,
    )
}

/// Serves `vault` zero-config (cache in `cache_dir`) with the built-in tools and
/// [`EMPTY_TOOL`]: over stdio, or over HTTP on `http_port`. Returns when the transport ends.
pub fn serve(vault: PathBuf, cache_dir: PathBuf, http_port: Option<u16>) -> Result<(), String> {
    let flags = ConfigFlags {
        path: Some(vault),
        cache_dir: Some(cache_dir),
        http: http_port.is_some(),
        http_port,
        ..ConfigFlags::default()
    };
    let config = load_config(&flags)?;
    let mut registry = Registry::new(config.config.tool_visibility.clone());
    register_builtin(&mut registry).map_err(|e| e.to_string())?;
    registry.register(empty_tool()).map_err(|e| e.to_string())?;
    let dispatcher = Dispatcher::with_registry(config, Arc::new(SystemClock), registry)
        .map(Arc::new)
        .map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let cancel = CancellationToken::new();
    runtime.block_on(async move {
        match http_port {
            Some(_) => {
                let listener = bind(&dispatcher.server().config()).await?;
                serve_http(dispatcher, listener, cancel).await
            }
            None => serve_stdio(dispatcher, cancel).await,
        }
    })
}
