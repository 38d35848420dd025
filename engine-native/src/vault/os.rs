//! What the vault backend asks of the operating system, one function per need, with a Unix
//! body and a Windows body side by side: opening a file without following a link at its
//! final name, telling a link (a symlink, or on Windows any reparse point: a symlink, a
//! junction) from a file, counting a file's hard links, a file's change time, the permissions
//! a replacement file inherits, flushing a folder's entries, and waiting out another program
//! that holds a file open without sharing it.
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

/// Whether an open with [`no_follow`] failed because the final name is a link.
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
    File::open(dir)?.sync_all()
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
