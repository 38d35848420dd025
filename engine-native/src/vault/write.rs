//! Writing a whole file: preconditions, missing parent folders, then the atomic replace.

use std::fs::Permissions;
use std::io;
use std::path::PathBuf;

use engine_core::hash::sha256_hex;

use super::atomic::{Replace, write_file_unless_changed};
use super::error::VaultError;
use super::folders::ensure_folders;
use super::handle::Vault;
use super::resolve::Resolved;

/// How a write (or a move or copy onto a destination) may proceed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// Replace an existing destination; without it an existing one is `AlreadyExists`.
    pub overwrite: bool,
    /// The SHA-256 the caller last read: of the target for a write, of the source for a
    /// move or copy. A different current content is `ConcurrentModification`.
    pub expected_sha256: Option<String>,
}

/// What a write did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOutcome {
    /// The canonical vault-relative path written, NFC.
    pub path: String,
    /// The SHA-256 of the new content.
    pub sha256: String,
    /// Whether the file did not exist before.
    pub created: bool,
}

impl Vault {
    /// Writes `bytes` to `path` atomically, creating missing parent folders. An existing
    /// file keeps its permission bits.
    pub fn write(
        &self,
        path: &str,
        bytes: &[u8],
        options: &WriteOptions,
    ) -> Result<WriteOutcome, VaultError> {
        self.queue_path(path);
        // A path that does not resolve is refused before any lock (nothing is touched).
        let target = self.resolve(path)?;
        let _guard = self.lock_mutations(&target.rel)?;
        if target.exists() && !options.overwrite {
            return Err(VaultError::AlreadyExists { path: target.rel });
        }
        let existing_mode = self.check_target(&target, options.expected_sha256.as_deref())?;
        let replace = match existing_mode {
            Some(_) => Replace::Allowed,
            None => Replace::Refused,
        };
        let unchanged = options.expected_sha256.as_deref();
        self.write_resolved(&target, bytes, existing_mode, replace, unchanged)
    }

    /// Writes to a resolved, already checked target with the permissions `mode` (`None`:
    /// the process default); `replace` says whether an existing file may be replaced, and
    /// `unchanged` what it must still hash to when it is (checked again at the rename).
    pub(crate) fn write_resolved(
        &self,
        target: &Resolved,
        bytes: &[u8],
        mode: Option<Permissions>,
        replace: Replace,
        unchanged: Option<&str>,
    ) -> Result<WriteOutcome, VaultError> {
        self.remember(target);
        let abs = self.prepare_parent(target)?;
        write_file_unless_changed(&abs, bytes, mode, replace, unchanged)
            .map_err(|error| match error.kind() {
                io::ErrorKind::AlreadyExists => VaultError::AlreadyExists {
                    path: target.rel.clone(),
                },
                _ => VaultError::io(&target.rel, error),
            })?
            .map_err(|changed| VaultError::ConcurrentModification {
                path: target.rel.clone(),
                expected: unchanged.unwrap_or_default().to_owned(),
                actual: changed.actual,
            })?;
        Ok(WriteOutcome {
            path: target.rel.clone(),
            sha256: sha256_hex(bytes),
            created: replace == Replace::Refused,
        })
    }

    /// Creates the target's missing parent folders and returns its absolute path.
    pub(crate) fn prepare_parent(&self, target: &Resolved) -> Result<PathBuf, VaultError> {
        let Some((name, folders)) = target.missing.split_last() else {
            return Ok(target.abs.clone());
        };
        let mut existing = target.abs.clone();
        for _ in 0..target.missing.len() {
            existing.pop();
        }
        let mut abs = ensure_folders(&existing, folders, &target.rel)?;
        abs.push(name);
        Ok(abs)
    }
}
