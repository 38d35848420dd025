//! `undo_last_change`: put back every file of the caller's last change (one tool call) in
//! this vault, byte for byte, all or nothing. A file changed again since (by anyone) is not
//! overwritten unless `force` (its current content is kept as a snapshot either way).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::restore::{FileRestore, Planned, apply_all, plan};
use super::take;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::store::store_fault;
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// This tool's name: its own changes are never taken as "the last change" to undo (undoing
/// twice does not redo), nor are the snapshots `snapshot_note` takes (they change nothing).
const NAME: &str = "undo_last_change";

/// The arguments of `undo_last_change`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct UndoLastChange {
    /// Only show what would be put back.
    #[serde(default)]
    dry_run: bool,
    /// Put files back even when they changed again after the change being undone (their
    /// current content is kept as a snapshot, so this is itself undoable).
    #[serde(default)]
    force: bool,
}

/// What `undo_last_change` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Undone {
    /// The change undone (or that would be); absent when there is nothing to undo.
    #[serde(skip_serializing_if = "Option::is_none")]
    change_id: Option<String>,
    /// The tool that made it.
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<String>,
    /// When it was made, Unix seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    changed_at: Option<i64>,
    /// What the undo does (or did) to each file.
    files: Vec<FileRestore>,
    /// Whether nothing was changed (a dry run, or nothing to undo).
    dry_run: bool,
}

/// The `undo_last_change` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
(NAME, "Undo last change", "Take back your last edit: every note your last writing tool call wrote, moved, copied or deleted is put back exactly as it was, every note or none. Notes edited again since are left alone unless force. dry_run previews it; each call takes back one more."),
"notes",
(input_schema::<UndoLastChange>(), output_schema::<Undone>()),
undo_last_change,
)
.keywords(&["just now", "touched", "back the way it was", "undo", "revert", "roll back", "oops", "take back", "mistake", "last edit", "cancel that"])
.scopes(&["write:notes"])
}

fn undo_last_change(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: UndoLastChange = parse(args)?;
    let snapshots = ctx
        .store()
        .snapshots()
        .last_change(ctx.vault_id(), &ctx.caller().id, &[NAME, take::NAME])
        .map_err(store_fault)?;
    let Some(first) = snapshots.first() else {
        return structured(&Undone {
            change_id: None,
            tool: None,
            changed_at: None,
            files: Vec::new(),
            dry_run: true,
        });
    };
    let (change_id, tool, changed_at) = (
        first.info.change_id.clone(),
        first.info.tool.clone(),
        first.info.created_at,
    );
    let plans: Vec<Planned> = snapshots
        .iter()
        .map(|snapshot| plan(ctx, snapshot))
        .collect::<Result<_, _>>()?;
    if !args.force {
        let changed_since: Vec<&str> = snapshots
            .iter()
            .zip(&plans)
            .filter(|(snapshot, planned)| {
                snapshot.info.after_sha256 != planned.shown.current_sha256
            })
            .map(|(snapshot, _)| snapshot.info.path.as_str())
            .collect();
        if !changed_since.is_empty() {
            return Err(ToolError::new(
                ErrorCode::ConcurrentModification,
                format!(
                    "{} changed again after the change being undone; nothing was put back. \
                     Read them first, then pass force: true to put them back anyway",
                    changed_since.join(", ")
                ),
            )
            .with_details(json!({ "paths": changed_since, "change_id": change_id })));
        }
    }
    if !args.dry_run {
        apply_all(ctx, &plans)?;
        ctx.store()
            .snapshots()
            .mark_undone(ctx.vault_id(), &change_id, ctx.clock().now_seconds())
            .map_err(store_fault)?;
    }
    structured(&Undone {
        change_id: Some(change_id),
        tool: Some(tool),
        changed_at: Some(changed_at),
        files: plans.into_iter().map(|planned| planned.shown).collect(),
        dry_run: args.dry_run,
    })
}
