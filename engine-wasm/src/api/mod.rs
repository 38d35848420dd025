//! Serde input/output types and the functions behind each export, grouped like engine-core.
//!
//! Output floats are `f64` (widened from the core's `f32` where needed) so that JSON text
//! and JS numbers carry them exactly.

use core::fmt;

/// A typed failure of an export: a stable machine-readable `code` and a human message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// Stable snake_case error code.
    pub code: String,
    /// Human-readable explanation.
    pub message: String,
}

impl ApiError {
    /// Builds an error from a code and a message.
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        Self {
            code: code.to_string(),
            message: message.into(),
        }
    }

    /// An `invalid_input` error.
    pub fn invalid_input(message: impl Into<String>) -> Self {
        Self::new("invalid_input", message)
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

pub mod acl;
pub mod hash;
pub mod jsonlogic;
pub mod links;
pub mod markdown;
pub mod notes;
pub mod rank;
pub mod snapshot;
pub mod text;
