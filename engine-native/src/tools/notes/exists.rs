//! `note_exists`: whether a note or folder exists at a path, without reading it.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::dispatch::{ToolContext, ToolDef};
use crate::errors::ToolError;
use crate::tools::args::PATH_READ;
use crate::tools::args::{input_schema, parse};
use crate::tools::vault_error::tool_error_from_vault;

/// The arguments of `note_exists`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NotePath {
    /// The vault-relative path of the note, e.g. `Inbox/idea.md`.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
}

/// The `note_exists` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef {
        name: "note_exists",
        title: "Note exists",
        description: "Check whether a note (or folder) exists at a vault path, without reading it.",
        domain: "notes",
        input_schema: input_schema::<NotePath>(),
        output_schema: None,
        scopes: &["read:notes"],
        destructive: false,
        idempotency: false,
        vault_arg: true,
        path_args: PATH_READ,
        precheck: None,
        handler: note_exists,
    }
}

fn note_exists(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: NotePath = parse(args)?;
    let resolved = ctx
        .vault()
        .resolve(&args.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let kind = match resolved.exists() {
        false => Value::Null,
        true if resolved.abs.is_dir() => json!("folder"),
        true => json!("file"),
    };
    Ok(json!({ "path": resolved.rel, "exists": resolved.exists(), "kind": kind }))
}
