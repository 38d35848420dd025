//! The vault's history: the commits that changed the vault folder (or one file of it),
//! newest first. A commit that changed only files outside the vault is not part of it.

use chrono::Offset;
use git2::{Commit, Oid, Sort, Time};
use schemars::JsonSchema;
use serde::Serialize;

use crate::vcs::error::VcsError;
use crate::vcs::repo::VaultRepo;

/// A commit message is cut to this many characters.
pub const MAX_MESSAGE_CHARS: usize = 4000;

/// One commit of the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct LogEntry {
    /// The commit's hash; left out when the caller may not see it (see the tools).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// For the history of one file: the id of its content after this commit (pass it to
    /// `git_show` as `version`); absent when the commit deleted the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The author's date, RFC 3339 with the author's offset.
    pub date: String,
    /// The author's name.
    pub author: String,
    /// The commit message (cut at 4000 characters).
    pub message: String,
}

/// A page of history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct History {
    /// The commits, newest first.
    pub entries: Vec<LogEntry>,
    /// Whether older commits of the same history exist beyond `limit`.
    pub more: bool,
}

/// The last `limit` commits reachable from HEAD that changed the vault folder, or the file
/// `path` when given (a commit changes it when what it holds there differs from what every
/// parent holds, as `git log -- <path>` shows without its merge simplification).
pub fn log(repo: &VaultRepo, path: Option<&str>, limit: usize) -> Result<History, VcsError> {
    let mut entries = Vec::new();
    let mut more = false;
    walk(repo, path, &mut |commit, version| {
        if entries.len() == limit {
            more = true;
            return false;
        }
        entries.push(entry(commit, version));
        true
    })?;
    Ok(History { entries, more })
}

/// Calls `visit` with each commit reachable from HEAD, newest first, that changed the vault
/// (or `path`), and the file's content id after it when `path` is given, until `visit`
/// returns false.
pub(super) fn walk(
    repo: &VaultRepo,
    path: Option<&str>,
    visit: &mut dyn FnMut(&Commit<'_>, Option<Oid>) -> bool,
) -> Result<(), VcsError> {
    if repo.head_commit()?.is_none() {
        return Ok(());
    }
    let git = repo.git();
    let mut walk = git.revwalk()?;
    walk.set_sorting(Sort::TOPOLOGICAL | Sort::TIME)?;
    walk.push_head()?;
    let held = |commit: &Commit<'_>| -> Result<Option<Oid>, VcsError> {
        let tree = commit.tree()?;
        Ok(match path {
            Some(path) => repo.blob_in(&tree, path),
            None => repo.vault_in(&tree),
        })
    };
    for id in walk {
        let commit = git.find_commit(id?)?;
        let here = held(&commit)?;
        let changed = if commit.parent_count() == 0 {
            here.is_some()
        } else {
            let mut differs = true;
            for parent in commit.parents() {
                if held(&parent)? == here {
                    differs = false;
                    break;
                }
            }
            differs
        };
        let version = path.and(here);
        if changed && !visit(&commit, version) {
            break;
        }
    }
    Ok(())
}

/// The log entry of `commit`.
fn entry(commit: &Commit<'_>, version: Option<Oid>) -> LogEntry {
    let author = commit.author();
    LogEntry {
        hash: Some(commit.id().to_string()),
        version: version.map(|id| id.to_string()),
        date: rfc3339(author.when()),
        author: String::from_utf8_lossy(author.name_bytes()).into_owned(),
        message: String::from_utf8_lossy(commit.message_bytes())
            .trim_end()
            .chars()
            .take(MAX_MESSAGE_CHARS)
            .collect(),
    }
}

/// A git time as RFC 3339 with its own offset.
fn rfc3339(time: Time) -> String {
    let offset = chrono::FixedOffset::east_opt(time.offset_minutes() * 60)
        .unwrap_or_else(|| chrono::Utc.fix());
    chrono::DateTime::from_timestamp(time.seconds(), 0)
        .map(|utc| utc.with_timezone(&offset).to_rfc3339())
        .unwrap_or_default()
}
