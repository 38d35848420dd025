//! `move_attachment`: moves an attachment and rewrites every embed, wikilink and markdown
//! link to it, through the same plan and all-or-nothing commit as `move_note`
//! (`tools/links/relink.rs`: Obsidian's resolution before and after the move). Crossing a
//! folder or replacing a file needs a human's confirmation. When a step fails, every
//! rewritten note gets its original bytes back, the file goes back, and a replaced
//! destination is restored.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::get::not_an_attachment;
use super::references::is_attachment;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{PathArg, ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::complete_link_table;
use crate::tools::common::relink::{PlannedMove, RelinkPlan, commit, plan_moves};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::VaultError;

/// The arguments of `move_attachment`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct MoveAttachment {
    /// The attachment's vault-relative path.
    #[schemars(length(min = 1, max = 1024))]
    from: String,
    /// Its new vault-relative path (missing folders are created).
    #[schemars(length(min = 1, max = 1024))]
    to: String,
    /// Replace a file already at `to` (needs the user's confirmation).
    #[serde(default)]
    overwrite: bool,
}

/// What `move_attachment` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Moved {
    /// The former path.
    from: String,
    /// The new path.
    to: String,
    /// The notes whose links were rewritten, sorted.
    rewritten_notes: Vec<String>,
    /// How many links were rewritten in all.
    links_rewritten: usize,
}

const MOVE_PATHS: &[PathArg] = &[
    PathArg {
        name: "from",
        op: AclOp::Delete,
    },
    PathArg {
        name: "to",
        op: AclOp::Write,
    },
];

/// The `move_attachment` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("move_attachment", "Move attachment", "Move or rename an attachment and rewrite every reference to it in the notes (embeds ![[x.png]], wikilinks, markdown links). Moving to another folder or over an existing file (overwrite) needs the user's confirmation. All or nothing: if any note cannot be rewritten, nothing changes."),
"attachments",
(input_schema::<MoveAttachment>(), output_schema::<Moved>()),
move_attachment,
)
.keywords(&["relocate", "image", "reorganize", "move picture", "move image"])
.scopes(&["write:attachments", "delete:attachments"])
.paths(MOVE_PATHS)
.idempotent(true)
}

fn move_attachment(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: MoveAttachment = parse(args)?;
    let source = ctx
        .vault()
        .read(&args.from)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Delete))?;
    if !is_attachment(&source.path) {
        return Err(not_an_attachment(&source.path));
    }
    if !is_attachment(&args.to) {
        return Err(not_an_attachment(&args.to));
    }
    let replaces = match ctx.vault().read(&args.to) {
        Ok(file) if file.path == source.path => None,
        Ok(file) if !args.overwrite => {
            let exists = VaultError::AlreadyExists { path: file.path };
            return Err(tool_error_from_vault(&exists, AclOp::Write));
        }
        Ok(file) => Some(file),
        Err(VaultError::NotFound { .. }) => None,
        Err(error) => return Err(tool_error_from_vault(&error, AclOp::Write)),
    };
    let plan = plan(ctx, &source.path, &args.to)?;
    let crossing = parent(&source.path) != parent(&args.to);
    if crossing || replaces.is_some() {
        ctx.confirm(json!({
            "tool": "move_attachment",
            "vault": ctx.vault_id(),
            "from": source.path,
            "to": args.to,
            "reason": if replaces.is_some() { "replaces an existing file" } else { "moves to another folder" },
            "notes_rewritten": plan.visible_notes(ctx),
        }))?;
    }
    let planned = PlannedMove {
        from: source.path.clone(),
        to: args.to.clone(),
        sha256: source.sha256.clone(),
        replaces,
    };
    let to = commit(ctx, &plan, &[planned])?
        .into_iter()
        .next()
        .unwrap_or(args.to);
    structured(&Moved {
        from: source.path,
        to,
        links_rewritten: plan.links(),
        rewritten_notes: plan.visible_notes(ctx),
    })
}

/// The rewrites moving `from` to `to` needs; a note referencing it that the caller may not
/// edit refuses the whole move (its embeds would break).
fn plan(ctx: &ToolContext<'_>, from: &str, to: &str) -> Result<RelinkPlan, ToolError> {
    let table = complete_link_table(ctx)?;
    if table
        .incoming(from)
        .any(|link| !ctx.may(&link.source, AclOp::Write) || !ctx.may(&link.source, AclOp::Read))
    {
        return Err(ToolError::new(
            ErrorCode::AclDenied,
            format!("a note you may not edit references '{from}', so its links could not be rewritten; ask the user to move it"),
        )
        .with_details(json!({ "path": from, "op": "write" })));
    }
    plan_moves(ctx, &table, &[(from.to_owned(), to.to_owned())])
}

/// The folder part of `path` (empty at the root).
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(folder, _)| folder)
}
