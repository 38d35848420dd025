//! [`Sampler`]: the calling MCP client's own model, as the MCP layer offers it to a tool call
//! (`sampling/createMessage`, as a server-to-client request or as an input request of
//! protocol 2026-07-28).

use std::time::Duration;

use crate::inference::{InferenceError, ModelRequest};

/// What the client's model answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sampled {
    /// The answer's text.
    pub text: String,
    /// The model the client used.
    pub model: String,
}

/// Asks the calling client's model. Implemented by the MCP layer for a client that declared
/// the `sampling` capability; called on the tool call's blocking thread.
pub trait Sampler: Send + Sync {
    /// Asks the client's model `request`, waiting at most `timeout`. A client speaking
    /// protocol 2026-07-28 is asked by ending the call with an input request: then this
    /// answers [`InferenceError::AskingClient`] and the call runs again with the answer.
    fn sample(&self, request: &ModelRequest, timeout: Duration) -> Result<Sampled, InferenceError>;
}
