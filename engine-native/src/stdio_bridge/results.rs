//! From Bridge API answers to MCP: tool results, tool errors and protocol errors (the mapping
//! is documented in [`crate::stdio_bridge`]).

use rmcp::ErrorData as McpError;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Value, json};

use crate::errors::{ErrorCode, ToolError};
use crate::mcp::convert::error_result;
use crate::stdio_bridge::client::{CallReply, Unreachable};
use crate::stdio_bridge::mirror::Link;
use crate::stdio_bridge::poller::MAX_ATTEMPTS;

/// The MCP answer to a Bridge API call answer.
pub fn from_reply(reply: CallReply) -> Result<CallToolResult, McpError> {
    match reply {
        CallReply::Ran { content, is_error } => {
            let content = content.into_iter().map(content_block).collect();
            Ok(if is_error {
                CallToolResult::error(content)
            } else {
                CallToolResult::success(content)
            })
        }
        CallReply::ToolNotFound(message) => Err(McpError::invalid_params(
            format!("Unknown tool: {message}"),
            Some(json!({"code": "TOOL_NOT_FOUND"})),
        )),
        CallReply::InvalidArguments { message, details } => Ok(error_result(
            &ToolError::new(ErrorCode::ValidationError, message)
                .with_recovery("fix the arguments as the message says (see the tool's inputSchema), then call again")
                .with_details(details),
        )),
        CallReply::ExecutionError(message) => Ok(error_result(
            &ToolError::new(
                ErrorCode::Internal,
                format!("the tool failed inside Obsidian: {message}"),
            )
            .with_recovery(
                "report this to the user; Obsidian's developer console (TC Bridge) has the details",
            ),
        )),
        CallReply::Refused(message) => Ok(error_result(
            &ToolError::new(
                ErrorCode::Unauthorized,
                format!("TC Bridge refused the bridge's token ({message})"),
            )
            .with_recovery(
                "ask the user to copy the token from TC Bridge's settings in Obsidian into the bridge's --token or OBSIDIAN_MCP_TOKEN (or use --vault), then restart the bridge",
            ),
        )),
        CallReply::Unexpected(message) => Ok(error_result(&ToolError::new(
            ErrorCode::Internal,
            format!("TC Bridge answered outside Bridge API v1: {message}"),
        ))),
    }
}

/// One content item relayed as sent; an item of a type MCP does not define becomes a text
/// item carrying its JSON, so nothing the plugin sent is lost.
fn content_block(item: Value) -> ContentBlock {
    serde_json::from_value::<ContentBlock>(item.clone())
        .unwrap_or_else(|_| ContentBlock::text(item.to_string()))
}

/// The retryable error of a call made while TC Bridge does not answer at `authority`.
pub fn unreachable(authority: &str, error: &Unreachable, link: &Link) -> CallToolResult {
    let attempts = match link {
        Link::Up => 0,
        Link::Down { attempts, .. } => *attempts,
    };
    let retrying = if attempts >= MAX_ATTEMPTS {
        "the bridge keeps retrying every 30 s"
    } else {
        "the bridge is reconnecting with backoff"
    };
    error_result(
        &ToolError::new(
            ErrorCode::PluginUnreachable,
            format!(
                "TC Bridge does not answer at {authority} ({}): is Obsidian running with TC Bridge enabled?",
                error.0
            ),
        )
        .with_recovery(format!(
            "retry in a few seconds: {retrying} and picks the tools up again without a restart; if it persists, ask the user to open Obsidian with TC Bridge enabled on that port"
        ))
        .with_details(json!({"address": authority, "failed_attempts": attempts})),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_is_relayed_and_is_error_kept() {
        let reply = CallReply::Ran {
            content: vec![
                json!({"type": "text", "text": "Error: Note not found"}),
                json!({"type": "image", "data": "aGk=", "mimeType": "image/png"}),
                json!({"type": "hologram", "beam": 3}),
            ],
            is_error: true,
        };
        let result = from_reply(reply).expect("a result");
        assert_eq!(result.is_error, Some(true));
        let wire = serde_json::to_value(&result).expect("json");
        assert_eq!(
            wire["content"][0],
            json!({"type": "text", "text": "Error: Note not found"})
        );
        assert_eq!(
            wire["content"][1],
            json!({"type": "image", "data": "aGk=", "mimeType": "image/png"})
        );
        assert_eq!(wire["content"][2]["type"], "text");
        assert_eq!(
            wire["content"][2]["text"],
            r#"{"beam":3,"type":"hologram"}"#
        );
    }

    #[test]
    fn bridge_errors_map_to_the_documented_mcp_answers() {
        let missing = from_reply(CallReply::ToolNotFound("Tool 'x' not found".into()))
            .expect_err("protocol error");
        assert_eq!(missing.code, rmcp::model::ErrorCode::INVALID_PARAMS);

        let invalid = from_reply(CallReply::InvalidArguments {
            message: "Missing required argument: path".into(),
            details: json!({"missing": ["path"]}),
        })
        .expect("result");
        let structured = invalid.structured_content.expect("structured");
        assert_eq!(invalid.is_error, Some(true));
        assert_eq!(structured["code"], "validation_error");
        assert_eq!(structured["details"]["missing"], json!(["path"]));

        let failed =
            from_reply(CallReply::ExecutionError("Internal server error".into())).expect("result");
        assert_eq!(
            failed.structured_content.expect("structured")["code"],
            "internal"
        );

        let down = unreachable(
            "127.0.0.1:27190",
            &Unreachable("connection refused".into()),
            &Link::Down {
                attempts: 3,
                reason: "connection refused".into(),
            },
        );
        let structured = down.structured_content.expect("structured");
        assert_eq!(structured["code"], "plugin_unreachable");
        assert_eq!(structured["retryable"], true);
        let message = structured["message"].as_str().unwrap_or_default();
        assert!(message.contains("127.0.0.1:27190"), "{message}");
        assert!(
            message.contains("is Obsidian running with TC Bridge enabled?"),
            "{message}"
        );
    }
}
