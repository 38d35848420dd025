//! Crash-safe replacement of a file: a temp file in the same folder, written in full and
//! fsynced, renamed over the target, then the folder fsynced. A reader (or a crash) sees the
//! old bytes or the new ones, never a mix.

use std::collections::hash_map::RandomState;
use std::fs::{self, File, OpenOptions, Permissions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// How every temp file name starts; the rest is 16 lowercase hex digits.
pub(crate) const TEMP_PREFIX: &str = ".otc-tmp-";

const TEMP_RANDOM_DIGITS: usize = 16;

/// How many random names are tried before giving up (each collision is astronomically rare).
const TEMP_ATTEMPTS: usize = 16;

/// Whether `name` is one of the temp files this module creates.
pub fn is_temp_name(name: &str) -> bool {
    name.strip_prefix(TEMP_PREFIX).is_some_and(|digits| {
        digits.len() == TEMP_RANDOM_DIGITS
            && digits
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
}

/// Whether `write_file` may replace an existing file at the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Replace {
    /// Rename over whatever is there.
    Allowed,
    /// Fail with `AlreadyExists` when the target exists (decided atomically).
    Refused,
}

/// Writes `bytes` to `target` atomically. `mode` is the permission bits to give the file
/// (the replaced file's), or `None` for the process default of a new file.
pub(crate) fn write_file(
    target: &Path,
    bytes: &[u8],
    mode: Option<u32>,
    replace: Replace,
) -> io::Result<()> {
    super::fault::check(target)?;
    let dir = parent_of(target)?;
    let (temp_path, mut file) = create_temp(dir)?;
    let written = (|| {
        if let Some(mode) = mode {
            file.set_permissions(Permissions::from_mode(mode))?;
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        match replace {
            Replace::Allowed => fs::rename(&temp_path, target),
            Replace::Refused => rename_no_replace(&temp_path, target),
        }
    })();
    if let Err(error) = written {
        // Best effort: the write already failed and that is the error to report.
        let _ = fs::remove_file(&temp_path);
        return Err(error);
    }
    sync_dir(dir)
}

/// Renames `from` to `to` unless `to` exists (`AlreadyExists` then), atomically.
pub(crate) fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        match renameat2_no_replace(from, to) {
            Err(error) if matches!(error.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) => {}
            other => return other,
        }
    }
    // A hard link fails if the name exists; then the old name goes.
    fs::hard_link(from, to)?;
    fs::remove_file(from)
}

#[cfg(target_os = "linux")]
fn renameat2_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let c_path = |path: &Path| {
        CString::new(path.as_os_str().as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path contains NUL"))
    };
    let (from, to) = (c_path(from)?, c_path(to)?);
    // SAFETY: both pointers are NUL-terminated strings that outlive the call.
    let status = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            libc::RENAME_NOREPLACE,
        )
    };
    if status == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Flushes a folder's entries (a rename, a new name) to disk.
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// The folder holding `path`.
pub(crate) fn parent_of(path: &Path) -> io::Result<&Path> {
    path.parent()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no parent folder"))
}

/// Creates a new temp file in `dir` exclusively, never through a symlink.
fn create_temp(dir: &Path) -> io::Result<(PathBuf, File)> {
    let mut last_error = None;
    for _ in 0..TEMP_ATTEMPTS {
        let path = dir.join(format!("{TEMP_PREFIX}{:016x}", random_u64()));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o666)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
        {
            Ok(file) => return Ok((path, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last_error = Some(error),
            Err(error) => return Err(error),
        }
    }
    Err(last_error.unwrap_or_else(|| io::Error::other("no free temp file name")))
}

/// 64 unpredictable bits: the standard library's randomly keyed hasher over the time.
fn random_u64() -> u64 {
    let mut hasher = RandomState::new().build_hasher();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos());
    hasher.write_u128(nanos);
    hasher.write_u32(std::process::id());
    hasher.finish()
}
