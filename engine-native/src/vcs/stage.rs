//! Staging vault files: `git add` of a file present in the working tree, `git rm --cached`
//! of one that is gone. All the paths are checked before the index changes.

use std::path::Path;

use crate::vcs::error::VcsError;
use crate::vcs::repo::VaultRepo;

/// Stages each vault path of `paths` (duplicates once) and writes the index: returns how
/// many were staged. Nothing is staged when one path is a folder, absent from both the
/// working tree and the index, beyond a symbolic link, or ignored and untracked.
pub fn stage(repo: &VaultRepo, paths: &[String]) -> Result<usize, VcsError> {
    let git = repo.git();
    let mut index = repo.index()?;
    let mut plan: Vec<(String, bool)> = Vec::new();
    for path in paths {
        let repo_path = repo.repo_path(path);
        if plan.iter().any(|(seen, _)| *seen == repo_path) {
            continue;
        }
        let in_path = Path::new(&repo_path);
        let tracked = index.get_path(in_path, 0).is_some() || has_conflict(&index, &repo_path);
        let present = match repo.workdir_entry(path)? {
            Some(meta) if meta.is_dir() => {
                return Err(VcsError::NotAFile { path: path.clone() });
            }
            Some(_) if !tracked && git.is_path_ignored(in_path)? => {
                return Err(VcsError::Ignored { path: path.clone() });
            }
            Some(_) => true,
            None if tracked => false,
            None => return Err(VcsError::PathNotFound { path: path.clone() }),
        };
        plan.push((repo_path, present));
    }
    for (repo_path, present) in &plan {
        if *present {
            index.add_path(Path::new(repo_path))?;
        } else {
            index.remove_path(Path::new(repo_path))?;
        }
    }
    index.write()?;
    Ok(plan.len())
}

/// Whether the index holds a conflict (stages 1 to 3) for `repo_path`.
fn has_conflict(index: &git2::Index, repo_path: &str) -> bool {
    (1..=3).any(|stage| index.get_path(Path::new(repo_path), stage).is_some())
}
