//! The single-writer lock of a vault's index across processes: an exclusive `flock` on
//! `<cache dir>/index-<vault>.lock`. Two obsidian-tc processes sharing a cache never scan the
//! same vault at once; the lock goes with the process (the kernel releases it on exit, even
//! after a crash), so it is never left stale.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
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
        // SAFETY: flock on a descriptor this function owns; no memory is shared.
        let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if locked == 0 {
            return Ok(Some(WriterLock { _file: file }));
        }
        let error = io::Error::last_os_error();
        if error.kind() == io::ErrorKind::WouldBlock {
            Ok(None)
        } else {
            Err(error)
        }
    }
}

/// The lock file of a vault (its id hashed: ids may hold any character).
fn lock_path(cache_dir: &Path, vault_id: &str) -> PathBuf {
    let hash = sha256_hex(vault_id.as_bytes());
    cache_dir.join(format!("index-{}.lock", &hash[..16]))
}
