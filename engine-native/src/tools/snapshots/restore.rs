//! Putting files back as a snapshot had them: what that would do to each file (the plan,
//! shown by dry runs), and doing it for several files all-or-nothing.

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::store::Snapshot;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{NoteFile, VaultError, WriteOptions};

/// What restoring one file does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum Action {
    /// Writes the snapshot's bytes.
    Write,
    /// Moves the file to `.trash/` (it did not exist before the change).
    Remove,
    /// Nothing: the file is already as the snapshot had it.
    None,
}

/// One file's restore, as planned.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(super) struct FileRestore {
    /// The vault-relative path.
    pub(super) path: String,
    /// What restoring does to it.
    pub(super) action: Action,
    /// Its SHA-256 now (`None`: no file).
    pub(super) current_sha256: Option<String>,
    /// Its SHA-256 once restored (`None`: no file).
    pub(super) restored_sha256: Option<String>,
}

/// A planned restore with what it needs to run and to be rolled back.
pub(super) struct Planned {
    /// What is shown.
    pub(super) shown: FileRestore,
    /// The bytes to write for [`Action::Write`].
    bytes: Option<Vec<u8>>,
    /// The file now, for the rollback.
    current: Option<NoteFile>,
}

/// Plans putting `snapshot`'s path back as it was before its change. Refused when the
/// snapshot did not keep the content, or when the caller may not write (or delete) there.
pub(super) fn plan(ctx: &ToolContext<'_>, snapshot: &Snapshot) -> Result<Planned, ToolError> {
    let path = &snapshot.info.path;
    let current = match ctx.vault().read(path) {
        Ok(file) => Some(file),
        Err(VaultError::NotFound { .. }) => None,
        Err(error) => return Err(tool_error_from_vault(&error, AclOp::Write)),
    };
    let current_sha256 = current.as_ref().map(|file| file.sha256.clone());
    let (action, bytes) = match (&snapshot.content, snapshot.info.existed) {
        (Some(bytes), _) if current_sha256.as_deref() == Some(&sha256_hex(bytes)) => {
            (Action::None, None)
        }
        (Some(bytes), _) => (Action::Write, Some(bytes.clone())),
        (None, false) if current.is_none() => (Action::None, None),
        (None, false) => (Action::Remove, None),
        (None, true) => {
            return Err(ToolError::new(
                ErrorCode::InvalidInput,
                format!(
                    "snapshot {} of '{path}' did not keep the file's content (over 16 MiB or \
                     unreadable), so it cannot be restored",
                    snapshot.info.id
                ),
            )
            .with_details(json!({ "path": path, "snapshot_id": snapshot.info.id })));
        }
    };
    let op = if action == Action::Remove {
        AclOp::Delete
    } else {
        AclOp::Write
    };
    ctx.check_path(path, op)?;
    let restored_sha256 = bytes.as_deref().map(sha256_hex).or(match action {
        Action::None => current_sha256.clone(),
        _ => None,
    });
    Ok(Planned {
        shown: FileRestore {
            path: path.clone(),
            action,
            current_sha256,
            restored_sha256,
        },
        bytes,
        current,
    })
}

/// Runs `plans` in order; when one fails, the files already restored are put back as they
/// were (each write guarded by the SHA-256 it expects), and the failure is returned.
pub(super) fn apply_all(ctx: &ToolContext<'_>, plans: &[Planned]) -> Result<(), ToolError> {
    for (done, planned) in plans.iter().enumerate() {
        if planned.shown.action != Action::None {
            ctx.mark_effect_started();
        }
        if let Err(error) = apply(ctx, planned) {
            for undone in plans[..done].iter().rev() {
                roll_back(ctx, undone);
            }
            return Err(error);
        }
    }
    Ok(())
}

/// Restores one file.
fn apply(ctx: &ToolContext<'_>, planned: &Planned) -> Result<(), ToolError> {
    let path = &planned.shown.path;
    let expected = planned.shown.current_sha256.clone();
    let result = match (planned.shown.action, &planned.bytes) {
        (Action::Write, Some(bytes)) => ctx
            .vault()
            .write(
                path,
                bytes,
                &WriteOptions {
                    overwrite: true,
                    expected_sha256: expected,
                },
            )
            .map(drop),
        (Action::Remove, _) => ctx.vault().trash(path, expected.as_deref()).map(drop),
        _ => Ok(()),
    };
    result.map_err(|error| tool_error_from_vault(&error, AclOp::Write))
}

/// Puts one restored file back as it was before the restore; a failure is logged (the
/// restore's own snapshots still hold that content).
fn roll_back(ctx: &ToolContext<'_>, planned: &Planned) {
    let path = &planned.shown.path;
    let result = match (&planned.current, planned.shown.action) {
        (_, Action::None) => Ok(()),
        (Some(file), _) => ctx
            .vault()
            .write(
                path,
                &file.bytes,
                &WriteOptions {
                    overwrite: true,
                    expected_sha256: None,
                },
            )
            .map(drop),
        (None, _) => ctx.vault().trash(path, None).map(drop),
    };
    if let Err(error) = result {
        tracing::warn!(
            path,
            "rolling back a failed restore missed this file: {error}"
        );
    }
}

/// Snapshot `id` of the call's vault, when the caller may `op` its path; a hidden one is
/// `not_found` like a missing one.
pub(super) fn find(ctx: &ToolContext<'_>, id: i64, op: AclOp) -> Result<Snapshot, ToolError> {
    let snapshot = ctx
        .store()
        .snapshots()
        .get(ctx.vault_id(), id)
        .map_err(crate::store::store_fault)?
        .filter(|snapshot| ctx.may(&snapshot.info.path, AclOp::Read))
        .ok_or_else(|| super::list::snapshot_not_found(id))?;
    ctx.check_path(&snapshot.info.path, op)?;
    Ok(snapshot)
}
