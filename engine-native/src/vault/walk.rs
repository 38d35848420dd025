//! The vault walk shared by listing and temp-file cleanup: every entry of every visited
//! folder, descending only into real folders (not symlinks) whose names do not start with
//! `.` (so `.obsidian`, `.trash`, `.git` and `.obsidian-tc` are never entered).

use std::ffi::OsString;
use std::fs::{self, Metadata};
use std::io;
use std::path::{Path, PathBuf};

/// One entry met by the walk, with its `lstat`.
pub(crate) struct WalkEntry {
    /// Absolute path.
    pub abs: PathBuf,
    /// The name on disk.
    pub name: OsString,
    /// `lstat` of the entry (a symlink is reported as a symlink).
    pub metadata: Metadata,
}

/// Calls `visit` for every entry under `start`. Entries that vanish while walking are
/// skipped; other errors end the walk.
pub(crate) fn walk(start: &Path, visit: &mut dyn FnMut(&WalkEntry)) -> io::Result<()> {
    let mut pending = vec![start.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == io::ErrorKind::NotFound && dir != start => continue,
            Err(error) => return Err(error),
        };
        for entry in entries {
            let entry = entry?;
            let metadata = match entry.metadata() {
                Ok(metadata) => metadata,
                Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
                Err(error) => return Err(error),
            };
            let walked = WalkEntry {
                abs: entry.path(),
                name: entry.file_name(),
                metadata,
            };
            visit(&walked);
            let hidden = walked.name.as_encoded_bytes().starts_with(b".");
            if walked.metadata.is_dir() && !hidden {
                pending.push(walked.abs);
            }
        }
    }
    Ok(())
}
