//! The tool error of arguments that do not fit together.

use crate::errors::{ErrorCode, ToolError};

/// `invalid_input` for arguments that do not fit together.
pub(super) fn argument_error(message: &str) -> ToolError {
    ToolError::new(ErrorCode::InvalidInput, message)
}
