//! `read_notes`: up to [`MAX_PATHS`] whole notes in one call. Each path is checked against
//! the folder ACL and read on its own: one refused or missing path gives that item a typed
//! error and does not fail the others.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::read::{NoteRead, select};
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::note_text::read_text;
use crate::tools::common::structured::{output_schema, structured};

/// The most paths one `read_notes` call reads.
pub const MAX_PATHS: usize = 50;

/// The arguments of `read_notes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ReadNotes {
    /// The vault-relative paths of the notes, in the order the results should have.
    #[schemars(length(min = 1, max = 50), inner(length(min = 1, max = 1024)))]
    paths: Vec<String>,
}

/// A note that was read: what `read_note` returns, with `ok: true`.
#[derive(Debug, Serialize, JsonSchema)]
struct ReadItem {
    /// The note.
    #[serde(flatten)]
    note: NoteRead,
    /// Always `true`.
    #[schemars(extend("const" = true))]
    ok: bool,
}

/// A path that could not be read, with its error.
#[derive(Debug, Serialize, JsonSchema)]
struct FailedItem {
    /// The path as given.
    path: String,
    /// Always `false`.
    #[schemars(extend("const" = false))]
    ok: bool,
    /// Why this path failed, as a failed `read_note` would say.
    error: ToolError,
}

/// One result of `read_notes`, in the order of `paths`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
enum NoteItem {
    /// The note was read.
    Read(ReadItem),
    /// The path failed.
    Failed(FailedItem),
}

/// What `read_notes` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct NotesRead {
    /// One item per path, in the order given.
    items: Vec<NoteItem>,
    /// How many paths were asked for.
    total_count: usize,
    /// How many items failed (`ok: false`).
    failed_count: usize,
}

/// The `read_notes` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("read_notes", "Read notes", "Read several notes (up to 50) at once, in one batch. Each item is either the note (content, sha256, size, as read_note returns it, with ok: true) or ok: false with that path's error; one failing path does not fail the others."),
"notes",
(input_schema::<ReadNotes>(), output_schema::<NotesRead>()),
read_notes,
)
.keywords(&["combined", "all three", "these notes", "several notes", "batch", "several", "multiple", "many", "read many", "at once", "together", "in one go", "few notes"])
.scopes(&["read:notes"])
}

fn read_notes(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ReadNotes = parse(args)?;
    let items: Vec<NoteItem> = args
        .paths
        .iter()
        .map(|path| match read_one(ctx, path) {
            Ok(note) => NoteItem::Read(ReadItem { note, ok: true }),
            Err(error) => NoteItem::Failed(FailedItem {
                path: path.clone(),
                ok: false,
                error,
            }),
        })
        .collect();
    let failed_count = items
        .iter()
        .filter(|item| matches!(item, NoteItem::Failed(_)))
        .count();
    structured(&NotesRead {
        total_count: items.len(),
        failed_count,
        items,
    })
}

/// One whole note as `read_note` returns it.
fn read_one(ctx: &ToolContext<'_>, path: &str) -> Result<NoteRead, ToolError> {
    ctx.check_path(path, AclOp::Read)?;
    select(read_text(ctx, path, AclOp::Read)?, None)
}
