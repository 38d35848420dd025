//! `delete_entity`: an entity's note moved to the vault's `.trash/`, always confirmed by a
//! human — the escape hatch for an entity created by mistake; an entity that is no longer
//! current is retired with `rename_entity` instead. Links to it are left as they are (they
//! no longer resolve); the answer names the notes holding them.

use std::collections::BTreeSet;

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::entity_note::{entity_path, read_entity_note};
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::link_table;
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;

/// The arguments of `delete_entity`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct DeleteEntity {
    /// The entity's name.
    #[schemars(length(min = 1, max = 200))]
    name: String,
    /// Refuse (`concurrent_modification`) unless the note still has this SHA-256 (from
    /// `get_entity`).
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    expected_sha256: Option<String>,
}

/// What `delete_entity` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct EntityDeleted {
    /// The path the entity note had.
    path: String,
    /// Where it lies now, under `.trash/` (restore it from there, or with undo_last_change).
    trashed_to: String,
    /// The notes (that the caller may read) whose links to it no longer resolve.
    linked_from: Vec<String>,
}

/// The `delete_entity` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "delete_entity",
            "Delete memory entity",
            "Delete a memory entity created by mistake: its note goes to the vault's .trash/ folder. Always needs the user's confirmation. To keep the record of an entity that is no longer current, retire it with rename_entity (status retired) instead. Links to it stay and no longer resolve; the answer lists the notes holding them.",
        ),
        "memory",
        (input_schema::<DeleteEntity>(), output_schema::<EntityDeleted>()),
        delete_entity,
    )
    .keywords(&["forget", "delete entity", "remove entity", "created by mistake", "memory", "erase from memory"])
    .scopes(&["delete:memory"])
    .destructive()
}

fn delete_entity(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: DeleteEntity = parse(args)?;
    let path = entity_path(ctx, &args.name, AclOp::Delete)?;
    let found = read_entity_note(ctx, &args.name, &path)?;
    let table = link_table(ctx)?;
    let linked_from: BTreeSet<String> = table
        .incoming(&found.note.path)
        .map(|link| link.source.clone())
        .filter(|source| *source != found.note.path && ctx.may(source, AclOp::Read))
        .collect();
    let expected = args
        .expected_sha256
        .unwrap_or_else(|| found.note.sha256.clone());
    ctx.mark_effect_started();
    let trashed_to = ctx
        .vault()
        .trash(&found.note.path, Some(&expected))
        .map_err(|error| tool_error_from_vault(&error, AclOp::Delete))?;
    structured(&EntityDeleted {
        path: found.note.path,
        trashed_to,
        linked_from: linked_from.into_iter().collect(),
    })
}
