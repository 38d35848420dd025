//! The vault's part of `git status`: what is staged, changed in the working tree, untracked
//! or conflicted, under the vault folder only.

use git2::{Status, StatusOptions};
use schemars::JsonSchema;
use serde::Serialize;

use crate::vcs::error::VcsError;
use crate::vcs::repo::VaultRepo;

/// How a file differs (from HEAD when staged, from the index when changed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// New: staged for the first time, or untracked in the working tree.
    Added,
    /// Its content changed.
    Modified,
    /// It was removed.
    Deleted,
    /// It changed kind (a file became a symbolic link, or back).
    Typechange,
    /// In the working tree, not in git and not ignored.
    Untracked,
}

/// One file of the status and how it differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct FileChange {
    /// The vault-relative path.
    pub path: String,
    /// How it differs.
    pub change: Change,
}

/// The vault's status, each list in path order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct StatusReport {
    /// The branch HEAD is on; absent when HEAD is detached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// Changes in the index (what a commit would record), against HEAD.
    pub staged: Vec<FileChange>,
    /// Changes in the working tree not staged, against the index (untracked files too).
    pub changed: Vec<FileChange>,
    /// Files with merge conflicts.
    pub conflicted: Vec<String>,
    /// Whether entries were left out to stay within the limit.
    pub truncated: bool,
}

/// The status of the files under the vault folder that `visible` admits, at most `limit`
/// entries in all. Ignored files are left out, untracked folders are listed file by file.
pub fn status(
    repo: &VaultRepo,
    limit: usize,
    visible: &dyn Fn(&str) -> bool,
) -> Result<StatusReport, VcsError> {
    let mut options = StatusOptions::new();
    options
        .include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false)
        .exclude_submodules(true)
        .renames_head_to_index(false)
        .renames_index_to_workdir(false);
    if !repo.prefix().is_empty() {
        options
            .pathspec(repo.prefix().trim_end_matches('/'))
            .disable_pathspec_match(true);
    }
    let statuses = repo.git().statuses(Some(&mut options))?;
    let mut report = StatusReport {
        branch: repo.branch(),
        ..StatusReport::default()
    };
    let mut shown = 0;
    for entry in statuses.iter() {
        let Some(path) = entry.path().ok().and_then(|p| repo.vault_path(p)) else {
            continue;
        };
        if !visible(path) {
            continue;
        }
        let bits = entry.status();
        let mut rows: Vec<(&mut Vec<FileChange>, Change)> = Vec::new();
        if bits.is_conflicted() {
            shown += 1;
            if shown > limit {
                report.truncated = true;
                break;
            }
            report.conflicted.push(path.to_owned());
            continue;
        }
        if let Some(change) = staged_change(bits) {
            rows.push((&mut report.staged, change));
        }
        if let Some(change) = worktree_change(bits) {
            rows.push((&mut report.changed, change));
        }
        for (list, change) in rows {
            shown += 1;
            if shown > limit {
                report.truncated = true;
                break;
            }
            list.push(FileChange {
                path: path.to_owned(),
                change,
            });
        }
        if report.truncated {
            break;
        }
    }
    Ok(report)
}

/// How the index differs from HEAD for this entry.
fn staged_change(bits: Status) -> Option<Change> {
    if bits.is_index_new() {
        Some(Change::Added)
    } else if bits.is_index_deleted() {
        Some(Change::Deleted)
    } else if bits.is_index_typechange() {
        Some(Change::Typechange)
    } else if bits.is_index_modified() || bits.is_index_renamed() {
        Some(Change::Modified)
    } else {
        None
    }
}

/// How the working tree differs from the index for this entry.
fn worktree_change(bits: Status) -> Option<Change> {
    if bits.is_wt_new() {
        Some(Change::Untracked)
    } else if bits.is_wt_deleted() {
        Some(Change::Deleted)
    } else if bits.is_wt_typechange() {
        Some(Change::Typechange)
    } else if bits.is_wt_modified() || bits.is_wt_renamed() {
        Some(Change::Modified)
    } else {
        None
    }
}
