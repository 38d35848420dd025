//! `restore_note`: put one note back as a snapshot had it before its change. A dry run (the
//! default) shows what would change; doing it needs a human's confirmation (v1 §2.4).

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::restore::{FileRestore, apply_all, find, plan};
use crate::edits::preview;
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `restore_note`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RestoreNote {
    /// The snapshot to restore (from `list_snapshots`).
    #[schemars(range(min = 1))]
    snapshot_id: i64,
    /// Only show what would change (default `true`).
    #[serde(default = "yes")]
    dry_run: bool,
}

fn yes() -> bool {
    true
}

/// What `restore_note` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Restored {
    /// The snapshot restored.
    snapshot_id: i64,
    /// What the restore does (or did) to the note.
    file: FileRestore,
    /// Whether nothing was changed (a dry run).
    dry_run: bool,
    /// For text notes, the change from the note now to the restored note (unified diff).
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<String>,
}

/// The `restore_note` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("restore_note", "Restore note", "Put a note back to its earlier content, by a snapshot id from list_snapshots: the old content exactly (a note that did not exist then goes to .trash/). dry_run (default true) previews the diff; restoring needs the user's confirmation."),
"notes",
(input_schema::<RestoreNote>(), output_schema::<Restored>()),
restore_note,
)
.keywords(&["roll back", "revert a note", "recover", "restore", "bring back", "older version", "back to earlier", "undelete"])
.scopes(&["write:notes"])
}

fn restore_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: RestoreNote = parse(args)?;
    let snapshot = find(ctx, args.snapshot_id, AclOp::Write)?;
    let planned = plan(ctx, &snapshot)?;
    let diff = text_diff(ctx, &planned.shown.path, snapshot.content.as_deref());
    if !args.dry_run {
        ctx.confirm(json!({
            "restore": planned.shown,
            "snapshot_id": args.snapshot_id,
            "diff": diff,
        }))?;
        apply_all(ctx, std::slice::from_ref(&planned))?;
    }
    structured(&Restored {
        snapshot_id: args.snapshot_id,
        file: planned.shown,
        dry_run: args.dry_run,
        diff,
    })
}

/// The diff from the note at `path` now to `restored`, when both are text (a missing note
/// counts as empty).
fn text_diff(ctx: &ToolContext<'_>, path: &str, restored: Option<&[u8]>) -> Option<String> {
    let now = match ctx.vault().read(path) {
        Ok(file) => String::from_utf8(file.bytes).ok()?,
        Err(_) => String::new(),
    };
    let restored = match restored {
        Some(bytes) => std::str::from_utf8(bytes).ok()?,
        None => "",
    };
    Some(preview(&now, restored))
}
