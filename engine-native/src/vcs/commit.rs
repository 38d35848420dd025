//! Committing what is staged in the vault folder. The commit is refused when files outside
//! the vault are staged too (someone else's work: the server never commits it), when the
//! index has conflicts, or when nothing of the vault is staged. libgit2 runs no hooks.

use git2::Signature;

use crate::vcs::error::VcsError;
use crate::vcs::repo::VaultRepo;

/// The identity a commit is made with when the repository's configuration names none.
const FALLBACK_NAME: &str = "obsidian-tc";
/// The e-mail of [`FALLBACK_NAME`].
const FALLBACK_EMAIL: &str = "obsidian-tc@localhost";

/// A commit made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Committed {
    /// Its hash.
    pub hash: String,
    /// How many vault files it records changes of.
    pub files: usize,
}

/// How many vault files are staged, when a commit of the index may be made now (see the
/// module's refusals).
pub fn commit_ready(repo: &VaultRepo) -> Result<usize, VcsError> {
    let git = repo.git();
    let index = repo.index()?;
    if index.has_conflicts() {
        return Err(VcsError::Conflicted);
    }
    let head = repo.head_tree()?;
    let diff = git.diff_tree_to_index(head.as_ref(), Some(&index), None)?;
    let (mut inside, mut outside) = (0, 0);
    for delta in diff.deltas() {
        let path = delta.new_file().path().or_else(|| delta.old_file().path());
        match path
            .and_then(|p| p.to_str())
            .and_then(|p| repo.vault_path(p))
        {
            Some(_) => inside += 1,
            None => outside += 1,
        }
    }
    if outside > 0 {
        return Err(VcsError::StagedOutsideVault { count: outside });
    }
    if inside == 0 {
        return Err(VcsError::NothingToCommit);
    }
    Ok(inside)
}

/// Commits the index on HEAD's branch with `message`, as the repository's configured
/// author (or `obsidian-tc <obsidian-tc@localhost>`), after [`commit_ready`] again.
pub fn commit(repo: &VaultRepo, message: &str) -> Result<Committed, VcsError> {
    let files = commit_ready(repo)?;
    let git = repo.git();
    let tree = git.find_tree(repo.index()?.write_tree()?)?;
    let signature = match git.signature() {
        Ok(signature) => signature,
        Err(_) => Signature::now(FALLBACK_NAME, FALLBACK_EMAIL)?,
    };
    let parent = repo.head_commit()?;
    let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
    let message = format!("{}\n", message.trim_end());
    let id = git.commit(
        Some("HEAD"),
        &signature,
        &signature,
        &message,
        &tree,
        &parents,
    )?;
    Ok(Committed {
        hash: id.to_string(),
        files,
    })
}
