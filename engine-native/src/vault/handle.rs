//! The handle on one vault: its canonical root and the options every operation honours.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use super::error::VaultError;
use super::queue::NoteQueue;
use super::resolve::{Resolved, resolve};

/// Options of a vault handle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VaultOptions {
    /// Refuse regular files with more than one hard link (on when an ACL is in force).
    pub hard_link_guard: bool,
}

/// One vault on disk. Mutations through the same handle are serialized, so a precondition
/// check and the change it guards are not interleaved with another change from this process.
#[derive(Debug)]
pub struct Vault {
    root: PathBuf,
    options: VaultOptions,
    mutation: Mutex<()>,
    notes: Arc<NoteQueue>,
}

impl Vault {
    /// Opens the vault whose folder is `root` (canonicalized here; it must be a folder).
    pub fn open(root: &Path, options: VaultOptions) -> Result<Vault, VaultError> {
        let shown = root.display().to_string();
        let root = root.canonicalize().map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => VaultError::NotFound {
                path: shown.clone(),
            },
            _ => VaultError::io(&shown, error),
        })?;
        if !root.is_dir() {
            return Err(VaultError::NotADirectory { path: shown });
        }
        Ok(Vault {
            root,
            options,
            mutation: Mutex::new(()),
            notes: Arc::default(),
        })
    }

    /// The canonical absolute path of the vault folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The options this handle was opened with.
    pub fn options(&self) -> VaultOptions {
        self.options
    }

    /// Resolves a requested path inside this vault.
    pub(crate) fn resolve(&self, path: &str) -> Result<Resolved, VaultError> {
        resolve(&self.root, path)
    }

    /// The per-note write queue of this vault (see [`super::queue`]).
    pub(super) fn note_queue(&self) -> &Arc<NoteQueue> {
        &self.notes
    }

    /// Holds off other mutations through this handle while the guard lives.
    pub(crate) fn lock_mutations(&self) -> MutexGuard<'_, ()> {
        // The guarded value is `()`: a panic elsewhere cannot leave it inconsistent.
        self.mutation
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
