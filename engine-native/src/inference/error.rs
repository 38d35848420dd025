//! [`InferenceError`]: why a model call gave no answer.

use std::fmt;

use serde_json::json;

use crate::errors::{ErrorCode, ToolError};

/// Why a model call gave no answer. Each becomes a `model_error` tool error whose
/// `details.reason` is [`InferenceError::reason`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InferenceError {
    /// Neither the client's model nor an endpoint is there.
    Unavailable,
    /// The model took longer than `inference.timeoutMs`.
    Timeout {
        /// The limit, milliseconds.
        ms: u64,
    },
    /// The endpoint answered an HTTP error.
    Http {
        /// The status code.
        status: u16,
        /// The start of its body (at most 200 characters).
        excerpt: String,
    },
    /// The endpoint could not be reached.
    Unreachable(String),
    /// The answer is not what was asked (not JSON, no text, not the JSON a judge must give).
    BadAnswer(String),
    /// The client refused or failed to sample.
    Refused(String),
    /// The client speaking protocol 2026-07-28 is being asked; the call comes back with its
    /// answer (the MCP layer turns this into an input-required result).
    AskingClient,
    /// This tool call used its `inference.maxCallsPerRequest` model calls.
    RequestLimit {
        /// The limit.
        limit: u32,
    },
    /// The day's `inference.maxCallsPerDay` model calls are used.
    DayLimit {
        /// The limit.
        limit: u32,
    },
    /// The prompt still held a credential after the egress guard: nothing was sent.
    CredentialInPrompt,
}

impl fmt::Display for InferenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InferenceError::Unavailable => f.write_str(
                "no language model: the client offers no sampling and inference.endpoint is not set",
            ),
            InferenceError::Timeout { ms } => write!(
                f,
                "the model did not answer within {ms} ms (inference.timeoutMs)"
            ),
            InferenceError::Http { status, excerpt } => {
                write!(f, "the chat endpoint answered HTTP {status}: {excerpt}")
            }
            InferenceError::Unreachable(why) => {
                write!(f, "the chat endpoint could not be reached: {why}")
            }
            InferenceError::BadAnswer(why) => write!(f, "the model's answer is not usable: {why}"),
            InferenceError::Refused(why) => write!(f, "the client did not sample: {why}"),
            InferenceError::AskingClient => f.write_str(
                "the client's model is being asked; the call is answered once it replies",
            ),
            InferenceError::RequestLimit { limit } => write!(
                f,
                "this call already made its {limit} model calls (inference.maxCallsPerRequest)"
            ),
            InferenceError::DayLimit { limit } => write!(
                f,
                "the {limit} model calls of today (UTC) are used (inference.maxCallsPerDay)"
            ),
            InferenceError::CredentialInPrompt => {
                f.write_str("the prompt holds a credential; nothing was sent")
            }
        }
    }
}

impl InferenceError {
    /// A short name of the failure (`timeout`, `http_status`, `bad_answer`, ...): the audit
    /// row's outcome and the tool error's `details.reason`.
    pub fn reason(&self) -> &'static str {
        match self {
            InferenceError::Unavailable => "unavailable",
            InferenceError::Timeout { .. } => "timeout",
            InferenceError::Http { .. } => "http_status",
            InferenceError::Unreachable(_) => "unreachable",
            InferenceError::BadAnswer(_) => "bad_answer",
            InferenceError::Refused(_) => "refused",
            InferenceError::AskingClient => "asking_client",
            InferenceError::RequestLimit { .. } => "request_limit",
            InferenceError::DayLimit { .. } => "day_limit",
            InferenceError::CredentialInPrompt => "credential_in_prompt",
        }
    }

    /// The tool error saying this: `model_error` with `details.reason` (and the HTTP status).
    pub fn to_tool_error(&self) -> ToolError {
        let mut details = json!({"reason": self.reason()});
        if let InferenceError::Http { status, .. } = self {
            details["status"] = json!(status);
        }
        ToolError::new(ErrorCode::ModelError, self.to_string()).with_details(details)
    }
}
