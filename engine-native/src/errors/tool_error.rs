//! [`ToolError`]: the structured error every failed tool call returns.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::errors::ErrorCode;

/// A failed tool call, as the agent sees it: an MCP tool result with `isError: true` whose
/// structured content is this value, `{code, message, retryable, recovery, details}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolError {
    /// The machine-readable reason.
    pub code: ErrorCode,
    /// What went wrong, for a human or a model, naming the thing concerned.
    pub message: String,
    /// Whether repeating the same call, unchanged, can succeed.
    pub retryable: bool,
    /// What the agent or the user should do next.
    pub recovery: String,
    /// Code-specific facts (a JSON object; `{}` when there are none).
    pub details: Value,
}

impl ToolError {
    /// An error with the code's default `retryable` and recovery and empty details.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ToolError {
        ToolError {
            code,
            message: message.into(),
            retryable: code.default_retryable(),
            recovery: code.default_recovery().to_owned(),
            details: Value::Object(Map::new()),
        }
    }

    /// The same error with `details` replaced.
    pub fn with_details(mut self, details: Value) -> ToolError {
        self.details = details;
        self
    }

    /// The same error with a more specific recovery text.
    pub fn with_recovery(mut self, recovery: impl Into<String>) -> ToolError {
        self.recovery = recovery.into();
        self
    }

    /// The structured content of the MCP tool result, in the exact wire shape
    /// `{"code", "message", "retryable", "recovery", "details"}`.
    pub fn to_structured(&self) -> Value {
        serde_json::json!(self)
    }

    /// The text content block: the code and message, the recovery, and the details as
    /// compact JSON when there are any. Clients that ignore structured content still see
    /// everything.
    pub fn to_text(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)?;
        write!(
            f,
            "\nretryable: {}\nrecovery: {}",
            self.retryable, self.recovery
        )?;
        let empty = match &self.details {
            Value::Null => true,
            Value::Object(map) => map.is_empty(),
            _ => false,
        };
        if !empty {
            write!(f, "\ndetails: {}", self.details)?;
        }
        Ok(())
    }
}

impl std::error::Error for ToolError {}
