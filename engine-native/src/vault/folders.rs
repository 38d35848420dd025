//! Creating the missing folders of a path, one at a time, each checked to be a real folder
//! (never a symlink) so nothing created later can land outside the vault.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::error::VaultError;
use super::os::sync_dir;

/// Creates `base/segments[0]/segments[1]/…` as needed and returns the deepest folder.
/// `rel` names the request in errors.
pub(crate) fn ensure_folders(
    base: &Path,
    segments: &[String],
    rel: &str,
) -> Result<PathBuf, VaultError> {
    let mut dir = base.to_path_buf();
    for segment in segments {
        let parent = dir.clone();
        dir.push(segment);
        let created = match fs::create_dir(&dir) {
            Ok(()) => true,
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => false,
            Err(error) => return Err(VaultError::io(rel, error)),
        };
        let metadata = dir
            .symlink_metadata()
            .map_err(|error| VaultError::io(rel, error))?;
        if metadata.file_type().is_symlink() {
            return Err(VaultError::EscapesVault {
                path: rel.to_owned(),
            });
        }
        if !metadata.is_dir() {
            return Err(VaultError::NotADirectory {
                path: rel.to_owned(),
            });
        }
        if created {
            sync_dir(&parent).map_err(|error| VaultError::io(rel, error))?;
        }
    }
    Ok(dir)
}
