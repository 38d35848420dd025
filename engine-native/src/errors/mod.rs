//! The tool error model: every failed tool call is an MCP tool result with `isError: true`
//! and structured content `{code, message, retryable, recovery, details}`.
//!
//! - [`code`]: [`ErrorCode`], its wire names, default retryability and recovery text.
//! - [`tool_error`]: [`ToolError`], its wire shape and its text rendering.
//! - [`chain`]: an error's text with its causes.
//! - `gates`: constructors for the dispatch gates' errors with their specified details.
//!
//! Plain serde, independent of the MCP library: the MCP layer wraps [`ToolError::to_structured`]
//! and [`ToolError::to_text`] into its result type.

pub mod chain;
pub mod code;
mod gates;
pub mod tool_error;

pub use code::ErrorCode;
pub use tool_error::ToolError;
