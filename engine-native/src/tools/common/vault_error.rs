//! The tool error for a refusal or failure of the vault backend.

use engine_core::acl::AclOp;
use serde_json::json;

use crate::errors::{ErrorCode, ToolError};
use crate::vault::VaultError;

/// Maps `error`, raised while performing `op`, to the tool error the agent gets. Every
/// message is the backend's (which names the path and says what to do); `details.path` and
/// `details.vault_code` (the backend's own code) are always set.
pub fn tool_error_from_vault(error: &VaultError, op: AclOp) -> ToolError {
    let (code, path) = match error {
        VaultError::PathInvalid { path, reason } => return ToolError::path_invalid(path, *reason),
        VaultError::HardDeny { path }
        | VaultError::HardLink { path, .. }
        | VaultError::Alias { path, .. }
        | VaultError::EscapesVault { path } => (ErrorCode::AclDenied, path),
        VaultError::NotFound { path } => (ErrorCode::NotFound, path),
        VaultError::AlreadyExists { path } => (ErrorCode::AlreadyExists, path),
        VaultError::ConcurrentModification { path, .. } => {
            (ErrorCode::ConcurrentModification, path)
        }
        VaultError::IsDirectory { path }
        | VaultError::NotADirectory { path }
        | VaultError::NotRegularFile { path }
        | VaultError::NotText { path }
        | VaultError::BadSettings { path, .. } => (ErrorCode::InvalidInput, path),
        VaultError::Busy { path } => (ErrorCode::FileBusy, path),
        VaultError::OutsideCall { path } | VaultError::Io { path, .. } => {
            (ErrorCode::Internal, path)
        }
    };
    let mut details = json!({ "path": path, "vault_code": error.code() });
    if code == ErrorCode::AclDenied {
        details["op"] = json!(op);
    }
    if let VaultError::ConcurrentModification {
        expected, actual, ..
    } = error
    {
        details["expected_sha256"] = json!(expected);
        details["actual_sha256"] = json!(actual);
    }
    ToolError::new(code, error.to_string()).with_details(details)
}

/// `concurrent_modification` unless `expected` (when given) is the note's SHA-256 (`None`:
/// the note does not exist).
pub(crate) fn check_expected(
    path: &str,
    actual: Option<&str>,
    expected: Option<&str>,
) -> Result<(), ToolError> {
    let Some(expected) = expected else {
        return Ok(());
    };
    if actual.is_some_and(|actual| actual.eq_ignore_ascii_case(expected)) {
        return Ok(());
    }
    let stale = VaultError::ConcurrentModification {
        path: path.to_owned(),
        expected: expected.to_owned(),
        actual: actual.map(str::to_owned),
    };
    Err(tool_error_from_vault(&stale, AclOp::Write))
}
