//! [`VaultRepo`]: the git repository holding a vault folder, found from the vault upward,
//! and the mapping between vault-relative and repository-relative paths.

use std::fs::Metadata;
use std::path::{Component, Path, PathBuf};

use git2::{Commit, ErrorCode, Oid, Repository, RepositoryOpenFlags, Tree};

use crate::vcs::error::VcsError;

/// The longest `HEAD~n` accepted (a commit further back is named by its hash).
const MAX_ANCESTRY: u32 = 10_000;

/// The repository of one vault: the vault folder is its working tree or a folder of it.
pub struct VaultRepo {
    repo: Repository,
    /// The vault folder inside the working tree, `/`-separated with a trailing `/`; empty
    /// when the vault is the whole working tree.
    prefix: String,
    /// The working tree's folder.
    workdir: PathBuf,
}

impl VaultRepo {
    /// Opens the repository holding `vault_root` (discovered from it upward, ignoring
    /// `GIT_DIR` and the other environment variables of the git CLI).
    pub fn open(vault_root: &Path) -> Result<VaultRepo, VcsError> {
        let no_ceiling: [&Path; 0] = [];
        let repo = Repository::open_ext(vault_root, RepositoryOpenFlags::empty(), no_ceiling)
            .map_err(|error| match error.code() {
                ErrorCode::NotFound => VcsError::NotARepository,
                _ => VcsError::from(error),
            })?;
        let workdir = repo.workdir().ok_or(VcsError::NoWorkingTree)?;
        let workdir = dunce::canonicalize(workdir).map_err(|_| VcsError::NoWorkingTree)?;
        let root = dunce::canonicalize(vault_root).map_err(|_| VcsError::NoWorkingTree)?;
        let inside = root
            .strip_prefix(&workdir)
            .map_err(|_| VcsError::NoWorkingTree)?;
        let mut prefix = String::new();
        for component in inside.components() {
            match component {
                Component::Normal(name) if name != ".git" => {
                    prefix.push_str(name.to_str().ok_or(VcsError::NoWorkingTree)?);
                    prefix.push('/');
                }
                _ => return Err(VcsError::NoWorkingTree),
            }
        }
        Ok(VaultRepo {
            repo,
            prefix,
            workdir,
        })
    }

    /// The library's repository handle.
    pub(super) fn git(&self) -> &Repository {
        &self.repo
    }

    /// The repository's index as it is on disk now (re-read: another program, or an earlier
    /// call through this handle, may have written it since it was loaded).
    pub(super) fn index(&self) -> Result<git2::Index, VcsError> {
        let mut index = self.repo.index()?;
        index.read(false)?;
        Ok(index)
    }

    /// The vault folder in the working tree (`""` or `dir/sub/`).
    pub(super) fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The repository path of a vault path.
    pub(super) fn repo_path(&self, vault_path: &str) -> String {
        format!("{}{vault_path}", self.prefix)
    }

    /// The vault path of a repository path, or `None` when it is outside the vault.
    pub(super) fn vault_path<'a>(&self, repo_path: &'a str) -> Option<&'a str> {
        repo_path
            .strip_prefix(&self.prefix)
            .filter(|rest| !rest.is_empty())
    }

    /// The metadata of a vault path in the working tree (not following a final symbolic
    /// link), `None` when nothing is there. A path whose folders include a symbolic link
    /// is refused: git does not follow one, and neither does this module.
    pub(super) fn workdir_entry(&self, vault_path: &str) -> Result<Option<Metadata>, VcsError> {
        let mut at = self.workdir.join(self.prefix.trim_end_matches('/'));
        let mut segments = vault_path.split('/').peekable();
        while let Some(segment) = segments.next() {
            at.push(segment);
            let Ok(meta) = std::fs::symlink_metadata(&at) else {
                return Ok(None);
            };
            if segments.peek().is_none() {
                return Ok(Some(meta));
            }
            if meta.file_type().is_symlink() {
                return Err(VcsError::BeyondSymlink {
                    path: vault_path.to_owned(),
                });
            }
        }
        Ok(None)
    }

    /// HEAD's commit, `None` on a branch without commits yet.
    pub(super) fn head_commit(&self) -> Result<Option<Commit<'_>>, VcsError> {
        match self.repo.head() {
            Ok(head) => Ok(Some(head.peel_to_commit()?)),
            Err(error) if matches!(error.code(), ErrorCode::UnbornBranch | ErrorCode::NotFound) => {
                Ok(None)
            }
            Err(error) => Err(error.into()),
        }
    }

    /// HEAD's tree, `None` before the first commit.
    pub(super) fn head_tree(&self) -> Result<Option<Tree<'_>>, VcsError> {
        Ok(match self.head_commit()? {
            Some(commit) => Some(commit.tree()?),
            None => None,
        })
    }

    /// The branch HEAD is on (also before its first commit), `None` when detached.
    pub fn branch(&self) -> Option<String> {
        let head = self.repo.find_reference("HEAD").ok()?;
        let target = head.symbolic_target().ok()??;
        Some(
            target
                .strip_prefix("refs/heads/")
                .unwrap_or(target)
                .to_owned(),
        )
    }

    /// The commit `name` names: `HEAD`, `HEAD~n` (first parents), or a hash of 4 to 40 hex
    /// digits. Nothing else is accepted (no revision syntax that searches the repository).
    pub(super) fn commit(&self, name: &str) -> Result<Commit<'_>, VcsError> {
        let unknown = || VcsError::UnknownCommit {
            name: name.chars().take(64).collect(),
        };
        if let Some(back) = name.strip_prefix("HEAD") {
            let steps = match back.strip_prefix('~') {
                None if back.is_empty() => 0,
                Some(digits) if !digits.is_empty() && digits.len() <= 5 => {
                    digits.parse::<u32>().map_err(|_| unknown())?
                }
                _ => return Err(unknown()),
            };
            if steps > MAX_ANCESTRY {
                return Err(unknown());
            }
            let mut commit = self.head_commit()?.ok_or_else(unknown)?;
            for _ in 0..steps {
                commit = commit.parent(0).map_err(|_| unknown())?;
            }
            return Ok(commit);
        }
        if !(4..=40).contains(&name.len()) || !name.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(unknown());
        }
        let object = self
            .repo
            .find_object_by_prefix(name, None)
            .map_err(|_| unknown())?;
        object.peel_to_commit().map_err(|_| unknown())
    }

    /// The id of the file at vault path `vault_path` in `tree` (`None` when absent or a
    /// folder).
    pub(super) fn blob_in(&self, tree: &Tree<'_>, vault_path: &str) -> Option<Oid> {
        let entry = tree.get_path(Path::new(&self.repo_path(vault_path))).ok()?;
        (entry.kind() == Some(git2::ObjectType::Blob)).then(|| entry.id())
    }

    /// The id of what the vault holds in `tree` (its whole tree, or its folder's); `None`
    /// when the folder is absent.
    pub(super) fn vault_in(&self, tree: &Tree<'_>) -> Option<Oid> {
        if self.prefix.is_empty() {
            return Some(tree.id());
        }
        let folder = Path::new(self.prefix.trim_end_matches('/'));
        tree.get_path(folder).ok().map(|entry| entry.id())
    }
}
