//! `read_notes`: up to [`MAX_PATHS`] whole notes in one call. Each path is checked against
//! the folder ACL and read on its own: one refused or missing path gives that item a typed
//! error and does not fail the others.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::note_text::read_text;
use super::read::select;
use crate::dispatch::{ToolContext, ToolDef};
use crate::errors::ToolError;
use crate::tools::args::{input_schema, parse};
use crate::tools::structured::structured;

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

/// The `read_notes` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef {
        name: "read_notes",
        title: "Read notes",
        description: "Read up to 50 whole notes at once. Each item is either the note (content, sha256, size, as read_note returns it, with ok: true) or ok: false with that path's error; one failing path does not fail the others.",
        domain: "notes",
        input_schema: input_schema::<ReadNotes>(),
        output_schema: None,
        scopes: &["read:notes"],
        destructive: false,
        idempotency: false,
        vault_arg: true,
        path_args: &[],
        precheck: None,
        handler: read_notes,
    }
}

fn read_notes(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ReadNotes = parse(args)?;
    let mut failed = 0;
    let items: Vec<Value> = args
        .paths
        .iter()
        .map(|path| match read_one(ctx, path) {
            Ok(note) => note,
            Err(error) => {
                failed += 1;
                json!({ "path": path, "ok": false, "error": error.to_structured() })
            }
        })
        .collect();
    Ok(json!({
        "items": items,
        "total_count": items.len(),
        "failed_count": failed,
    }))
}

/// One note as `read_note` returns it, with `ok: true`.
fn read_one(ctx: &ToolContext<'_>, path: &str) -> Result<Value, ToolError> {
    ctx.check_path(path, AclOp::Read)?;
    let mut note = structured(&select(read_text(ctx, path, AclOp::Read)?, None)?)?;
    note["ok"] = json!(true);
    Ok(note)
}
