//! The tool error for an [`EditError`]: the same code on the wire (`not_found`, `ambiguous`,
//! `invalid_range`, `invalid_input`), the edit's own message, and its facts in `details`.

use serde_json::{Value, json};

use crate::edits::EditError;
use crate::errors::{ErrorCode, ToolError};

/// Maps `error`, raised while editing or reading the note at `path`, to a tool error whose
/// details carry `path` and the edit's fields (`target`, `candidates`, `line_count`, ...).
pub(crate) fn tool_error_from_edit(path: &str, error: &EditError) -> ToolError {
    let code = match error {
        EditError::NotFound { .. } => ErrorCode::NotFound,
        EditError::Ambiguous { .. } => ErrorCode::Ambiguous,
        EditError::InvalidRange { .. } => ErrorCode::InvalidRange,
        EditError::InvalidInput { .. } => ErrorCode::InvalidInput,
    };
    let mut details = json!(error);
    if let Value::Object(map) = &mut details {
        map.remove("code");
        map.insert("path".to_owned(), json!(path));
    }
    ToolError::new(code, error.to_string()).with_details(details)
}
