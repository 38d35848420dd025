//! Crash-safe replacement of a file: a temp file in the same folder, written in full and
//! fsynced, renamed over the target, then the folder fsynced. A reader (or a crash) sees the
//! old bytes or the new ones, never a mix.

use std::collections::hash_map::RandomState;
use std::fs::{self, File, OpenOptions, Permissions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use engine_core::hash::sha256_hex;

use super::os::{AtExisting, rename_atomic, retry_busy, retry_busy_rename, sync_dir, sync_file};

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

/// Writes `bytes` to `target` atomically. `mode` is the permissions to give the file (the
/// replaced file's), or `None` for the process default of a new file.
pub(crate) fn write_file(
    target: &Path,
    bytes: &[u8],
    mode: Option<Permissions>,
    replace: Replace,
) -> io::Result<()> {
    write_file_unless_changed(target, bytes, mode, replace, None)?
        .map_err(|_| io::Error::other("the file changed while it was written"))
}

/// The file a guarded write was to replace no longer holds what the caller read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Changed {
    /// The SHA-256 it holds now, or `None` when it is gone.
    pub actual: Option<String>,
}

/// [`write_file`] over an existing file that must still hash to `unchanged` (when given) at the
/// moment it is replaced. A writer that takes no lock (Obsidian, a sync client) has only the
/// time between the last check and the rename to slip in: the new bytes are written and
/// flushed before that check, not after. On Linux and macOS the replace is an atomic exchange, so the
/// replaced bytes themselves are hashed again afterwards, and a change that slipped in is put
/// back in place (`Changed`, nothing of the other writer's lost).
pub(crate) fn write_file_unless_changed(
    target: &Path,
    bytes: &[u8],
    mode: Option<Permissions>,
    replace: Replace,
    unchanged: Option<&str>,
) -> io::Result<Result<(), Changed>> {
    super::fault::check(target)?;
    let dir = parent_of(target)?;
    let (temp_path, mut file) = create_temp(dir)?;
    let written = (|| {
        if let Some(mode) = mode {
            file.set_permissions(mode)?;
        }
        file.write_all(bytes)?;
        sync_file(&file)?;
        drop(file);
        match (unchanged, replace) {
            (Some(expected), _) => replace_unless_changed(&temp_path, target, expected),
            (None, Replace::Allowed) => {
                retry_busy_rename(|| fs::rename(&temp_path, target)).map(Ok)
            }
            (None, Replace::Refused) => rename_no_replace(&temp_path, target).map(Ok),
        }
    })();
    if !matches!(written, Ok(Ok(()))) {
        // Best effort: the write already failed (or was refused) and that is what to report.
        let _ = fs::remove_file(&temp_path);
        return written;
    }
    sync_dir(dir).map(Ok)
}

/// Renames `temp` over `target` if `target` still hashes to `expected`, checked right before
/// and, where the platform can exchange two names atomically, on the replaced bytes after.
fn replace_unless_changed(
    temp: &Path,
    target: &Path,
    expected: &str,
) -> io::Result<Result<(), Changed>> {
    if let Some(changed) = changed_from(target, expected)? {
        return Ok(Err(changed));
    }
    if let Some(exchanged) = exchange_unless_changed(temp, target, expected)? {
        return Ok(exchanged);
    }
    retry_busy_rename(|| fs::rename(temp, target)).map(Ok)
}

/// Exchanges `temp` and `target` atomically, then hashes the replaced bytes (now at `temp`):
/// when they are not `expected`, a writer slipped in since the last check and the exchange is
/// undone. `None` when the system or file system cannot exchange names (the caller renames
/// instead).
fn exchange_unless_changed(
    temp: &Path,
    target: &Path,
    expected: &str,
) -> io::Result<Option<Result<(), Changed>>> {
    match rename_atomic(temp, target, AtExisting::Exchange) {
        Some(Ok(())) => match changed_from(temp, expected)? {
            None => {
                // Best effort: a leftover temp file is removed by the stale sweep.
                let _ = fs::remove_file(temp);
                Ok(Some(Ok(())))
            }
            Some(changed) => {
                rename_atomic(temp, target, AtExisting::Exchange)
                    .unwrap_or_else(|| Err(io::Error::other("the exchange cannot be undone")))?;
                Ok(Some(Err(changed)))
            }
        },
        Some(Err(error)) if error.kind() == io::ErrorKind::NotFound => {
            Ok(Some(Err(Changed { actual: None })))
        }
        Some(Err(error)) => Err(error),
        None => Ok(None),
    }
}

/// `Some` when the file at `path` does not hash to `expected` (hex, any case) or is gone.
fn changed_from(path: &Path, expected: &str) -> io::Result<Option<Changed>> {
    let mut options = OpenOptions::new();
    options.read(true);
    super::os::no_follow(&mut options, false);
    let bytes = match retry_busy(|| options.open(path)) {
        Ok(mut file) => {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes)?;
            bytes
        }
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            return Ok(Some(Changed { actual: None }));
        }
        Err(error) => return Err(error),
    };
    let actual = sha256_hex(&bytes);
    Ok((!actual.eq_ignore_ascii_case(expected)).then_some(Changed {
        actual: Some(actual),
    }))
}

/// Renames `from` to `to` unless `to` exists (`AlreadyExists` then), atomically.
pub(crate) fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    if let Some(renamed) = rename_atomic(from, to, AtExisting::Refuse) {
        return renamed;
    }
    // A hard link fails if the name exists; then the old name goes.
    fs::hard_link(from, to)?;
    fs::remove_file(from)
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
        // `create_new` never opens an existing name, a link included.
        match OpenOptions::new().write(true).create_new(true).open(&path) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guarded_write_over_a_file_that_changed_is_refused_and_leaves_it_alone() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("note.md");
        fs::write(&target, "theirs\n").unwrap();
        let read = sha256_hex(b"mine before\n");
        let outcome =
            write_file_unless_changed(&target, b"mine\n", None, Replace::Allowed, Some(&read));
        let changed = outcome.unwrap().unwrap_err();
        assert_eq!(changed.actual, Some(sha256_hex(b"theirs\n")));
        assert_eq!(fs::read_to_string(&target).unwrap(), "theirs\n");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temp file left"
        );
    }

    #[test]
    fn a_guarded_write_over_the_file_it_read_replaces_it() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("note.md");
        fs::write(&target, "old\n").unwrap();
        let read = sha256_hex(b"old\n");
        write_file_unless_changed(&target, b"new\n", None, Replace::Allowed, Some(&read))
            .unwrap()
            .unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new\n");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temp file left"
        );
    }

    /// The instant after the last check: a change that slipped in before the exchange is put
    /// back, the new bytes end at the temp name.
    #[cfg(any(target_os = "linux", target_os = "macos"))]
    #[test]
    fn a_change_that_slipped_in_before_the_exchange_is_put_back() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("note.md");
        let temp = dir.path().join(".otc-tmp-0000000000000000");
        fs::write(&target, "slipped in\n").unwrap();
        fs::write(&temp, "mine\n").unwrap();
        let checked = sha256_hex(b"as checked\n");
        // ext4, xfs, btrfs and tmpfs exchange names (Linux 3.15 and later), as APFS and HFS+ do.
        let outcome = exchange_unless_changed(&temp, &target, &checked)
            .unwrap()
            .expect("the temp folder's file system exchanges names");
        assert_eq!(
            outcome.unwrap_err().actual,
            Some(sha256_hex(b"slipped in\n"))
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "slipped in\n");
        assert_eq!(fs::read_to_string(&temp).unwrap(), "mine\n");
    }

    #[test]
    fn a_rename_onto_a_taken_name_is_refused_and_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (from, to) = (dir.path().join("a.md"), dir.path().join("b.md"));
        fs::write(&from, "a\n").unwrap();
        fs::write(&to, "b\n").unwrap();
        let error = rename_no_replace(&from, &to).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read_to_string(&from).unwrap(), "a\n");
        assert_eq!(fs::read_to_string(&to).unwrap(), "b\n");
    }

    #[test]
    fn a_rename_onto_a_free_name_moves_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let (from, to) = (dir.path().join("a.md"), dir.path().join("b.md"));
        fs::write(&from, "a\n").unwrap();
        rename_no_replace(&from, &to).unwrap();
        assert!(!from.exists());
        assert_eq!(fs::read_to_string(&to).unwrap(), "a\n");
    }
}
