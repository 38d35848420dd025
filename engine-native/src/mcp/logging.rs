//! MCP logging: a client that sets a level (`logging/setLevel` in a 2025-11-25 session, or
//! `io.modelcontextprotocol/logLevel` in a 2026-07-28 request's `_meta`) gets one
//! `notifications/message` per tool call it makes at or above that level: the tool, the
//! vault, the outcome code, the duration and whether it was replayed — never arguments or
//! note content. Nothing is sent to a client that did not ask.
//!
//! MCP deprecates logging (SEP-2577) in favour of out-of-band telemetry; rmcp marks its types
//! deprecated accordingly. obsidian-tc keeps it for the 2025-11-25 clients that show it.
#![allow(deprecated)]

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use serde_json::json;

use crate::dispatch::CallOutcome;
use crate::errors::ErrorCode;

/// The logger name on every message.
pub const LOGGER: &str = "obsidian-tc";

/// The level one session chose with `logging/setLevel` (shared by that session's handler
/// clones; a new session starts without one).
#[derive(Debug, Clone, Default)]
pub struct SessionLogLevel(Arc<Mutex<Option<LoggingLevel>>>);

impl SessionLogLevel {
    /// Records the session's level.
    pub fn set(&self, level: LoggingLevel) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(level);
    }

    /// The session's level, if it set one.
    pub fn get(&self) -> Option<LoggingLevel> {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The message for one call of `tool`, at the level its outcome deserves: `info` for a
/// success, `error` for a fault of the server or an indeterminate effect, `notice` for every
/// other refusal (the call was wrong, or waits for a human).
pub fn call_message(tool: &str, outcome: &CallOutcome) -> LoggingMessageNotificationParam {
    let (level, code) = match &outcome.result {
        Ok(_) => (LoggingLevel::Info, "ok"),
        Err(error) => {
            let level = match error.code {
                ErrorCode::Internal | ErrorCode::Indeterminate => LoggingLevel::Error,
                _ => LoggingLevel::Notice,
            };
            (level, error.code.as_str())
        }
    };
    let data = json!({
        "tool": tool,
        "vault": outcome.vault,
        "outcome": code,
        "duration_ms": outcome.duration_ms,
        "replayed": outcome.replayed,
    });
    LoggingMessageNotificationParam::new(level, data).with_logger(LOGGER)
}

/// Whether a message at `level` reaches a client that asked for `threshold` and above.
pub fn passes(level: LoggingLevel, threshold: LoggingLevel) -> bool {
    severity(level) >= severity(threshold)
}

/// RFC 5424 order, `debug` lowest.
fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}
