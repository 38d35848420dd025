//! Conversions between the registry / dispatch types and rmcp's model types.

use std::sync::{Arc, OnceLock};

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool as McpTool, ToolAnnotations};
use serde_json::{Value, json};

use crate::errors::ToolError;
use crate::runtime::Tool;
use crate::tools::common::args::input_schema;

/// The MCP description of a registered tool: name, title, description, input schema, output
/// schema when declared, and the annotations the gates derive.
pub fn mcp_tool(tool: &Tool) -> McpTool {
    let annotations = tool.annotations();
    let mut out = McpTool::new(
        tool.name(),
        tool.def.description,
        Arc::new(schema_object(&tool.def.input_schema)),
    )
    .with_title(tool.def.title)
    .with_annotations(ToolAnnotations::from_raw(
        Some(tool.def.title.to_owned()),
        Some(annotations.read_only_hint),
        Some(annotations.destructive_hint),
        Some(annotations.idempotent_hint),
        Some(annotations.open_world_hint),
    ));
    if let Some(schema) = &tool.def.output_schema {
        out = out.with_raw_output_schema(Arc::new(result_or_error_schema(schema)));
    }
    out
}

/// The advertised output schema: the tool's result, or the [`ToolError`] shape a failed call
/// (`isError: true`) carries as structured content. Clients that validate every
/// `structuredContent` against the output schema (the TypeScript SDK does, errors included)
/// accept both. The two schemas' `$defs` move to the root, where their `$ref`s point.
fn result_or_error_schema(result: &Value) -> JsonObject {
    let mut result = schema_object(result);
    let (error, error_defs) = error_schema();
    let mut defs = error_defs.clone();
    result.remove("$schema");
    if let Some(Value::Object(more)) = result.remove("$defs") {
        defs.extend(more);
    }
    defs.insert(ERROR_DEF.to_owned(), Value::Object(error.clone()));
    let mut out = JsonObject::new();
    out.insert("type".to_owned(), json!("object"));
    out.insert(
        "anyOf".to_owned(),
        json!([Value::Object(result), { "$ref": format!("#/$defs/{ERROR_DEF}") }]),
    );
    out.insert("$defs".to_owned(), Value::Object(defs));
    out
}

/// The [`ToolError`] schema without `$schema` and `$defs`, and its `$defs`: generated once,
/// not on every `tools/list`.
fn error_schema() -> &'static (JsonObject, JsonObject) {
    static ERROR_SCHEMA: OnceLock<(JsonObject, JsonObject)> = OnceLock::new();
    ERROR_SCHEMA.get_or_init(|| {
        let mut error = schema_object(&input_schema::<ToolError>());
        error.remove("$schema");
        let defs = match error.remove("$defs") {
            Some(Value::Object(defs)) => defs,
            _ => JsonObject::new(),
        };
        (error, defs)
    })
}

/// The `$defs` name of the error shape in advertised output schemas.
const ERROR_DEF: &str = "ToolError";

/// A schema as a JSON object (the registry guarantees object roots; anything else becomes
/// `{"type": "object"}` rather than a malformed listing).
fn schema_object(schema: &Value) -> JsonObject {
    match schema {
        Value::Object(map) => map.clone(),
        _ => JsonObject::from_iter([("type".to_owned(), json!("object"))]),
    }
}

/// A successful call: `structuredContent` is the value (a non-object value wrapped as
/// `{"result": value}`, since MCP structured content is an object) and one text block carries
/// the same JSON.
pub fn success_result(value: Value) -> CallToolResult {
    let structured = match value {
        Value::Object(_) => value,
        other => json!({ "result": other }),
    };
    CallToolResult::structured(structured)
}

/// A failed call: `isError: true`, `structuredContent` = the error's wire shape
/// (`{code, message, retryable, recovery, details}`) and its text rendering.
pub fn error_result(error: &ToolError) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(error.to_text())]);
    result.structured_content = Some(error.to_structured());
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::ErrorCode;
    use crate::runtime::Registry;
    use crate::schema::validate::schema_problems;

    /// Every tool's advertised output schema accepts the structured content of a failed call,
    /// and still rejects content that is neither a result nor an error.
    #[test]
    fn advertised_output_schemas_accept_errors_and_reject_junk() {
        let mut registry = Registry::new(Default::default());
        crate::dispatch::register_builtin(&mut registry).expect("register");
        let error = ToolError::new(ErrorCode::NotFound, "nothing there")
            .with_details(json!({"path": "a.md"}))
            .to_structured();
        let junk = json!({"code": 7});
        let mut checked = 0;
        for tool in registry.tools() {
            let Some(schema) = mcp_tool(tool).output_schema else {
                continue;
            };
            let schema = Value::Object((*schema).clone());
            assert_eq!(schema_problems(&error, &schema), vec![], "{}", tool.name());
            assert!(
                !schema_problems(&junk, &schema).is_empty(),
                "{}",
                tool.name()
            );
            checked += 1;
        }
        assert!(checked > 0, "no tool declares an output schema");
    }

    /// A real result of `read_note`'s shape still validates after the `$defs` moved.
    #[test]
    fn advertised_output_schema_accepts_the_result_shape() {
        let mut registry = Registry::new(Default::default());
        crate::dispatch::register_builtin(&mut registry).expect("register");
        let tool = registry.get("read_note").expect("read_note");
        let schema = Value::Object((*mcp_tool(tool).output_schema.expect("schema")).clone());
        let result = json!({
            "path": "a.md", "content": "# A\n", "sha256": "0".repeat(64), "size": 4,
            "modified_ms": 1, "line_ending": "lf", "bom": false
        });
        assert_eq!(schema_problems(&result, &schema), vec![]);
    }
}
