//! The tool errors of frontmatter problems.

use serde_json::json;

use crate::errors::{ErrorCode, ToolError};
use crate::frontmatter::FrontmatterError;

/// Maps a frontmatter refusal on the note at `path` to `invalid_input`; `details` name the
/// path, the kind of problem (`frontmatter_code`) and, for invalid YAML, the note line.
pub(crate) fn tool_error_from_frontmatter(error: &FrontmatterError, path: &str) -> ToolError {
    let mut details = json!({ "path": path, "frontmatter_code": frontmatter_code(error) });
    match error {
        FrontmatterError::InvalidYaml { line, .. } => details["line"] = json!(line),
        FrontmatterError::NotAMapping { found } => details["found"] = json!(found),
        FrontmatterError::InvalidKey { key, reason } => {
            details["key"] = json!(key);
            details["reason"] = json!(reason);
        }
        FrontmatterError::ValueNotRepresentable { key } => details["key"] = json!(key),
        FrontmatterError::UnsupportedLayout { reason } => details["reason"] = json!(reason),
    }
    ToolError::new(ErrorCode::InvalidInput, format!("{path}: {error}")).with_details(details)
}

/// A short stable name of the problem.
pub(super) fn frontmatter_code(error: &FrontmatterError) -> &'static str {
    match error {
        FrontmatterError::InvalidYaml { .. } => "invalid_yaml",
        FrontmatterError::NotAMapping { .. } => "not_a_mapping",
        FrontmatterError::InvalidKey { .. } => "invalid_key",
        FrontmatterError::ValueNotRepresentable { .. } => "value_not_representable",
        FrontmatterError::UnsupportedLayout { .. } => "unsupported_layout",
    }
}

/// `invalid_input` for arguments that do not fit together.
pub(super) fn argument_error(message: &str) -> ToolError {
    ToolError::new(ErrorCode::InvalidInput, message)
}
