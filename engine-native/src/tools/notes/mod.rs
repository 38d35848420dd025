//! Note tools over the vault backend: `note_exists`, `read_note`, `delete_note`.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::dispatch::{PathArg, ToolContext, ToolDef};
use crate::errors::ToolError;
use crate::tools::args::{input_schema, parse};
use crate::tools::vault_error::tool_error_from_vault;
use crate::vault::VaultError;

/// The arguments of `note_exists` and `read_note`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NotePath {
    /// The vault-relative path of the note, e.g. `Inbox/idea.md`.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
}

/// The arguments of `delete_note`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct DeleteNote {
    /// The vault-relative path of the note to delete.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// Refuse (`concurrent_modification`) unless the note still has this SHA-256 (from
    /// `read_note`).
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    expected_sha256: Option<String>,
}

const READ_PATH: &[PathArg] = &[PathArg {
    name: "path",
    op: AclOp::Read,
}];

const DELETE_PATH: &[PathArg] = &[PathArg {
    name: "path",
    op: AclOp::Delete,
}];

/// The note tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
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
            path_args: READ_PATH,
            precheck: None,
            handler: note_exists,
        },
        ToolDef {
            name: "read_note",
            title: "Read note",
            description: "Read a whole note: its content, SHA-256 (for expected_sha256) and size in bytes.",
            domain: "notes",
            input_schema: input_schema::<NotePath>(),
            output_schema: None,
            scopes: &["read:notes"],
            destructive: false,
            idempotency: false,
            vault_arg: true,
            path_args: READ_PATH,
            precheck: None,
            handler: read_note,
        },
        ToolDef {
            name: "delete_note",
            title: "Delete note",
            description: "Move a note to the vault's .trash/ folder. Always needs the user's confirmation.",
            domain: "notes",
            input_schema: input_schema::<DeleteNote>(),
            output_schema: None,
            scopes: &["delete:notes"],
            destructive: true,
            idempotency: false,
            vault_arg: true,
            path_args: DELETE_PATH,
            precheck: None,
            handler: delete_note,
        },
    ]
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

fn read_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: NotePath = parse(args)?;
    let note = ctx
        .vault()
        .read(&args.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let size = note.bytes.len();
    let content = String::from_utf8(note.bytes).map_err(|_| {
        tool_error_from_vault(
            &VaultError::NotText {
                path: note.path.clone(),
            },
            AclOp::Read,
        )
    })?;
    Ok(json!({
        "path": note.path,
        "content": content,
        "sha256": note.sha256,
        "size": size,
        "modified_ms": note.modified_ms,
    }))
}

fn delete_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: DeleteNote = parse(args)?;
    match ctx
        .vault()
        .trash(&args.path, args.expected_sha256.as_deref())
    {
        Ok(trashed_to) => Ok(json!({
            "path": args.path,
            "deleted": true,
            "trashed_to": trashed_to,
        })),
        Err(error) => {
            if matches!(error, VaultError::Io { .. }) {
                // A filesystem fault may strike after the rename: the note may be gone.
                ctx.mark_effect_started();
            }
            Err(tool_error_from_vault(&error, AclOp::Delete))
        }
    }
}
