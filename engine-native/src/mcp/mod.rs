//! The MCP layer: an rmcp [`ServerHandler`](rmcp::ServerHandler) over the [`Dispatcher`]
//! and the transports that serve it.
//!
//! - [`handler`]: [`McpHandler`] — `initialize`/`server/discover` info, `tools/list` (the
//!   caller's visible tools with schemas and annotations) and `tools/call` (the dispatch
//!   pipeline on a blocking thread; a [`ToolError`](crate::errors::ToolError) becomes a tool
//!   result with `isError: true`, protocol errors are kept for protocol faults), and
//!   `notifications/tools/list_changed` to every client when a reload changes tool visibility
//!   (2025-11-25 sessions, and 2026-07-28 `subscriptions/listen` streams); the resource and
//!   prompt requests delegate to [`resources`] and [`prompts`], `logging/setLevel` to
//!   [`logging`], and a 2026-07-28 confirmation round trip to [`confirmation`].
//! - [`resources`]: vault notes as `obsidian-tc://<vault>/<path>` resources, listed through
//!   `list_notes` and read through `read_note` as the caller (every gate applies).
//! - [`help`]: help resources generated from the registry (progressive disclosure).
//! - [`prompts`]: the built-in prompt templates.
//! - [`confirmation`]: destructive calls under protocol 2026-07-28 — the HITL trip as an
//!   input-required result (an elicitation plus sealed request state) and its confirmed retry.
//! - [`progress`]: `notifications/progress` for a call that sent a `progressToken`.
//! - [`logging`]: `logging/setLevel` and the per-call `notifications/message` a client asked for.
//! - [`convert`]: registry tools and call outcomes to rmcp's model types.
//! - [`listing`]: what `tools/list` advertises in each facade mode.
//! - [`auth`]: the auth seam — from HTTP request parts to a [`Caller`](crate::auth::Caller).
//! - [`stdio`]: MCP over the process's stdin/stdout.
//! - [`http`]: MCP over Streamable HTTP on axum at [`http::MCP_PATH`], with `Host` and
//!   `Origin` checking.
//! - [`shutdown`]: Ctrl-C / SIGTERM as a cancellation token.
//!
//! [`Dispatcher`]: crate::dispatch::Dispatcher

pub mod auth;
pub mod confirmation;
pub mod convert;
pub mod handler;
pub mod help;
pub mod http;
pub mod listing;
pub mod logging;
pub mod progress;
pub mod prompts;
pub mod resources;
pub mod sampling;
pub mod shutdown;
pub mod stdio;

pub use handler::{CallerSource, McpHandler};
