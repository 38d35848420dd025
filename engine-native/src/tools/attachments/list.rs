//! `list_attachments`: the attachments the caller may read, by path, paged, optionally under
//! a folder and with given extensions, each with how many readable notes reference it.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::references::{extension, is_attachment, readable_references};
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::link_table;
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::EntryKind;

/// The arguments of `list_attachments`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListAttachments {
    /// Only attachments under this folder.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    folder: Option<String>,
    /// Only these extensions (`png`, `pdf`; case-insensitive, without the dot).
    #[serde(default)]
    extensions: Vec<String>,
    /// How many to skip (from `next_offset` of the previous page).
    #[serde(default)]
    offset: usize,
    /// The most to return (default 100).
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 1000))]
    limit: usize,
}

fn default_limit() -> usize {
    100
}

/// One listed attachment.
#[derive(Debug, Serialize, JsonSchema)]
struct Attachment {
    /// The vault-relative path.
    path: String,
    /// The extension, lowercase.
    extension: String,
    /// Size in bytes.
    size: u64,
    /// Last modification, milliseconds since the Unix epoch.
    modified_ms: i64,
    /// How many notes you may read reference it.
    reference_count: usize,
}

/// What `list_attachments` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct AttachmentPage {
    /// This page, sorted by path.
    attachments: Vec<Attachment>,
    /// How many attachments match in all.
    total: usize,
    /// The offset of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    next_offset: Option<usize>,
}

/// The `list_attachments` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("list_attachments", "List attachments", "List the vault's attachments (images, PDFs, audio: every file that is not a note, canvas or base), paged and sorted by path, optionally under folder and with given extensions, each with size and how many notes reference it."),
"attachments",
(input_schema::<ListAttachments>(), output_schema::<AttachmentPage>()),
list_attachments,
)
.keywords(&["attachments", "images", "files", "pdf", "pdfs", "media", "assets", "unused", "unreferenced", "pictures", "photos", "audio", "all images"])
.scopes(&["read:attachments"])
}

fn list_attachments(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ListAttachments = parse(args)?;
    let files = ctx
        .vault()
        .list(None)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let references = readable_references(ctx, &*link_table(ctx)?);
    let prefix = args
        .folder
        .as_deref()
        .map(|folder| format!("{}/", folder.trim_matches('/')));
    let wanted: Vec<String> = args.extensions.iter().map(|e| e.to_lowercase()).collect();
    let matching: Vec<Attachment> = files
        .iter()
        .filter(|entry| entry.kind == EntryKind::File && is_attachment(&entry.path))
        .filter(|entry| prefix.as_ref().is_none_or(|p| entry.path.starts_with(p)))
        .filter(|entry| {
            let ext = extension(&entry.path).to_lowercase();
            wanted.is_empty() || wanted.contains(&ext)
        })
        .filter(|entry| ctx.may_list(&entry.path))
        .map(|entry| Attachment {
            extension: extension(&entry.path).to_lowercase(),
            reference_count: references.get(&entry.path).map_or(0, |notes| notes.len()),
            path: entry.path.clone(),
            size: entry.size,
            modified_ms: entry.modified_ms,
        })
        .collect();
    let total = matching.len();
    let attachments: Vec<Attachment> = matching
        .into_iter()
        .skip(args.offset)
        .take(args.limit)
        .collect();
    let end = args.offset.saturating_add(attachments.len());
    structured(&AttachmentPage {
        attachments,
        total,
        next_offset: (end < total).then_some(end),
    })
}
