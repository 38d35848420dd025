//! Why `setup` changed nothing.

use std::fmt;
use std::io;
use std::path::PathBuf;

use super::malformed::Malformed;
use crate::cli::{EXIT_FAILURE, EXIT_USAGE};

/// A refusal or failure of `setup`; in every case the configuration file is as it was.
#[derive(Debug)]
pub enum SetupError {
    /// `--vault` is not an existing folder.
    Vault {
        /// The path as given.
        path: PathBuf,
        /// Why (the operating system's message, or "not a folder").
        reason: String,
    },
    /// `--name` has characters a server name cannot have.
    Name(String),
    /// A path the entry needs is not UTF-8, so JSON and TOML cannot hold it.
    NotUtf8Path {
        /// Which path.
        what: &'static str,
        /// The path.
        path: PathBuf,
    },
    /// The running executable's path is unknown.
    Executable(io::Error),
    /// A folder the default location is under is unknown (its variable is unset or empty):
    /// the home folder (`HOME`; `USERPROFILE` on Windows) or, on Windows, `APPDATA`.
    NoFolder {
        /// The variable that names the folder.
        variable: &'static str,
    },
    /// The configuration file cannot be edited safely.
    Malformed {
        /// The file.
        path: PathBuf,
        /// Where and why.
        malformed: Malformed,
    },
    /// The configuration path names something that is not a file.
    NotAFile(PathBuf),
    /// The file changed while it was being edited (the client saved it meanwhile).
    ChangedMeanwhile(PathBuf),
    /// Reading or writing failed.
    Io {
        /// What was being done, e.g. `read`.
        action: &'static str,
        /// The path.
        path: PathBuf,
        /// The operating system's error.
        error: io::Error,
    },
}

impl SetupError {
    /// [`EXIT_FAILURE`] when reading or writing failed, [`EXIT_USAGE`] for a refused request
    /// or file.
    pub fn exit_code(&self) -> u8 {
        match self {
            SetupError::Executable(_) | SetupError::Io { .. } | SetupError::ChangedMeanwhile(_) => {
                EXIT_FAILURE
            }
            _ => EXIT_USAGE,
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Vault { path, reason } => write!(
                f,
                "--vault {}: {reason}; nothing was changed.\nhint: pass the vault's folder (the \
                 one Obsidian opens)",
                path.display()
            ),
            SetupError::Name(name) => write!(
                f,
                "--name {name:?}: use ASCII letters, digits, '-' and '_' only (the entry is \
                 named obsidian-tc-<name>); nothing was changed"
            ),
            SetupError::NotUtf8Path { what, path } => write!(
                f,
                "{what} {} is not UTF-8, which a configuration file cannot hold; nothing was \
                 changed",
                path.display()
            ),
            SetupError::Executable(error) => write!(
                f,
                "cannot find this executable's path ({error}); nothing was changed.\nhint: run \
                 it with --print and write the entry yourself"
            ),
            SetupError::NoFolder { variable } => write!(
                f,
                "{variable} is not set, so the client's configuration file is unknown; nothing \
                 was changed.\nhint: pass the file with --config-path"
            ),
            SetupError::Malformed { path, malformed } => write!(
                f,
                "{}:{}:{}: {}; nothing was changed.\nhint: fix the file (or move it away) and \
                 run this again",
                path.display(),
                malformed.line,
                malformed.column,
                malformed.problem
            ),
            SetupError::NotAFile(path) => write!(
                f,
                "{} is not a file; nothing was changed.\nhint: pass the configuration file \
                 itself with --config-path",
                path.display()
            ),
            SetupError::ChangedMeanwhile(path) => write!(
                f,
                "{} changed while it was being edited (did the client save it?); nothing was \
                 changed.\nhint: run this again",
                path.display()
            ),
            SetupError::Io {
                action,
                path,
                error,
            } => write!(
                f,
                "cannot {action} {} ({error}); the file is as it was",
                path.display()
            ),
        }
    }
}

impl std::error::Error for SetupError {}
