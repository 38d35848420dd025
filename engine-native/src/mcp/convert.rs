//! Conversions between the registry / dispatch types and rmcp's model types.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool as McpTool, ToolAnnotations};
use serde_json::{Value, json};

use crate::dispatch::Tool;
use crate::errors::ToolError;

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
        out = out.with_raw_output_schema(Arc::new(schema_object(schema)));
    }
    out
}

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
