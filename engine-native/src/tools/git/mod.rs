//! Git over the vault folder, natively through [`crate::vcs`] (no `git` CLI, no Obsidian
//! plugin), with the original's boundaries:
//!
//! - `status`: `git_status` (scope `read:git`), filtered to the paths the caller may read;
//! - `diff`: `git_diff` of one file, staged or not (read ACL on the path);
//! - `history`: `git_log` (the whole vault's, refused under any read restriction because
//!   commit messages may name hidden notes; or one file's, read ACL on the path) and
//!   `git_show` (a file's recorded text at a commit or version);
//! - `stage`: `git_stage` (scope `write:git`, write ACL on each path);
//! - `commit`: `git_commit` (scope `execute:git`, on the HITL floor: always confirmed by a
//!   person).
//!
//! The read-only switch refuses `git_stage` and `git_commit` (their scopes are of mutating
//! families). `.git/` stays hard-denied to the file tools; git is reached only here.

mod commit;
mod diff;
mod history;
mod stage;
mod status;

use serde_json::json;

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::vcs::{VaultRepo, VcsError};

/// The facade domain of the git tools.
const DOMAIN: &str = "git";

/// The git tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        status::tool(),
        diff::tool(),
        history::log_tool(),
        history::show_tool(),
        stage::tool(),
        commit::tool(),
    ]
}

/// The repository holding the bound vault.
fn open(ctx: &ToolContext<'_>) -> Result<VaultRepo, ToolError> {
    VaultRepo::open(ctx.vault().root()).map_err(|error| tool_error(&error))
}

/// The tool error of a failed git operation; `details.reason` is the cause's name.
fn tool_error(error: &VcsError) -> ToolError {
    let code = match error {
        VcsError::PathNotFound { .. }
        | VcsError::UnknownCommit { .. }
        | VcsError::UnknownVersion { .. } => ErrorCode::NotFound,
        VcsError::NotAFile { .. } | VcsError::Ignored { .. } => ErrorCode::InvalidInput,
        VcsError::BeyondSymlink { .. } => ErrorCode::AclDenied,
        VcsError::NotARepository
        | VcsError::NoWorkingTree
        | VcsError::UnsafeOwner
        | VcsError::StagedOutsideVault { .. }
        | VcsError::Conflicted
        | VcsError::NothingToCommit
        | VcsError::Git { .. } => ErrorCode::GitError,
    };
    let mut details = json!({ "reason": error.reason() });
    match error {
        VcsError::PathNotFound { path }
        | VcsError::NotAFile { path }
        | VcsError::BeyondSymlink { path }
        | VcsError::Ignored { path }
        | VcsError::UnknownVersion { path, .. } => details["path"] = json!(path),
        VcsError::StagedOutsideVault { count } => details["staged_outside"] = json!(count),
        _ => {}
    }
    ToolError::new(code, error.to_string()).with_details(details)
}
