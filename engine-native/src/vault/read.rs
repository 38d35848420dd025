//! Reading a file through one opened descriptor: opened without following a symlink, then
//! checked (`fstat`) and read on that same descriptor, so what is checked is what is read.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;
use std::time::UNIX_EPOCH;

use engine_core::hash::sha256_hex;

use super::error::VaultError;
use super::handle::Vault;
use super::os;
use super::queue::Access;

/// A file read from the vault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteFile {
    /// The canonical vault-relative path, NFC.
    pub path: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// The SHA-256 of `bytes`, lowercase hex (what `expected_sha256` compares against).
    pub sha256: String,
    /// Last modification, milliseconds since the Unix epoch.
    pub modified_ms: i64,
}

impl Vault {
    /// Reads the file at `path`.
    pub fn read(&self, path: &str) -> Result<NoteFile, VaultError> {
        let resolved = self.resolve(path)?;
        self.queue_note(&resolved.rel, Access::Read);
        if !resolved.exists() {
            return Err(VaultError::NotFound { path: resolved.rel });
        }
        let (mut file, metadata) = self.open_regular(&resolved.abs, &resolved.rel)?;
        let bytes = read_all(&mut file, &metadata, &resolved.rel)?;
        Ok(NoteFile {
            sha256: sha256_hex(&bytes),
            modified_ms: modified_ms(&metadata),
            path: resolved.rel,
            bytes,
        })
    }

    /// Opens the regular file at `abs` for reading and returns it with its `fstat`; refuses
    /// a symlink, a folder, a special file and (with the guard on) a hard-linked file.
    pub(crate) fn open_regular(
        &self,
        abs: &Path,
        rel: &str,
    ) -> Result<(File, Metadata), VaultError> {
        // A FIFO does not hang the open; it is refused just below.
        let file = os::open_read_no_follow(abs).map_err(|error| {
            if os::is_link_refusal(&error) {
                VaultError::EscapesVault {
                    path: rel.to_owned(),
                }
            } else if error.kind() == io::ErrorKind::NotFound {
                VaultError::NotFound {
                    path: rel.to_owned(),
                }
            } else {
                VaultError::io(rel, error)
            }
        })?;
        let metadata = file
            .metadata()
            .map_err(|error| VaultError::io(rel, error))?;
        if os::is_link(&metadata) {
            return Err(VaultError::EscapesVault {
                path: rel.to_owned(),
            });
        }
        if metadata.is_dir() {
            return Err(VaultError::IsDirectory {
                path: rel.to_owned(),
            });
        }
        if !metadata.is_file() {
            return Err(VaultError::NotRegularFile {
                path: rel.to_owned(),
            });
        }
        if self.options().hard_link_guard {
            let links = os::link_count(abs, Some(&file), &metadata)
                .map_err(|error| VaultError::io(rel, error))?;
            if links > 1 {
                return Err(VaultError::HardLink {
                    path: rel.to_owned(),
                    links,
                });
            }
        }
        Ok((file, metadata))
    }
}

/// All bytes of an opened file.
pub(crate) fn read_all(
    file: &mut File,
    metadata: &Metadata,
    rel: &str,
) -> Result<Vec<u8>, VaultError> {
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.read_to_end(&mut bytes)
        .map_err(|error| VaultError::io(rel, error))?;
    Ok(bytes)
}

/// The modification time in milliseconds since the Unix epoch (negative before it).
pub(crate) fn modified_ms(metadata: &Metadata) -> i64 {
    let Ok(modified) = metadata.modified() else {
        return 0;
    };
    match modified.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_millis()).unwrap_or(i64::MAX),
        Err(before) => -i64::try_from(before.duration().as_millis()).unwrap_or(i64::MAX),
    }
}
