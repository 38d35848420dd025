//! [`VcsError`]: why a git operation on a vault's repository failed.

use std::fmt;

/// A failed git operation. Messages name vault-relative paths only, never a path of the
/// repository outside the vault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VcsError {
    /// No git repository holds the vault folder (none found from the vault upward).
    NotARepository,
    /// The repository has no working tree (a bare repository), or the vault is not in it.
    NoWorkingTree,
    /// libgit2 refused a repository owned by another user (git's `safe.directory` check).
    UnsafeOwner,
    /// A vault path is not in the repository's working tree, the index or the commit.
    PathNotFound {
        /// The vault-relative path.
        path: String,
    },
    /// A vault path names a folder where a file is needed.
    NotAFile {
        /// The vault-relative path.
        path: String,
    },
    /// A vault path lies beyond a symbolic link (git never follows one for a path in it).
    BeyondSymlink {
        /// The vault-relative path.
        path: String,
    },
    /// A file the repository's ignore rules exclude (git refuses to stage it without force).
    Ignored {
        /// The vault-relative path.
        path: String,
    },
    /// A commit name that is not one this module accepts, or names no commit.
    UnknownCommit {
        /// The name as given.
        name: String,
    },
    /// A version id that is not a version of the path in the history of HEAD.
    UnknownVersion {
        /// The id as given.
        version: String,
        /// The vault-relative path.
        path: String,
    },
    /// Files outside the vault folder are staged in the repository: a commit would take them.
    StagedOutsideVault {
        /// How many (their names are not shown: they are outside the vault).
        count: usize,
    },
    /// The index holds conflicts (a merge in progress).
    Conflicted,
    /// Nothing in the vault folder is staged.
    NothingToCommit,
    /// Any other failure of the git library (a corrupt object, a locked index...).
    Git {
        /// What the library said.
        message: String,
    },
}

impl VcsError {
    /// The short machine-readable reason (`details.reason` of the tool error).
    pub fn reason(&self) -> &'static str {
        match self {
            VcsError::NotARepository => "not_a_repository",
            VcsError::NoWorkingTree => "no_working_tree",
            VcsError::UnsafeOwner => "unsafe_owner",
            VcsError::PathNotFound { .. } => "path_not_found",
            VcsError::NotAFile { .. } => "not_a_file",
            VcsError::BeyondSymlink { .. } => "beyond_symlink",
            VcsError::Ignored { .. } => "ignored",
            VcsError::UnknownCommit { .. } => "unknown_commit",
            VcsError::UnknownVersion { .. } => "unknown_version",
            VcsError::StagedOutsideVault { .. } => "staged_outside_vault",
            VcsError::Conflicted => "conflicted",
            VcsError::NothingToCommit => "nothing_to_commit",
            VcsError::Git { .. } => "git",
        }
    }
}

impl fmt::Display for VcsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VcsError::NotARepository => write!(
                f,
                "the vault folder is not in a git repository (none found from the vault folder upward); run `git init` in the vault folder first"
            ),
            VcsError::NoWorkingTree => write!(
                f,
                "the vault's git repository has no working tree holding the vault folder (a bare repository)"
            ),
            VcsError::UnsafeOwner => write!(
                f,
                "the vault's git repository is owned by another user; the server's user must own it or list it in git's safe.directory"
            ),
            VcsError::PathNotFound { path } => {
                write!(
                    f,
                    "'{path}' is neither in the vault's working tree nor in git"
                )
            }
            VcsError::NotAFile { path } => write!(f, "'{path}' is a folder; name one file"),
            VcsError::BeyondSymlink { path } => {
                write!(
                    f,
                    "'{path}' lies beyond a symbolic link; git does not follow it"
                )
            }
            VcsError::Ignored { path } => write!(
                f,
                "'{path}' is excluded by the repository's ignore rules (.gitignore); it is not staged"
            ),
            VcsError::UnknownCommit { name } => write!(
                f,
                "'{name}' names no commit: give HEAD, HEAD~n or a commit hash (4 to 40 hex digits) from git_log"
            ),
            VcsError::UnknownVersion { version, path } => write!(
                f,
                "'{version}' is not a version of '{path}' in the history of HEAD; take one from git_log with this path"
            ),
            VcsError::StagedOutsideVault { count } => write!(
                f,
                "{count} file(s) outside the vault folder are staged in the repository; a commit would include them, so nothing was committed. Commit or unstage them with git outside the server (`git restore --staged <path>`), then call again"
            ),
            VcsError::Conflicted => write!(
                f,
                "the repository's index has conflicts (a merge in progress); resolve them with git first"
            ),
            VcsError::NothingToCommit => write!(
                f,
                "nothing in the vault is staged; stage files with git_stage first"
            ),
            VcsError::Git { message } => write!(f, "git failed: {message}"),
        }
    }
}

impl std::error::Error for VcsError {}

impl From<git2::Error> for VcsError {
    fn from(error: git2::Error) -> VcsError {
        match error.code() {
            git2::ErrorCode::Owner => VcsError::UnsafeOwner,
            _ => VcsError::Git {
                message: error.message().to_owned(),
            },
        }
    }
}
