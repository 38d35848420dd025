//! A tool call's arguments against its input schema: `validation_error` with every issue.

use serde_json::{Value, json};

use crate::errors::{ErrorCode, ToolError};
use crate::schema::validate::schema_problems;

/// `validation_error` listing every issue (`details.issues[]`: `path`, `pointer`, `message`)
/// unless `args` satisfies `schema`.
pub fn validate_args(schema: &Value, args: &Value) -> Result<(), ToolError> {
    let problems = schema_problems(args, schema);
    if problems.is_empty() {
        return Ok(());
    }
    let summary: Vec<String> = problems
        .iter()
        .map(|(path, message)| format!("{path}: {message}"))
        .collect();
    let issues: Vec<Value> = problems
        .iter()
        .map(|(path, message)| {
            json!({
                "path": path.to_string(),
                "pointer": path.to_pointer(),
                "message": message,
            })
        })
        .collect();
    Err(ToolError::new(
        ErrorCode::ValidationError,
        format!(
            "the arguments do not match the input schema: {}",
            summary.join("; ")
        ),
    )
    .with_details(json!({ "issues": issues })))
}
