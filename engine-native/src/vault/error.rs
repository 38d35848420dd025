//! The typed errors of the vault backend, each with a stable code the dispatch maps to a
//! tool error.

use std::fmt;
use std::io;

use engine_core::acl::PathError;

/// Why a vault operation was refused or failed. Every refusal leaves the vault unchanged.
#[derive(Debug)]
pub enum VaultError {
    /// The path is not a valid vault-relative path (engine-core's lexical reason).
    PathInvalid {
        /// The path as requested.
        path: String,
        /// The first rule the path breaks.
        reason: PathError,
    },
    /// The path is in a control directory (`.obsidian`, `.git`, `.trash`, …) that no
    /// configuration can open; the dispatch reports it as `acl_denied`.
    HardDeny {
        /// The vault-relative path that was refused (after resolving symlinks).
        path: String,
    },
    /// Nothing exists at the path.
    NotFound {
        /// The vault-relative path.
        path: String,
    },
    /// The destination exists and overwriting was not asked for.
    AlreadyExists {
        /// The vault-relative path of the existing file.
        path: String,
    },
    /// The file's current content is not the one the caller read (`expected_sha256`).
    ConcurrentModification {
        /// The vault-relative path.
        path: String,
        /// The SHA-256 the caller expected.
        expected: String,
        /// The SHA-256 found, or `None` when the file no longer exists.
        actual: Option<String>,
    },
    /// The path names a folder where a file is needed.
    IsDirectory {
        /// The vault-relative path.
        path: String,
    },
    /// A segment before the last names a file, so the path cannot lead anywhere.
    NotADirectory {
        /// The vault-relative path.
        path: String,
    },
    /// The path names something that is neither a file nor a folder (a FIFO, a socket, a
    /// device), which the vault never opens.
    NotRegularFile {
        /// The vault-relative path.
        path: String,
    },
    /// A symlink on the path leads outside the vault, or leads nowhere.
    EscapesVault {
        /// The vault-relative path as requested.
        path: String,
    },
    /// The path reaches a file or folder under another name (an 8.3 short name such as
    /// `PRIVAT~1`, or a link inside the vault), which the ACL did not judge: refused on Windows.
    Alias {
        /// The vault-relative path as requested.
        path: String,
        /// The vault-relative path it reaches.
        actual: String,
    },
    /// The file has more than one hard link while an ACL is in force: another name for the
    /// same bytes could sit outside what the ACL allows.
    HardLink {
        /// The vault-relative path.
        path: String,
        /// The file's link count.
        links: u64,
    },
    /// The file is not UTF-8 text.
    NotText {
        /// The vault-relative path.
        path: String,
    },
    /// An Obsidian settings file (`.obsidian/*.json`) the server reads is not valid.
    BadSettings {
        /// The vault-relative path of the settings file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Another program held the file open without sharing it for longer than the vault waits
    /// (Windows: an antivirus scanner, a sync client, an indexer); nothing was changed.
    Busy {
        /// The vault-relative path.
        path: String,
    },
    /// A change to a served vault from a thread that runs no tool call (a handler that wrote
    /// from a thread of its own): refused before anything changed, because the undo journal
    /// and the write queue follow the thread of the call (see `vault::journal`).
    OutsideCall {
        /// The vault-relative path the change named.
        path: String,
    },
    /// The operating system refused an operation.
    Io {
        /// The vault-relative path involved.
        path: String,
        /// The OS error.
        source: io::Error,
    },
}

impl VaultError {
    /// The stable snake_case code of the error.
    pub fn code(&self) -> &'static str {
        match self {
            VaultError::PathInvalid { .. } => "path_invalid",
            VaultError::HardDeny { .. } => "hard_deny",
            VaultError::NotFound { .. } => "not_found",
            VaultError::AlreadyExists { .. } => "already_exists",
            VaultError::ConcurrentModification { .. } => "concurrent_modification",
            VaultError::IsDirectory { .. } => "is_directory",
            VaultError::NotADirectory { .. } => "not_a_directory",
            VaultError::NotRegularFile { .. } => "not_regular_file",
            VaultError::EscapesVault { .. } => "escapes_vault",
            VaultError::Alias { .. } => "alias",
            VaultError::HardLink { .. } => "hard_link",
            VaultError::NotText { .. } => "not_text",
            VaultError::BadSettings { .. } => "bad_settings",
            VaultError::Busy { .. } => "busy",
            VaultError::OutsideCall { .. } => "outside_call",
            VaultError::Io { .. } => "io",
        }
    }

    /// An [`VaultError::Io`] for `path`, or [`VaultError::Busy`] when another program held
    /// the file (after the waits of `vault::os::retry_busy`).
    pub(crate) fn io(path: &str, source: io::Error) -> VaultError {
        let path = path.to_owned();
        if super::os::is_busy(&source) {
            VaultError::Busy { path }
        } else {
            VaultError::Io { path, source }
        }
    }
}

impl fmt::Display for VaultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VaultError::PathInvalid { path, reason } => write!(
                f,
                "path {path:?} is not a valid vault-relative path ({reason}); use a relative path with '/' separators and no '.' or '..' segments"
            ),
            VaultError::HardDeny { path } => write!(
                f,
                "path {path:?} is in a protected control folder (.obsidian, .git, .trash); choose a path outside it"
            ),
            VaultError::NotFound { path } => {
                write!(
                    f,
                    "nothing exists at {path:?}; list the folder to find the right path"
                )
            }
            VaultError::AlreadyExists { path } => write!(
                f,
                "{path:?} already exists; choose another path or ask to overwrite"
            ),
            VaultError::ConcurrentModification {
                path,
                expected,
                actual,
            } => match actual {
                Some(actual) => write!(
                    f,
                    "{path:?} changed since it was read (expected sha256 {expected}, found {actual}); read it again and retry"
                ),
                None => write!(
                    f,
                    "{path:?} no longer exists (expected sha256 {expected}); read it again and retry"
                ),
            },
            VaultError::IsDirectory { path } => {
                write!(f, "{path:?} is a folder; give the path of a file")
            }
            VaultError::NotADirectory { path } => write!(
                f,
                "a segment of {path:?} is a file, not a folder; fix the folder part of the path"
            ),
            VaultError::NotRegularFile { path } => write!(
                f,
                "{path:?} is not a regular file (a device, FIFO or socket) and is never opened"
            ),
            VaultError::EscapesVault { path } => write!(
                f,
                "{path:?} goes through a symlink that leads outside the vault or nowhere; use a path inside the vault"
            ),
            VaultError::Alias { path, actual } => write!(
                f,
                "{path:?} reaches {actual:?} under another name (a short name or a link); use the file's own path"
            ),
            VaultError::HardLink { path, links } => write!(
                f,
                "{path:?} has {links} hard links and an ACL is in force; replace the hard link with a plain copy"
            ),
            VaultError::NotText { path } => write!(f, "{path:?} is not UTF-8 text"),
            VaultError::BadSettings { path, reason } => write!(
                f,
                "Obsidian's settings file {path:?} cannot be used ({reason}); fix or reset that setting in Obsidian"
            ),
            VaultError::Busy { path } => write!(
                f,
                "{path:?} is held open by another program (an antivirus scanner, a sync client or an indexer); nothing was changed, retry in a few seconds"
            ),
            VaultError::OutsideCall { path } => write!(
                f,
                "the change to {path:?} ran outside the tool call's thread and was refused (nothing changed); change the vault from the handler's own thread, where the undo journal and the write queue see it"
            ),
            VaultError::Io { path, source } => write!(f, "file system error on {path:?}: {source}"),
        }
    }
}

impl std::error::Error for VaultError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VaultError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
