//! Moving a file or folder to another place, on the same file system or not: a rename where
//! it can (atomic), else a copy to a temporary name beside the destination, renamed into place,
//! and only then the source removed — so the destination is whole or absent, never half.
//!
//! Hand-written: `fs_extra` copies folders but does not stage the copy under a temporary name;
//! the rest is the standard library.

use std::io;
use std::path::{Path, PathBuf};

/// Moves `from` to `to` (which must not exist unless both are folders). Two folders merge:
/// each entry moves in turn, an entry already at the destination staying as it is there and
/// in the source. Returns the entries left in the source that way.
pub fn move_tree(from: &Path, to: &Path) -> io::Result<Vec<PathBuf>> {
    if to.is_dir() && from.is_dir() {
        let mut kept = Vec::new();
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            kept.extend(move_tree(&entry.path(), &to.join(entry.file_name()))?);
        }
        if kept.is_empty() {
            std::fs::remove_dir(from)?;
        }
        return Ok(kept);
    }
    if to.exists() {
        return Ok(vec![from.to_path_buf()]);
    }
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)?;
    }
    match std::fs::rename(from, to) {
        Ok(()) => Ok(Vec::new()),
        Err(error) if error.kind() == io::ErrorKind::CrossesDevices => {
            copy_then_remove(from, to)?;
            Ok(Vec::new())
        }
        Err(error) => Err(error),
    }
}

/// The copy across file systems: into `<to>.partial`, renamed to `to`, then `from` removed.
fn copy_then_remove(from: &Path, to: &Path) -> io::Result<()> {
    let mut staged = to.as_os_str().to_owned();
    staged.push(".partial");
    let staged = PathBuf::from(staged);
    remove(&staged).or_else(|e| (e.kind() == io::ErrorKind::NotFound).then_some(()).ok_or(e))?;
    copy(from, &staged)?;
    std::fs::rename(&staged, to)?;
    remove(from)
}

fn copy(from: &Path, to: &Path) -> io::Result<()> {
    if from.is_dir() {
        std::fs::create_dir_all(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            copy(&entry.path(), &to.join(entry.file_name()))?;
        }
        Ok(())
    } else {
        std::fs::copy(from, to).map(drop)
    }
}

fn remove(path: &Path) -> io::Result<()> {
    if path.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    }
}
