//! Locks that every obsidian-tc process on one vault honours, so a write that answered success
//! is never lost to another process (each MCP client starts its own server on the same vault).
//!
//! Two kinds of lock, both advisory file locks (`std::fs::File::lock`: `flock` on Unix,
//! `LockFileEx` on Windows) on files in `<vault>/.obsidian-tc/locks/`, created on the first
//! write. They are inside the vault, not in the cache folder, so processes with different cache
//! folders (or different config files) still meet on them. The operating system drops a lock
//! when its holder exits, killed or not: a crash never leaves a vault locked.
//!
//! - **Note stripes** (`note-00.lock` … `note-ff.lock`): a call that writes holds the stripe of
//!   each note it entered in the write queue ([`super::queue`]) from its read to its end, so a
//!   read-modify-write (append, patch, observation, …) of that note in another process waits
//!   for it and then re-reads. A note's stripe is the first byte of the SHA-256 of its
//!   case-folded vault path: 256 files at most, whatever the vault's size. Two notes may share a
//!   stripe; inside one process a stripe is shared by every call holding one of its notes
//!   (counted), so a call never waits for its own process.
//! - **The commit lock** (`commit.lock`): held by every change of a file (write, move, copy,
//!   delete) from its last precondition check to its rename, never longer and never while
//!   waiting for anything else, so the checks and renames of all processes are one after
//!   another. A file a call changes without holding its stripe is still checked against the
//!   SHA-256 it read under this lock, and refused (`concurrent_modification`) when another
//!   process changed it first.
//!
//! Hand-written: the file locking is the standard library's; the counting of one process's
//! holders of a stripe (which one `flock` per process needs) is a few lines over `Mutex` and
//! `Condvar`.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use engine_core::hash::sha256_hex;

/// Where the lock files live, relative to the vault root.
pub(crate) const LOCK_DIR: [&str; 2] = [".obsidian-tc", "locks"];

/// Whether a lock is waited for or only taken when free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wait {
    /// Block until the lock is free.
    Block,
    /// Take it only if no other process holds it.
    IfFree,
}

/// The locks of one vault, shared by the calls of this process.
#[derive(Debug)]
pub(crate) struct ProcessLocks {
    dir: PathBuf,
    stripes: Mutex<HashMap<u8, Stripe>>,
    settled: Condvar,
}

/// One stripe as this process holds it: how many calls hold it, the locked file, and whether a
/// call is taking it right now (others then wait for that instead of opening it again).
#[derive(Debug, Default)]
struct Stripe {
    holders: usize,
    file: Option<File>,
    taking: bool,
}

impl ProcessLocks {
    /// The locks of the vault whose canonical root is `root`.
    pub(crate) fn new(root: &Path) -> ProcessLocks {
        let mut dir = root.to_path_buf();
        dir.extend(LOCK_DIR);
        ProcessLocks {
            dir,
            stripes: Mutex::default(),
            settled: Condvar::new(),
        }
    }

    fn stripes(&self) -> MutexGuard<'_, HashMap<u8, Stripe>> {
        // Changed only in whole steps under the lock: a panic cannot tear the map.
        self.stripes.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Opens (creating it and its folder when missing) the lock file `name`.
    pub(crate) fn open(&self, name: &str) -> io::Result<File> {
        let path = self.dir.join(name);
        let open = || {
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
        };
        match open() {
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(&self.dir)?;
                open()
            }
            other => other,
        }
    }

    /// Takes the stripe of the note at the canonical vault path `rel` for one call of this
    /// process; `Ok(false)` when `wait` is [`Wait::IfFree`] and another process holds it.
    /// Each `Ok(true)` is matched by one [`ProcessLocks::release`].
    pub(crate) fn acquire(&self, rel: &str, wait: Wait) -> io::Result<bool> {
        let index = stripe_of(rel);
        let mut stripes = self.stripes();
        loop {
            let stripe = stripes.entry(index).or_default();
            if stripe.holders > 0 {
                stripe.holders += 1;
                return Ok(true);
            }
            if !stripe.taking {
                stripe.taking = true;
                break;
            }
            if wait == Wait::IfFree {
                return Ok(false);
            }
            stripes = self
                .settled
                .wait(stripes)
                .unwrap_or_else(PoisonError::into_inner);
        }
        drop(stripes);
        let taken = self.lock_stripe_file(index, wait);
        let mut stripes = self.stripes();
        let stripe = stripes.entry(index).or_default();
        stripe.taking = false;
        let held = match taken {
            Ok(Some(file)) => {
                stripe.file = Some(file);
                stripe.holders = 1;
                Ok(true)
            }
            other => {
                stripes.remove(&index);
                other.map(|_| false)
            }
        };
        self.settled.notify_all();
        held
    }

    /// Ends one call's hold on the stripe of `rel`; the last one unlocks it.
    pub(crate) fn release(&self, rel: &str) {
        let index = stripe_of(rel);
        let mut stripes = self.stripes();
        let Some(stripe) = stripes.get_mut(&index) else {
            return;
        };
        stripe.holders = stripe.holders.saturating_sub(1);
        if stripe.holders == 0
            && !stripe.taking
            && let Some(file) = stripes.remove(&index).and_then(|stripe| stripe.file)
        {
            // Closing the file drops the lock as well; unlocking first is only explicit.
            let _ = file.unlock();
        }
    }

    /// Opens and locks stripe `index`'s file; `None` when it is held elsewhere and `wait` is
    /// [`Wait::IfFree`].
    fn lock_stripe_file(&self, index: u8, wait: Wait) -> io::Result<Option<File>> {
        let file = self.open(&format!("note-{index:02x}.lock"))?;
        match wait {
            Wait::Block => file.lock().map(|()| Some(file)),
            Wait::IfFree => match file.try_lock() {
                Ok(()) => Ok(Some(file)),
                Err(TryLockError::WouldBlock) => Ok(None),
                Err(TryLockError::Error(error)) => Err(error),
            },
        }
    }

    /// How many stripes this process holds now.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.stripes().values().filter(|s| s.holders > 0).count()
    }
}

/// The stripe of a note: the first byte of the SHA-256 of its lower-cased vault path (case
/// variants of one name share it, as they share one file where the file system folds case).
fn stripe_of(rel: &str) -> u8 {
    let hex = sha256_hex(rel.to_lowercase().as_bytes());
    u8::from_str_radix(&hex[..2], 16).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_stripe_is_shared_inside_a_process_and_exclusive_between_lock_files() {
        let dir = tempfile::tempdir().unwrap();
        let ours = ProcessLocks::new(dir.path());
        // A second handle opens its own file description, as another process would.
        let theirs = ProcessLocks::new(dir.path());
        assert!(ours.acquire("a.md", Wait::Block).unwrap());
        assert!(
            ours.acquire("A.md", Wait::IfFree).unwrap(),
            "same stripe, same process"
        );
        assert_eq!(ours.held(), 1);
        assert!(!theirs.acquire("a.md", Wait::IfFree).unwrap());
        ours.release("a.md");
        assert!(
            !theirs.acquire("a.md", Wait::IfFree).unwrap(),
            "one holder left"
        );
        ours.release("A.md");
        assert_eq!(ours.held(), 0);
        assert!(theirs.acquire("a.md", Wait::IfFree).unwrap());
        theirs.release("a.md");
        assert!(!dir.path().join(".obsidian-tc/locks/commit.lock").exists());
    }

    #[test]
    fn a_blocked_acquire_goes_on_when_the_holder_releases() {
        let dir = tempfile::tempdir().unwrap();
        let holder = ProcessLocks::new(dir.path());
        let waiter = Arc::new(ProcessLocks::new(dir.path()));
        assert!(holder.acquire("n.md", Wait::Block).unwrap());
        let (done_tx, done_rx) = mpsc::channel();
        let waiting = Arc::clone(&waiter);
        let thread = thread::spawn(move || {
            let held = waiting.acquire("n.md", Wait::Block).unwrap();
            done_tx.send(held).unwrap();
            waiting.release("n.md");
        });
        assert!(
            done_rx.recv_timeout(Duration::from_millis(200)).is_err(),
            "the waiter got the stripe while it was held"
        );
        holder.release("n.md");
        assert!(done_rx.recv_timeout(Duration::from_secs(10)).unwrap());
        thread.join().unwrap();
    }
}
