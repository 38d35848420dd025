//! A vault file's content as git recorded it: at a commit, or a version (content id) that
//! its history lists.

use git2::Oid;

use crate::vcs::error::VcsError;
use crate::vcs::log::walk;
use crate::vcs::repo::VaultRepo;

/// Which recorded content of a file to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At<'a> {
    /// What a commit holds (`HEAD`, `HEAD~n` or a hash).
    Commit(&'a str),
    /// A content id the file's history lists (`version` of a `git_log` entry).
    Version(&'a str),
}

/// A file's recorded content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// The content id (the `version`).
    pub version: String,
    /// The commit's hash, when read at a commit.
    pub commit: Option<String>,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// The content of the file `vault_path` at `at`. A version is accepted only when some
/// commit of HEAD's history holds it at this very path, so an id cannot reach any other
/// file of the repository.
pub fn show(repo: &VaultRepo, vault_path: &str, at: At<'_>) -> Result<Recorded, VcsError> {
    let (version, commit) = match at {
        At::Commit(name) => {
            let commit = repo.commit(name)?;
            let tree = commit.tree()?;
            let id = repo
                .blob_in(&tree, vault_path)
                .ok_or_else(|| VcsError::PathNotFound {
                    path: vault_path.to_owned(),
                })?;
            (id, Some(commit.id().to_string()))
        }
        At::Version(text) => (listed_version(repo, vault_path, text)?, None),
    };
    let blob = repo.git().find_blob(version)?;
    Ok(Recorded {
        version: version.to_string(),
        commit,
        bytes: blob.content().to_vec(),
    })
}

/// The content id `text` when the history of `vault_path` lists it.
fn listed_version(repo: &VaultRepo, vault_path: &str, text: &str) -> Result<Oid, VcsError> {
    let unknown = || VcsError::UnknownVersion {
        version: text.chars().take(64).collect(),
        path: vault_path.to_owned(),
    };
    let wanted = Oid::from_str(text)
        .ok()
        .filter(|_| text.len() == 40)
        .ok_or_else(unknown)?;
    let mut found = false;
    walk(repo, Some(vault_path), &mut |_, version| {
        found = version == Some(wanted);
        !found
    })?;
    found.then_some(wanted).ok_or_else(unknown)
}
