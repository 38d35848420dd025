//! Moving and copying files inside the vault, never over an existing file unless asked.

use std::fs;
use std::io;

use engine_core::hash::sha256_hex;

use super::atomic::{Replace, rename_no_replace};
use super::error::VaultError;
use super::handle::Vault;
use super::os::retry_busy_rename;
use super::precondition::verify_sha256;
use super::read::read_all;
use super::write::{WriteOptions, WriteOutcome};

impl Vault {
    /// Moves (renames) the file at `from` to `to`, creating missing folders, and returns the
    /// new vault-relative path. `options.expected_sha256` is checked against the source.
    pub fn move_file(
        &self,
        from: &str,
        to: &str,
        options: &WriteOptions,
    ) -> Result<String, VaultError> {
        self.queue_path(from);
        self.queue_path(to);
        // A path that does not resolve is refused before any lock (nothing is touched).
        let source = self.resolve(from)?;
        let _guard = self.lock_mutations(&source.rel)?;
        if !source.exists() {
            return Err(VaultError::NotFound { path: source.rel });
        }
        self.check_target(&source, options.expected_sha256.as_deref())?;
        let destination = self.resolve(to)?;
        if destination.abs == source.abs {
            return Ok(destination.rel);
        }
        if destination.exists() {
            if !options.overwrite {
                return Err(VaultError::AlreadyExists {
                    path: destination.rel,
                });
            }
            self.check_target(&destination, None)?;
        }
        self.remember(&source);
        self.remember(&destination);
        let abs = self.prepare_parent(&destination)?;
        let renamed = super::fault::check(&source.abs)
            .and_then(|()| super::fault::check(&abs))
            .and_then(|()| {
                if destination.exists() {
                    retry_busy_rename(|| fs::rename(&source.abs, &abs))
                } else {
                    rename_no_replace(&source.abs, &abs)
                }
            });
        renamed.map_err(|error| match error.kind() {
            io::ErrorKind::AlreadyExists => VaultError::AlreadyExists {
                path: destination.rel.clone(),
            },
            _ => VaultError::io(&source.rel, error),
        })?;
        self.sync_parent(&abs, &destination.rel)?;
        self.sync_parent(&source.abs, &source.rel)?;
        Ok(destination.rel)
    }

    /// Copies the file at `from` to `to` atomically; a new file gets the source's permission
    /// bits, a replaced one keeps its own. `options.expected_sha256` is checked against the
    /// source.
    pub fn copy_file(
        &self,
        from: &str,
        to: &str,
        options: &WriteOptions,
    ) -> Result<WriteOutcome, VaultError> {
        self.queue_path(from);
        self.queue_path(to);
        // A path that does not resolve is refused before any lock (nothing is touched).
        let source = self.resolve(from)?;
        let _guard = self.lock_mutations(&source.rel)?;
        if !source.exists() {
            return Err(VaultError::NotFound { path: source.rel });
        }
        let (mut file, metadata) = self.open_regular(&source.abs, &source.rel)?;
        let bytes = read_all(&mut file, &metadata, &source.rel)?;
        let actual = sha256_hex(&bytes);
        verify_sha256(&source.rel, &actual, options.expected_sha256.as_deref())?;
        let destination = self.resolve(to)?;
        if destination.exists() && !options.overwrite {
            return Err(VaultError::AlreadyExists {
                path: destination.rel,
            });
        }
        let existing_mode = self.check_target(&destination, None)?;
        if destination.abs == source.abs {
            return Ok(WriteOutcome {
                path: destination.rel,
                sha256: actual,
                created: false,
            });
        }
        let (mode, replace) = match existing_mode {
            Some(mode) => (mode, Replace::Allowed),
            None => (metadata.permissions(), Replace::Refused),
        };
        self.write_resolved(&destination, &bytes, Some(mode), replace, None)
    }
}
