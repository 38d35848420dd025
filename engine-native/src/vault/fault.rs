//! Injected write failures for tests (cargo feature `fault-injection`, off in the product).
//!
//! A file marked with `RefuseChanges` refuses every change the vault makes to it, with the
//! `EPERM` an immutable file (`chattr +i`) gives: being replaced by a write, being renamed,
//! being renamed over. Tests use it to make a multi-file change fail part way and check the
//! rollback, on any filesystem and without the `CAP_LINUX_IMMUTABLE` that `chattr` needs
//! (containers usually drop it). Without the feature `check` is an empty inline function.

use std::io;
use std::path::Path;

#[cfg(feature = "fault-injection")]
pub use marked::RefuseChanges;

/// Fails with `EPERM` when `path` is marked to refuse changes; `Ok` otherwise.
#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub(crate) fn check(_path: &Path) -> io::Result<()> {
    Ok(())
}

/// Fails with `EPERM` when `path` is marked to refuse changes; `Ok` otherwise.
#[cfg(feature = "fault-injection")]
pub(crate) fn check(path: &Path) -> io::Result<()> {
    marked::check(path)
}

#[cfg(feature = "fault-injection")]
mod marked {
    use std::io;
    use std::path::{Path, PathBuf};
    use std::sync::Mutex;

    /// The canonical paths that refuse changes now (one entry per live guard).
    static REFUSING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

    fn refusing() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
        REFUSING
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// While alive, the vault refuses to change the file it marks (see the module doc).
    #[derive(Debug)]
    pub struct RefuseChanges(PathBuf);

    impl RefuseChanges {
        /// Marks the existing file at `path`; fails when it cannot be canonicalized.
        pub fn mark(path: &Path) -> io::Result<RefuseChanges> {
            let canonical = path.canonicalize()?;
            refusing().push(canonical.clone());
            Ok(RefuseChanges(canonical))
        }
    }

    impl Drop for RefuseChanges {
        fn drop(&mut self) {
            let mut list = refusing();
            if let Some(at) = list.iter().position(|p| *p == self.0) {
                list.swap_remove(at);
            }
        }
    }

    pub(super) fn check(path: &Path) -> io::Result<()> {
        let list = refusing();
        if list.is_empty() {
            return Ok(());
        }
        match path.canonicalize() {
            Ok(canonical) if list.contains(&canonical) => {
                Err(io::Error::from_raw_os_error(libc::EPERM))
            }
            _ => Ok(()),
        }
    }
}
