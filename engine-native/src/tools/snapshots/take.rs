//! `snapshot_note` (the original obsidian-tc's name): keep a note's current bytes as a
//! snapshot taken by hand, under the same retention as the snapshots tool calls leave
//! (`maintenance.snapshotsPerNote`, `snapshotRetentionDays`). It writes only the cache: the
//! snapshot is a change of the tool `snapshot_note` whose file is the same before and after,
//! so `list_snapshots` shows it (its `tool` says it was taken by hand), `read_snapshot` reads
//! it, `restore_note` puts the note back to it, and `undo_last_change` passes over it.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::errors::{ErrorCode, ToolError};
use crate::index::scan::is_note;
use crate::runtime::{ToolContext, ToolDef};
use crate::store::{ChangedFile, store_fault};
use crate::tools::common::args::{PATH_READ, input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::VaultError;
use crate::vault::journal::MAX_SNAPSHOT_BYTES;

/// This tool's name: the `tool` of the snapshots it takes.
pub(super) const NAME: &str = "snapshot_note";

/// The arguments of `snapshot_note`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SnapshotNote {
    /// The note (vault-relative path).
    #[schemars(length(min = 1, max = 1024))]
    path: String,
}

/// What `snapshot_note` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Taken {
    /// The note's canonical vault-relative path.
    path: String,
    /// The snapshot's id (for `read_snapshot` and `restore_note`).
    snapshot_id: i64,
    /// The SHA-256 of the bytes kept.
    content_hash: String,
    /// When it was taken, Unix seconds.
    created_at: i64,
}

/// The `snapshot_note` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            NAME,
            "Snapshot note",
            "Snapshot one note now (a manual restore point): its current bytes are copied \
             into the snapshot store, kept per maintenance.snapshotsPerNote; read_snapshot \
             and restore_note take the snapshot_id returned. The note is not modified.",
        ),
        "notes",
        (input_schema::<SnapshotNote>(), output_schema::<Taken>()),
        snapshot_note,
    )
    .keywords(&["restore point", "checkpoint", "backup copy"])
    .scopes(&["read:notes"])
    .paths(PATH_READ)
}

fn snapshot_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: SnapshotNote = parse(args)?;
    let file = match ctx.vault().read(&args.path) {
        Ok(file) if is_note(&file.path) => file,
        Ok(_) | Err(VaultError::NotFound { .. } | VaultError::IsDirectory { .. }) => {
            return Err(not_a_note(&args.path));
        }
        Err(error) => return Err(tool_error_from_vault(&error, AclOp::Read)),
    };
    if file.bytes.len() as u64 > MAX_SNAPSHOT_BYTES {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!(
                "'{}' is over {} MiB; snapshots keep notes up to that size",
                file.path,
                MAX_SNAPSHOT_BYTES >> 20
            ),
        )
        .with_details(json!({ "path": file.path, "size": file.bytes.len() })));
    }
    let now = ctx.clock().now_seconds();
    let ids = ctx
        .keep_snapshots(vec![ChangedFile {
            path: &file.path,
            existed: true,
            content: Some(&file.bytes),
            after_sha256: Some(&file.sha256),
        }])
        .map_err(store_fault)?;
    let snapshot_id = ids
        .first()
        .copied()
        .ok_or_else(|| ToolError::internal("the snapshot was not recorded"))?;
    structured(&Taken {
        path: file.path,
        snapshot_id,
        content_hash: file.sha256,
        created_at: now,
    })
}

/// `not_found` for a path that names no note (a missing file, a folder, an attachment).
fn not_a_note(path: &str) -> ToolError {
    ToolError::new(
        ErrorCode::NotFound,
        format!("'{path}' is not a note of this vault; list_notes shows them"),
    )
    .with_details(json!({ "path": path }))
}
