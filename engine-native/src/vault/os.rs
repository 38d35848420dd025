//! What the vault backend asks of the operating system, one function per need, with a Unix
//! body and a Windows body side by side: opening a file without following a link at its
//! final name, telling a link (a symlink, or on Windows any reparse point: a symlink, a
//! junction) from a file, counting a file's hard links, a file's change time, the permissions
//! a replacement file inherits, flushing a file or a folder's entries, renaming without
//! replacing (or exchanging two names) in one step, and waiting out another program that
//! holds a file open without sharing it.
//!
//! On Unix a link at the final name is refused by the open itself (`O_NOFOLLOW`: `ELOOP`); on
//! Windows the open takes the reparse point itself (`FILE_FLAG_OPEN_REPARSE_POINT`) and the
//! caller refuses it by its attributes ([`is_link`]). The standard library has no stable way
//! to read a file's hard-link count on Windows (`number_of_links` is unstable), so it is read
//! from the handle with `GetFileInformationByHandle` (windows-sys).

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::path::Path;

/// Opens `path` for reading without following a link at its final name, and (on Unix)
/// without waiting on a FIFO: such a file is opened and then refused by its type.
pub(crate) fn open_read_no_follow(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    no_follow(&mut options, true);
    retry_busy(|| options.open(path))
}

/// How long an operation on a file another program holds is tried again: scanners and sync
/// clients hold a file for milliseconds to a second after it changes.
const BUSY_WAIT: std::time::Duration = std::time::Duration::from_millis(2_000);

/// Runs `op`, and again with growing pauses (10 ms doubling to 250 ms) for up to
/// [`BUSY_WAIT`] while it fails because another program holds the file ([`is_busy`]).
pub(crate) fn retry_busy<T>(op: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    retry_while(op, is_busy)
}

/// [`retry_busy`] for a rename, a replace or a removal, which Windows also refuses with
/// `ERROR_ACCESS_DENIED` while another program has the file open without sharing its
/// deletion (scanners and indexers do, for a moment): that too is tried again. What is still
/// refused after the wait is reported as the OS said it.
pub(crate) fn retry_busy_rename<T>(op: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    retry_while(op, |error| is_busy(error) || is_access_denied(error))
}

/// Runs `op` again with growing pauses for up to [`BUSY_WAIT`] while `transient` says its
/// error may pass.
fn retry_while<T>(
    mut op: impl FnMut() -> io::Result<T>,
    transient: impl Fn(&io::Error) -> bool,
) -> io::Result<T> {
    let started = std::time::Instant::now();
    let mut pause = std::time::Duration::from_millis(10);
    loop {
        match op() {
            Err(error) if transient(&error) && started.elapsed() < BUSY_WAIT => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(std::time::Duration::from_millis(250));
            }
            other => return other,
        }
    }
}

/// Whether `error` is Windows' `ERROR_ACCESS_DENIED`: never on Unix, where a rename does not
/// depend on who has the file open.
#[cfg(unix)]
fn is_access_denied(_error: &io::Error) -> bool {
    false
}

/// Whether `error` is `ERROR_ACCESS_DENIED`.
#[cfg(windows)]
fn is_access_denied(error: &io::Error) -> bool {
    use windows_sys::Win32::Foundation::ERROR_ACCESS_DENIED;
    error.raw_os_error() == Some(ERROR_ACCESS_DENIED as i32)
}

/// Whether `error` says another program holds the file open without sharing it: never on
/// Unix, where opens do not exclude each other.
#[cfg(unix)]
pub(crate) fn is_busy(_error: &io::Error) -> bool {
    false
}

/// Whether `error` is a sharing or lock violation (another program holds the file open
/// without sharing it, or holds a byte-range lock on it).
#[cfg(windows)]
pub(crate) fn is_busy(error: &io::Error) -> bool {
    use windows_sys::Win32::Foundation::{ERROR_LOCK_VIOLATION, ERROR_SHARING_VIOLATION};
    matches!(error.raw_os_error(), Some(code) if code == ERROR_SHARING_VIOLATION as i32 || code == ERROR_LOCK_VIOLATION as i32)
}

/// Sets `options` not to follow a link at the final name (and not to block on a FIFO when
/// `nonblocking`).
#[cfg(unix)]
pub(crate) fn no_follow(options: &mut OpenOptions, nonblocking: bool) {
    use std::os::unix::fs::OpenOptionsExt;
    let flags = if nonblocking {
        libc::O_NOFOLLOW | libc::O_NONBLOCK
    } else {
        libc::O_NOFOLLOW
    };
    options.custom_flags(flags);
}

/// Sets `options` to open a reparse point itself rather than what it points to.
#[cfg(windows)]
pub(crate) fn no_follow(options: &mut OpenOptions, _nonblocking: bool) {
    use std::os::windows::fs::OpenOptionsExt;
    use windows_sys::Win32::Storage::FileSystem::FILE_FLAG_OPEN_REPARSE_POINT;
    options.custom_flags(FILE_FLAG_OPEN_REPARSE_POINT);
}

/// Whether an open with [`no_follow`] failed because the final name is a link: `ELOOP` on
/// Linux and macOS alike (FreeBSD's `EMLINK` is not a system this server is built for).
#[cfg(unix)]
pub(crate) fn is_link_refusal(error: &io::Error) -> bool {
    error.raw_os_error() == Some(libc::ELOOP)
}

/// Whether an open with [`no_follow`] failed because the final name is a link: never on
/// Windows, where the link itself is opened (see [`is_link`]).
#[cfg(windows)]
pub(crate) fn is_link_refusal(_error: &io::Error) -> bool {
    false
}

/// Whether the opened file is a link.
#[cfg(unix)]
pub(crate) fn is_link(metadata: &Metadata) -> bool {
    metadata.file_type().is_symlink()
}

/// Whether the opened file is a reparse point (a symlink, a junction, a mount point), to be
/// refused like a symlink.
#[cfg(windows)]
pub(crate) fn is_link(metadata: &Metadata) -> bool {
    use std::os::windows::fs::MetadataExt;
    use windows_sys::Win32::Storage::FileSystem::FILE_ATTRIBUTE_REPARSE_POINT;
    metadata.file_attributes() & FILE_ATTRIBUTE_REPARSE_POINT != 0
}

/// How many names (hard links) the file at `path` has; `opened` is the file when the caller
/// has it open.
#[cfg(unix)]
pub(crate) fn link_count(
    _path: &Path,
    _opened: Option<&File>,
    metadata: &Metadata,
) -> io::Result<u64> {
    use std::os::unix::fs::MetadataExt;
    Ok(metadata.nlink())
}

/// How many names (hard links) the file at `path` has, read from its handle (`opened`, or
/// the file opened here without following a link).
#[cfg(windows)]
pub(crate) fn link_count(
    path: &Path,
    opened: Option<&File>,
    _metadata: &Metadata,
) -> io::Result<u64> {
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Storage::FileSystem::{
        BY_HANDLE_FILE_INFORMATION, GetFileInformationByHandle,
    };
    let own;
    let file = match opened {
        Some(file) => file,
        None => {
            own = open_read_no_follow(path)?;
            &own
        }
    };
    // SAFETY: `info` is a plain struct of integers the call fills in.
    let mut info: BY_HANDLE_FILE_INFORMATION = unsafe { std::mem::zeroed() };
    // SAFETY: the handle is the open file's and outlives the call.
    let done = unsafe { GetFileInformationByHandle(file.as_raw_handle(), &mut info) };
    if done == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(u64::from(info.nNumberOfLinks))
}

/// When the file's metadata or content last changed, nanoseconds since the Unix epoch.
#[cfg(unix)]
pub(crate) fn changed_ns(metadata: &Metadata) -> i64 {
    use std::os::unix::fs::MetadataExt;
    metadata
        .ctime()
        .saturating_mul(1_000_000_000)
        .saturating_add(metadata.ctime_nsec())
}

/// When the file last changed, nanoseconds since the Unix epoch: its last write (the change
/// time is not in the standard library's metadata on Windows).
#[cfg(windows)]
pub(crate) fn changed_ns(metadata: &Metadata) -> i64 {
    use std::os::windows::fs::MetadataExt;
    // 100 ns intervals from 1601-01-01 to 1970-01-01.
    const UNIX_EPOCH_IN_INTERVALS: i64 = 116_444_736_000_000_000;
    let intervals = i64::try_from(metadata.last_write_time()).unwrap_or(i64::MAX);
    intervals
        .saturating_sub(UNIX_EPOCH_IN_INTERVALS)
        .saturating_mul(100)
}

/// Flushes a folder's entries (a rename, a new name) to disk.
#[cfg(unix)]
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    sync_file(&File::open(dir)?)
}

/// Nothing on Windows: a folder cannot be opened as a file to be flushed, and NTFS journals
/// its entries.
#[cfg(windows)]
pub(crate) fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// Moves `from` to `to` unless `to` exists (`AlreadyExists` then): `MoveFileExW` without
/// `MOVEFILE_REPLACE_EXISTING`, atomic on one volume, written through before it returns.
#[cfg(windows)]
pub(crate) fn move_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    use std::os::windows::ffi::OsStrExt;
    use windows_sys::Win32::Storage::FileSystem::{MOVEFILE_WRITE_THROUGH, MoveFileExW};
    let wide = |path: &Path| -> Vec<u16> {
        path.as_os_str()
            .encode_wide()
            .chain(std::iter::once(0))
            .collect()
    };
    let (from, to) = (wide(from), wide(to));
    // SAFETY: both pointers are NUL-terminated UTF-16 strings that outlive the call.
    if unsafe { MoveFileExW(from.as_ptr(), to.as_ptr(), MOVEFILE_WRITE_THROUGH) } == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Sets `options` to create its file with the permission bits of `mode` from the start (so
/// it is never readable by more people than the file it copies, even for an instant).
#[cfg(unix)]
pub(crate) fn create_with(options: &mut OpenOptions, mode: &std::fs::Permissions) {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    options.mode(mode.mode() & 0o7777);
}

/// Nothing on Windows: a new file inherits its folder's access rights, and the one
/// permission the standard library carries there (read-only) would stop the file from being
/// written.
#[cfg(windows)]
pub(crate) fn create_with(_options: &mut OpenOptions, _mode: &std::fs::Permissions) {}

/// Flushes a file's bytes and metadata to disk: [`File::sync_all`].
#[cfg(not(target_vendor = "apple"))]
pub(crate) fn sync_file(file: &File) -> io::Result<()> {
    file.sync_all()
}

/// Flushes a file's bytes and metadata to disk. On Apple systems [`File::sync_all`] is
/// `fcntl(F_FULLFSYNC)`, which also empties the drive's write cache (a plain `fsync` there
/// stops at the drive); a file system without it (SMB, macFUSE mounts) answers `ENOTSUP` or
/// `EINVAL`, and the file is then flushed with `fsync`, as far as that file system goes.
#[cfg(target_vendor = "apple")]
pub(crate) fn sync_file(file: &File) -> io::Result<()> {
    use std::os::unix::io::AsRawFd;
    match file.sync_all() {
        Err(error)
            if matches!(
                error.raw_os_error(),
                Some(libc::ENOTSUP | libc::EOPNOTSUPP | libc::EINVAL)
            ) =>
        {
            // SAFETY: the descriptor is the open file's and outlives the call.
            if unsafe { libc::fsync(file.as_raw_fd()) } == 0 {
                Ok(())
            } else {
                Err(io::Error::last_os_error())
            }
        }
        other => other,
    }
}

/// What [`rename_atomic`] does with a file already at the new name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AtExisting {
    /// Fail with `AlreadyExists`, leaving both names as they were.
    Refuse,
    /// Swap the two files' names.
    Exchange,
}

/// Renames `from` to `to` in one step of the kernel's, which decides `at_existing` atomically
/// (Linux `renameat2`, macOS `renamex_np`). `None` when the file system has
/// no such rename (the caller falls back to what it can do without one).
#[cfg(any(target_os = "linux", target_os = "macos"))]
pub(crate) fn rename_atomic(
    from: &Path,
    to: &Path,
    at_existing: AtExisting,
) -> Option<io::Result<()>> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let c_path = |path: &Path| {
        CString::new(path.as_os_str().as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path contains NUL"))
    };
    let (from, to) = match (c_path(from), c_path(to)) {
        (Ok(from), Ok(to)) => (from, to),
        (Err(error), _) | (_, Err(error)) => return Some(Err(error)),
    };
    let flags = match at_existing {
        AtExisting::Refuse => RENAME_REFUSE,
        AtExisting::Exchange => RENAME_EXCHANGE,
    };
    // SAFETY: both pointers are NUL-terminated strings that outlive the call.
    #[cfg(target_os = "linux")]
    let status = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            flags,
        )
    };
    // SAFETY: both pointers are NUL-terminated strings that outlive the call.
    #[cfg(target_os = "macos")]
    let status = unsafe { libc::renamex_np(from.as_ptr(), to.as_ptr(), flags) };
    if status == 0 {
        return Some(Ok(()));
    }
    let error = io::Error::last_os_error();
    match error.raw_os_error() {
        Some(code) if RENAME_UNSUPPORTED.contains(&code) => None,
        _ => Some(Err(error)),
    }
}

/// `renameat2(2)`'s flag that fails with `EEXIST` when the new name is taken.
#[cfg(target_os = "linux")]
const RENAME_REFUSE: libc::c_uint = libc::RENAME_NOREPLACE;
/// `renameat2(2)`'s flag that swaps the two names.
#[cfg(target_os = "linux")]
const RENAME_EXCHANGE: libc::c_uint = libc::RENAME_EXCHANGE;
/// What `renameat2` answers when the file system (or a kernel before 3.15) lacks the flag.
#[cfg(target_os = "linux")]
const RENAME_UNSUPPORTED: [libc::c_int; 2] = [libc::EINVAL, libc::ENOSYS];

/// `renamex_np(2)`'s flag that fails with `EEXIST` when the new name is taken.
#[cfg(target_os = "macos")]
const RENAME_REFUSE: libc::c_uint = libc::RENAME_EXCL;
/// `renamex_np(2)`'s flag that swaps the two names.
#[cfg(target_os = "macos")]
const RENAME_EXCHANGE: libc::c_uint = libc::RENAME_SWAP;
/// What `renamex_np` answers when the file system lacks the flag (APFS and HFS+ have both;
/// some network and FUSE file systems do not).
#[cfg(target_os = "macos")]
const RENAME_UNSUPPORTED: [libc::c_int; 3] = [libc::ENOTSUP, libc::EOPNOTSUPP, libc::EINVAL];

/// Windows: a no-replace rename is `MoveFileExW` without `MOVEFILE_REPLACE_EXISTING` (see
/// [`move_no_replace`], tried again while another program holds the file); Windows has no
/// exchange of two names (`None`: the caller renames instead).
#[cfg(windows)]
pub(crate) fn rename_atomic(
    from: &Path,
    to: &Path,
    at_existing: AtExisting,
) -> Option<io::Result<()>> {
    match at_existing {
        AtExisting::Refuse => Some(retry_busy_rename(|| move_no_replace(from, to))),
        AtExisting::Exchange => None,
    }
}

/// `None`: no atomic rename of the kind is used on this system (the caller falls back).
#[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
pub(crate) fn rename_atomic(
    _from: &Path,
    _to: &Path,
    _at_existing: AtExisting,
) -> Option<io::Result<()>> {
    None
}
