//! `get_attachment`: one attachment's metadata and the notes (that the caller may read)
//! referencing it; with `include_content`, its bytes in base64 when they fit in the
//! response governor's limit.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::references::{extension, is_attachment, readable_referrers};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{PATH_READ, input_schema, parse};
use crate::tools::common::link_table::link_table;
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;

/// Room left in the response for everything but the base64 text.
const METADATA_ROOM: usize = 64 * 1024;

/// The arguments of `get_attachment`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct GetAttachment {
    /// The attachment's vault-relative path.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// Also return the bytes, base64-encoded (refused as `overflow` past the response limit).
    #[serde(default)]
    include_content: bool,
}

/// What `get_attachment` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct AttachmentInfo {
    /// The canonical vault-relative path.
    path: String,
    /// The extension, lowercase.
    extension: String,
    /// Size in bytes.
    size: usize,
    /// The SHA-256 of the bytes.
    sha256: String,
    /// Last modification, milliseconds since the Unix epoch.
    modified_ms: i64,
    /// The notes you may read that reference it, sorted.
    referenced_by: Vec<String>,
    /// The bytes in standard base64 (with `include_content`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    content_base64: Option<String>,
}

/// The `get_attachment` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("get_attachment", "Get attachment", "Size, sha256 and modification time of one attachment file (image, PDF, audio) and where it is embedded; include_content adds the bytes in base64 when they fit in the response limit (else overflow)."),
"attachments",
(input_schema::<GetAttachment>(), output_schema::<AttachmentInfo>()),
get_attachment,
)
.keywords(&["how big", "which notes show it", "embedded where", "image", "pdf", "download", "base64", "file size", "picture", "photo", "image details", "where embedded", "bytes"])
.scopes(&["read:attachments"])
.paths(PATH_READ)
}

fn get_attachment(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GetAttachment = parse(args)?;
    let file = ctx
        .vault()
        .read(&args.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    if !is_attachment(&file.path) {
        return Err(not_an_attachment(&file.path));
    }
    let content_base64 = if args.include_content {
        let limit = ctx.runtime().governor.limit();
        let encoded = file.bytes.len().div_ceil(3).saturating_mul(4);
        if encoded.saturating_add(METADATA_ROOM) > limit {
            return Err(ToolError::new(
                ErrorCode::Overflow,
                format!(
                    "'{}' is {} bytes, {encoded} in base64, more than the response limit of {limit} bytes allows; call without include_content",
                    file.path,
                    file.bytes.len()
                ),
            )
            .with_details(json!({ "path": file.path, "size": encoded, "limit": limit })));
        }
        Some(STANDARD.encode(&file.bytes))
    } else {
        None
    };
    let referenced_by = readable_referrers(ctx, &*link_table(ctx)?, &file.path);
    structured(&AttachmentInfo {
        extension: extension(&file.path).to_lowercase(),
        size: file.bytes.len(),
        sha256: file.sha256,
        modified_ms: file.modified_ms,
        referenced_by,
        content_base64,
        path: file.path,
    })
}

/// `invalid_input` for a note, canvas or base given where an attachment is expected.
pub(super) fn not_an_attachment(path: &str) -> ToolError {
    ToolError::new(
        ErrorCode::InvalidInput,
        format!("'{path}' is a note, canvas or base, not an attachment; use the note tools for it"),
    )
    .with_details(json!({ "path": path }))
}
