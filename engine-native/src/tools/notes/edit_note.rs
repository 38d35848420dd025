//! `edit_note`: line-based patch operations (insert after / before a line, replace or delete
//! a range) checked against the expected old text, all applied at once or not at all. A
//! dry run is the default and returns the unified diff; applying needs `expected_sha256`.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::line_patch::{LineOp, apply_line_ops};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::edit_flow::{EditRequest, apply_edit, edit_tool};
use crate::tools::common::structured::structured;

/// The arguments of `edit_note`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct EditNote {
    /// The vault-relative path of the note.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// The operations, by line numbers of the note as read (not shifted by each other).
    #[schemars(length(min = 1, max = 200))]
    operations: Vec<LineOp>,
    /// Only preview (default true): returns the unified diff and changes nothing.
    #[serde(default = "yes")]
    dry_run: bool,
    /// The SHA-256 of the note as read; required to apply (dry_run false).
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    expected_sha256: Option<String>,
}

fn yes() -> bool {
    true
}

/// The `edit_note` tool.
pub(super) fn tool() -> ToolDef {
    edit_tool(
        ("edit_note", "Edit note lines"),
        "Edit a note by line numbers: operations insert_after / insert_before a line, or replace / delete lines start..=end, each with expected (the current text of those lines) so a stale view is refused. Line numbers refer to the note as read; all operations apply together or none does. dry_run defaults to true and returns the unified diff; to apply, set dry_run false and give expected_sha256. Removing more than 20 lines and more than half of the note needs the user's confirmation.",
        input_schema::<EditNote>(),
        edit_note,
    )
    .keywords(&["line", "lines", "line numbers", "insert after line", "delete lines", "replace lines", "line range", "by line", "diff"])
}

fn edit_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: EditNote = parse(args)?;
    if !args.dry_run && args.expected_sha256.is_none() {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "applying an edit needs expected_sha256: read the note (or run the dry run) and pass its sha256",
        ));
    }
    let request = EditRequest {
        path: &args.path,
        expected_sha256: args.expected_sha256.as_deref(),
        dry_run: args.dry_run,
    };
    let result = apply_edit(ctx, &request, |text| apply_line_ops(text, &args.operations))?;
    structured(&result)
}
