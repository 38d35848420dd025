//! `delete_note`: a soft delete into the vault's `.trash/` folder, always confirmed by a human.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::{PathArg, ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::note_text::mutation_failed;
use crate::tools::common::structured::{output_schema, structured};

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

/// What `delete_note` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct NoteDeleted {
    /// The path the note had, as given.
    path: String,
    /// Always `true`: the note is no longer at `path`.
    deleted: bool,
    /// Where the note now lies, under `.trash/` (restore it from there by hand).
    trashed_to: String,
}

const DELETE_PATH: &[PathArg] = &[PathArg {
    name: "path",
    op: AclOp::Delete,
}];

/// The `delete_note` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("delete_note", "Delete note", "Delete (remove) a note: it goes to the vault's trash folder, .trash/. Always needs the user's confirmation."),
"notes",
(input_schema::<DeleteNote>(), output_schema::<NoteDeleted>()),
delete_note,
)
.keywords(&["remove", "remove note", "erase", "discard", "destroy", "trash", "bin", "throw away", "get rid of", "unwanted", "anymore", "no longer", "obsolete", "delete page"])
.scopes(&["delete:notes"])
.paths(DELETE_PATH)
.destructive()
}

fn delete_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: DeleteNote = parse(args)?;
    let trashed_to = ctx
        .vault()
        .trash(&args.path, args.expected_sha256.as_deref())
        .map_err(|error| mutation_failed(ctx, &error, AclOp::Delete))?;
    structured(&NoteDeleted {
        path: args.path,
        deleted: true,
        trashed_to,
    })
}
