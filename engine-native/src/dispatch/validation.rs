//! Gate 3: the arguments against the tool's input schema, with the config's validator.

use serde_json::{Value, json};

use crate::config::validate::schema_problems;
use crate::errors::{ErrorCode, ToolError};

/// `validation_error` listing every issue (`details.issues[]`: `path`, `pointer`, `message`)
/// unless `args` satisfies `schema`.
pub(crate) fn validate_args(schema: &Value, args: &Value) -> Result<(), ToolError> {
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
