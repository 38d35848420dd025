//! What a tool call changes, recorded where every change happens: while a call runs inside
//! [`record`], each mutation of a vault file first remembers that file's content as it was
//! before the call touched it (once per file, however many times it changes), so dispatch
//! can keep a snapshot and the change can be listed and undone. Handlers cannot forget to
//! snapshot: every write, move, copy and delete of [`Vault`] goes through here.
//!
//! The recording belongs to the thread running the call (a handler runs on one thread) and
//! to one vault (a call is bound to one), so concurrent calls never see each other's files.
//! A served vault ([`super::VaultOptions::calls_only`]) refuses a change made from any other
//! thread ([`super::VaultError::OutsideCall`]) rather than let it escape the recording, and
//! the write queue ([`super::queue`]), which follows the same thread.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use super::handle::Vault;
use super::queue::Access;
use super::resolve::Resolved;

/// The largest file whose content a snapshot keeps (16 MiB); a larger one is recorded as
/// changed but cannot be restored.
pub const MAX_SNAPSHOT_BYTES: u64 = 16 * 1024 * 1024;

/// A file as it was before the recorded call first changed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Before {
    /// The canonical vault-relative path.
    pub path: String,
    /// What was there.
    pub state: BeforeState,
}

/// What a path held before the change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BeforeState {
    /// No file.
    Absent,
    /// A file with these bytes.
    Content(Vec<u8>),
    /// A file whose bytes were not kept: larger than [`MAX_SNAPSHOT_BYTES`], or unreadable.
    NotKept,
}

/// The recording of the call running on this thread.
struct Recording {
    root: PathBuf,
    befores: Vec<Before>,
}

thread_local! {
    static RECORDING: RefCell<Option<Recording>> = const { RefCell::new(None) };
}

/// Runs `call` while recording the changes it makes to `vault`; returns its result and the
/// files it touched, each as it was before, in the order they were first touched. A
/// recording already running on this thread (a call nested in another) is kept: the inner
/// call's changes belong to the outer one.
pub fn record<T>(vault: &Vault, call: impl FnOnce() -> T) -> (T, Vec<Before>) {
    let nested = RECORDING.with(|slot| slot.borrow().is_some());
    if nested {
        return (call(), Vec::new());
    }
    RECORDING.with(|slot| {
        *slot.borrow_mut() = Some(Recording {
            root: vault.root().to_path_buf(),
            befores: Vec::new(),
        });
    });
    // Taken back even when `call` panics, so the thread's next call starts clean.
    let guard = Finish;
    let value = call();
    drop(guard);
    let befores = RECORDING.with(|slot| slot.borrow_mut().take());
    (value, befores.map(|r| r.befores).unwrap_or_default())
}

/// Ends the recording when dropped.
struct Finish;

impl Drop for Finish {
    fn drop(&mut self) {
        if std::thread::panicking() {
            RECORDING.with(|slot| slot.borrow_mut().take());
        }
    }
}

impl Vault {
    /// Whether a call recording this vault runs on this thread.
    pub(super) fn recording_here(&self) -> bool {
        RECORDING.with(|slot| {
            slot.borrow()
                .as_ref()
                .is_some_and(|recording| recording.root == self.root())
        })
    }

    /// Remembers `target` as it is now, when a recording of this vault runs on this thread
    /// and the file was not remembered yet. Called by every mutation before it changes
    /// anything.
    pub(super) fn remember(&self, target: &Resolved) {
        RECORDING.with(|slot| {
            let mut slot = slot.borrow_mut();
            let Some(recording) = slot.as_mut() else {
                return;
            };
            if recording.root != self.root()
                || recording.befores.iter().any(|b| b.path == target.rel)
            {
                return;
            }
            recording.befores.push(Before {
                path: target.rel.clone(),
                state: current_state(&target.abs),
            });
        });
    }
}

impl Vault {
    /// Remembers the file at the vault path `path` as it is now, for a change made outside
    /// this server within the recorded call (TC Bridge writing through Obsidian): dispatch
    /// then keeps it when the call changed it, like its own writes. The call also takes the
    /// file's turn in the write queue, so the server's own writes to it wait until Obsidian's
    /// is done. A path that does not resolve inside the vault is skipped (the change would be
    /// refused there).
    pub fn remember_path(&self, path: &str) {
        if let Ok(target) = self.resolve(path) {
            self.queue_note(&target.rel, Access::Change);
            self.remember(&target);
        }
    }
}

/// What `abs` holds now.
fn current_state(abs: &Path) -> BeforeState {
    match std::fs::symlink_metadata(abs) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => BeforeState::Absent,
        Ok(meta) if meta.is_file() && meta.len() <= MAX_SNAPSHOT_BYTES => {
            match std::fs::read(abs) {
                Ok(bytes) => BeforeState::Content(bytes),
                Err(_) => BeforeState::NotKept,
            }
        }
        _ => BeforeState::NotKept,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vault::{VaultOptions, WriteOptions};

    fn vault() -> (tempfile::TempDir, Vault) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "old a").unwrap();
        let vault = Vault::open(dir.path(), VaultOptions::default()).unwrap();
        (dir, vault)
    }

    #[test]
    fn each_file_is_remembered_once_as_it_was_first() {
        let (_dir, vault) = vault();
        let overwrite = WriteOptions {
            overwrite: true,
            ..WriteOptions::default()
        };
        let ((), befores) = record(&vault, || {
            vault.write("a.md", b"new a", &overwrite).unwrap();
            vault.write("a.md", b"newer a", &overwrite).unwrap();
            vault.write("b.md", b"b", &WriteOptions::default()).unwrap();
            vault
                .move_file("b.md", "c.md", &WriteOptions::default())
                .unwrap();
        });
        let states: Vec<(&str, &BeforeState)> = befores
            .iter()
            .map(|b| (b.path.as_str(), &b.state))
            .collect();
        assert_eq!(
            states,
            [
                ("a.md", &BeforeState::Content(b"old a".to_vec())),
                ("b.md", &BeforeState::Absent),
                ("c.md", &BeforeState::Absent),
            ]
        );
    }

    #[test]
    fn nothing_is_recorded_outside_a_recording_or_for_another_vault() {
        let (_dir, vault) = vault();
        let (_other_dir, other) = super::tests::vault();
        vault.write("x.md", b"x", &WriteOptions::default()).unwrap();
        let ((), befores) = record(&vault, || {
            other.write("y.md", b"y", &WriteOptions::default()).unwrap();
        });
        assert!(befores.is_empty());
        let ((), after) = record(&vault, || {
            vault.trash("x.md", None).unwrap();
        });
        assert_eq!(after[0].state, BeforeState::Content(b"x".to_vec()));
    }
}
