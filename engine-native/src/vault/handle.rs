//! The handle on one vault: its canonical root and the options every operation honours.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::error::VaultError;
use super::lock::ProcessLocks;
use super::queue::NoteQueue;
use super::resolve::{Resolved, resolve};

/// Options of a vault handle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VaultOptions {
    /// Refuse regular files with more than one hard link (on when an ACL is in force).
    pub hard_link_guard: bool,
    /// Changes only inside a tool call, on the thread that runs it: a change from any other
    /// thread is refused ([`VaultError::OutsideCall`]), so the undo journal and the write
    /// queue, which follow the call's thread, never miss one. On for every served vault.
    pub calls_only: bool,
}

/// One vault on disk. Mutations are serialized, through this handle and across processes (see
/// `vault::lock`), so a precondition check and the change it guards are never interleaved
/// with another change by obsidian-tc.
#[derive(Debug)]
pub struct Vault {
    root: PathBuf,
    options: VaultOptions,
    /// The in-process half of the commit lock, holding the open lock file of the other half.
    mutation: Mutex<Option<File>>,
    notes: Arc<NoteQueue>,
    locks: Arc<ProcessLocks>,
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
            locks: Arc::new(ProcessLocks::new(&root)),
            root,
            options,
            mutation: Mutex::new(None),
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

    /// The cross-process locks of this vault (see `vault::lock`).
    pub(super) fn process_locks(&self) -> &Arc<ProcessLocks> {
        &self.locks
    }

    /// Holds off other mutations of this vault, by this process only, while the guard lives.
    pub(super) fn lock_in_process(&self) -> MutexGuard<'_, Option<File>> {
        // The guarded value is the lock file, opened once: a panic cannot leave it inconsistent.
        self.mutation.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Holds off other mutations of this vault, by this process and by every other obsidian-tc
    /// process, while the guard lives: the commit lock of `vault::lock`.
    /// Refuses with [`VaultError::OutsideCall`] when the handle takes changes only inside a
    /// call ([`VaultOptions::calls_only`]) and no call of this vault records on this thread;
    /// `rel` names the change.
    pub(crate) fn lock_mutations(&self, rel: &str) -> Result<CommitGuard<'_>, VaultError> {
        if self.options.calls_only && !self.recording_here() {
            return Err(VaultError::OutsideCall {
                path: rel.to_owned(),
            });
        }
        let mut held = self.lock_in_process();
        let failed = |error| VaultError::io(super::lock::LOCK_DIR.join("/").as_str(), error);
        if held.is_none() {
            *held = Some(self.locks.open("commit.lock").map_err(failed)?);
        }
        if let Some(file) = held.as_ref() {
            file.lock().map_err(failed)?;
        }
        Ok(CommitGuard { held })
    }
}

/// The commit lock, held until dropped.
pub(crate) struct CommitGuard<'a> {
    held: MutexGuard<'a, Option<File>>,
}

impl Drop for CommitGuard<'_> {
    fn drop(&mut self) {
        if let Some(file) = self.held.as_ref() {
            // An unlock that fails leaves the lock to the file's closing at exit: nothing to add.
            let _ = file.unlock();
        }
    }
}
