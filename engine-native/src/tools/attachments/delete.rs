//! `delete_attachment`: destructive, so always confirmed by a human, who is shown how many
//! notes reference the attachment; the file goes to `.trash/` ([`crate::vault::Vault::trash`]).

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::get::not_an_attachment;
use super::references::{is_attachment, readable_referrers};
use crate::errors::ToolError;
use crate::runtime::{PathArg, ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::link_table;
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;

/// The arguments of `delete_attachment`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct DeleteAttachment {
    /// The attachment's vault-relative path.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// Refuse (`concurrent_modification`) unless the file still has this SHA-256.
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    expected_sha256: Option<String>,
}

/// What `delete_attachment` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Deleted {
    /// The attachment's former path.
    path: String,
    /// Where it went in `.trash/`.
    trashed_to: String,
    /// How many notes you may read still reference it (their links are now broken).
    reference_count: usize,
    /// Those notes, sorted.
    referenced_by: Vec<String>,
}

const DELETE_PATH: &[PathArg] = &[PathArg {
    name: "path",
    op: AclOp::Delete,
}];

/// The `delete_attachment` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("delete_attachment", "Delete attachment", "Delete an attachment (soft delete into .trash/). Always needs the user's confirmation; the result says how many notes still reference it (their embeds and links break)."),
"attachments",
(input_schema::<DeleteAttachment>(), output_schema::<Deleted>()),
delete_attachment,
)
.keywords(&["picture", "logo", "remove file", "unused file", "remove", "trash", "image", "file", "cleanup", "delete image", "delete picture", "remove pdf"])
.scopes(&["delete:attachments"])
.paths(DELETE_PATH)
.destructive()
}

fn delete_attachment(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: DeleteAttachment = parse(args)?;
    let file = ctx
        .vault()
        .read(&args.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Delete))?;
    if !is_attachment(&file.path) {
        return Err(not_an_attachment(&file.path));
    }
    let referenced_by = readable_referrers(ctx, &*link_table(ctx)?, &file.path);
    let expected = args.expected_sha256.unwrap_or(file.sha256);
    ctx.mark_effect_started();
    let trashed_to = ctx
        .vault()
        .trash(&file.path, Some(&expected))
        .map_err(|error| tool_error_from_vault(&error, AclOp::Delete))?;
    structured(&Deleted {
        path: file.path,
        trashed_to,
        reference_count: referenced_by.len(),
        referenced_by,
    })
}
