//! The tool-list hash of Bridge Protocol v1 (`GET /bridge/v1/tools`, seed 001), byte-identical
//! to its JavaScript reference:
//!
//! ```js
//! const sorted = toolRegistry.list()
//!   .sort((a, b) => a.name.localeCompare(b.name))
//!   .map(t => deepSort({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
//! const hash = crypto.createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
//! ```
//!
//! where `deepSort` rebuilds every object from `Object.keys(obj).sort()`. Reproduced here:
//! the stable `localeCompare` order ([`compare_tool_names`]), the own-property order of the
//! rebuilt objects and the dropped `__proto__` key ([`KeyOrder::JsDeepSort`]), `JSON.stringify`
//! string escapes and number format, and `undefined` members left out.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::HashError;
use super::collation::compare_tool_names;
use super::json_text::{write_string, write_value};
use super::key_order::KeyOrder;
use super::sha256::sha256_hex;

/// One entry of the tool registry, in the MCP wire shape. Only these three fields enter the
/// hash; other fields of an MCP tool (`title`, `annotations`, …) are ignored when
/// deserializing.
///
/// `None` is JavaScript's `undefined` (the member is left out of the hash input), while
/// `Some(Value::Null)` is an explicit `null` (written as `null`). Over the WASM boundary a JS
/// `undefined` member arrives as `null`, so the caller passes JSON data (for instance
/// `JSON.parse(JSON.stringify(tools))`), in which `undefined` members are already absent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BridgeTool {
    /// The tool name, the sort key.
    pub name: String,
    /// The description; usually a string, hashed as whatever JSON it is.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub description: Option<Value>,
    /// The JSON Schema of the arguments.
    #[serde(
        rename = "inputSchema",
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub input_schema: Option<Value>,
}

/// A member that is present is `Some`, even when it is `null`.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// The text the bridge hashes: `JSON.stringify(sorted)` of the reference above.
pub fn bridge_tool_list_json(tools: &[BridgeTool]) -> Result<String, HashError> {
    let mut order: Vec<&BridgeTool> = tools.iter().collect();
    // `Array.prototype.sort` is stable, and so is `sort_by`: equal names keep registry order.
    order.sort_by(|a, b| compare_tool_names(&a.name, &b.name));
    let mut out = String::new();
    out.push('[');
    for (i, tool) in order.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        // deepSort's key order for these three names: "description" < "inputSchema" < "name".
        out.push('{');
        if let Some(description) = &tool.description {
            out.push_str("\"description\":");
            write_value(description, KeyOrder::JsDeepSort, &mut out)?;
            out.push(',');
        }
        if let Some(schema) = &tool.input_schema {
            out.push_str("\"inputSchema\":");
            write_value(schema, KeyOrder::JsDeepSort, &mut out)?;
            out.push(',');
        }
        out.push_str("\"name\":");
        write_string(&tool.name, &mut out);
        out.push('}');
    }
    out.push(']');
    Ok(out)
}

/// The bridge's tool-list hash: lowercase hex SHA-256 (64 characters) of
/// [`bridge_tool_list_json`].
pub fn tool_list_hash(tools: &[BridgeTool]) -> Result<String, HashError> {
    Ok(sha256_hex(bridge_tool_list_json(tools)?.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use serde_json::json;

    fn tool(value: Value) -> BridgeTool {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn empty_registry_hashes_the_empty_array() {
        assert_eq!(bridge_tool_list_json(&[]).unwrap(), "[]");
        assert_eq!(
            tool_list_hash(&[]).unwrap(),
            "4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945"
        );
    }

    #[test]
    fn members_in_deep_sort_order_and_undefined_left_out() {
        let tools = vec![
            tool(
                json!({"name": "b", "inputSchema": {"type": "object", "properties": {"10": {}, "2": {}}}}),
            ),
            tool(json!({"name": "a", "description": null, "title": "ignored"})),
        ];
        assert_eq!(
            bridge_tool_list_json(&tools).unwrap(),
            r#"[{"description":null,"name":"a"},{"inputSchema":{"properties":{"2":{},"10":{}},"type":"object"},"name":"b"}]"#
        );
    }

    #[test]
    fn null_and_absent_survive_a_serde_round_trip() {
        let with_null = tool(json!({"name": "x", "description": null}));
        assert_eq!(with_null.description, Some(Value::Null));
        assert_eq!(with_null.input_schema, None);
        assert_eq!(
            serde_json::to_value(&with_null).unwrap(),
            json!({"name": "x", "description": null})
        );
    }

    #[test]
    fn equal_names_keep_registry_order() {
        let first = tool(json!({"name": "dup", "description": "1"}));
        let second = tool(json!({"name": "dup", "description": "2"}));
        let forward = bridge_tool_list_json(&[first.clone(), second.clone()]).unwrap();
        assert!(forward.find("\"1\"") < forward.find("\"2\""));
        assert_ne!(
            tool_list_hash(&[first.clone(), second.clone()]),
            tool_list_hash(&[second, first])
        );
    }
}
