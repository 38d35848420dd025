//! `note_exists`: whether a note or folder exists at a path, without reading it.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::PATH_READ;
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;

/// The arguments of `note_exists`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NotePath {
    /// The vault-relative path of the note, e.g. `Inbox/idea.md`.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
}

/// What exists at the path.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum EntryKind {
    /// A file (a note or an attachment).
    File,
    /// A folder.
    Folder,
}

/// What `note_exists` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct NoteExists {
    /// The canonical vault-relative path (NFC).
    path: String,
    /// Whether anything exists at the path.
    exists: bool,
    /// `file` or `folder`; `null` when nothing exists.
    kind: Option<EntryKind>,
}

/// The `note_exists` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "note_exists",
            "Note exists",
            "Check whether a note (or folder) exists at a vault path, without reading it.",
        ),
        "notes",
        (input_schema::<NotePath>(), output_schema::<NoteExists>()),
        note_exists,
    )
    .keywords(&[
        "exists",
        "exist",
        "present",
        "already",
        "is there a note",
        "missing",
        "check",
        "whether",
        "named",
        "called",
        "taken",
        "file exists",
        "page exists",
    ])
    .scopes(&["read:notes"])
    .paths(PATH_READ)
}

fn note_exists(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: NotePath = parse(args)?;
    let resolved = ctx
        .vault()
        .resolve(&args.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let kind = match resolved.exists() {
        false => None,
        true if resolved.abs.is_dir() => Some(EntryKind::Folder),
        true => Some(EntryKind::File),
    };
    structured(&NoteExists {
        exists: resolved.exists(),
        path: resolved.rel,
        kind,
    })
}
