//! The byte governor, the dispatch pipeline's last gate: a result whose serialized JSON is
//! larger than `governor.maxResponseBytes` is refused with `overflow`, never truncated.

use std::io;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;

/// The shipped `governor.maxResponseBytes`.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 1_000_000;

/// The shipped `governor.regexTimeoutMs`.
pub const DEFAULT_REGEX_TIMEOUT_MS: u64 = 2_000;

/// The `governor` config block: `{"maxResponseBytes": 1000000, "regexTimeoutMs": 2000}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct GovernorConfig {
    /// A response larger than this many bytes of serialized JSON is refused with `overflow`.
    #[schemars(range(min = 1))]
    pub max_response_bytes: usize,
    /// The time budget of one regular-expression search, in milliseconds.
    #[schemars(range(min = 1))]
    pub regex_timeout_ms: u64,
}

impl Default for GovernorConfig {
    fn default() -> GovernorConfig {
        GovernorConfig {
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            regex_timeout_ms: DEFAULT_REGEX_TIMEOUT_MS,
        }
    }
}

/// Refuses responses over a byte limit. Sizes are bytes of compact JSON (UTF-8), exactly what
/// `serde_json::to_vec` produces, not characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Governor {
    config: GovernorConfig,
}

impl Governor {
    /// A governor with this limit.
    pub fn new(config: GovernorConfig) -> Governor {
        Governor { config }
    }

    /// The limit in bytes.
    pub fn limit(&self) -> usize {
        self.config.max_response_bytes
    }

    /// Accepts `bytes` (an already serialized response) if it is at most the limit, else
    /// `overflow` with `size`, `limit` and a hint.
    pub fn check_bytes(&self, bytes: &[u8]) -> Result<(), ToolError> {
        self.check_size(bytes.len())
    }

    /// Accepts `value` if its compact JSON serialization is at most the limit, measured
    /// without building the string.
    pub fn check(&self, value: &Value) -> Result<(), ToolError> {
        self.check_size(serialized_len(value)?)
    }

    /// Serializes `value` once and returns the JSON text if it is within the limit, so the
    /// transport can send the same text the governor measured.
    pub fn serialize(&self, value: &Value) -> Result<String, ToolError> {
        let text = serde_json::to_string(value).map_err(serialization_fault)?;
        self.check_size(text.len())?;
        Ok(text)
    }

    fn check_size(&self, size: usize) -> Result<(), ToolError> {
        let limit = self.limit();
        if size > limit {
            return Err(ToolError::overflow(size, limit));
        }
        Ok(())
    }
}

/// The byte length of `value`'s compact JSON serialization.
pub fn serialized_len(value: &Value) -> Result<usize, ToolError> {
    let mut counter = ByteCounter(0);
    serde_json::to_writer(&mut counter, value).map_err(serialization_fault)?;
    Ok(counter.0)
}

fn serialization_fault(error: serde_json::Error) -> ToolError {
    ToolError::internal(format!("could not serialize the response: {error}"))
}

/// A writer that only counts what is written to it.
struct ByteCounter(usize);

impl io::Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
