//! The single-writer lock of a vault's index across processes: an exclusive file lock
//! (`File::try_lock`: `flock` on Unix, `LockFileEx` on Windows) on
//! `<cache dir>/index-<vault>.lock`. Two obsidian-tc processes sharing a cache never scan the
//! same vault at once; the lock goes with the process (the kernel releases it on exit, even
//! after a crash), so it is never left stale.

use std::fs::{File, OpenOptions, TryLockError};
use std::io;
use std::path::{Path, PathBuf};

use engine_core::hash::sha256_hex;

/// A held writer lock; released when dropped.
#[derive(Debug)]
pub struct WriterLock {
    _file: File,
}

impl WriterLock {
    /// Takes the lock of `vault_id`'s index in `cache_dir`, or `None` when another process
    /// holds it.
    pub fn try_acquire(cache_dir: &Path, vault_id: &str) -> io::Result<Option<WriterLock>> {
        std::fs::create_dir_all(cache_dir)?;
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(lock_path(cache_dir, vault_id))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(WriterLock { _file: file })),
            Err(TryLockError::WouldBlock) => Ok(None),
            Err(TryLockError::Error(error)) => Err(error),
        }
    }
}

/// The lock file of a vault (its id hashed: ids may hold any character).
fn lock_path(cache_dir: &Path, vault_id: &str) -> PathBuf {
    let hash = sha256_hex(vault_id.as_bytes());
    cache_dir.join(format!("index-{}.lock", &hash[..16]))
}
