//! Deleting files: by default into `<vault>/.trash/` under the same relative path, never
//! over an earlier trash entry (`note.md`, then `note 1.md`, `note 2.md`, …).

use std::fs;
use std::io;
use std::path::Path;

use super::atomic::{parent_of, rename_no_replace};
use super::error::VaultError;
use super::folders::ensure_folders;
use super::handle::Vault;
use super::os::{retry_busy_rename, sync_dir};

/// The trash folder at the vault root (Obsidian's own "move to .trash" location).
const TRASH_DIR: &str = ".trash";

impl Vault {
    /// Moves the file at `path` into the vault's `.trash/` and returns its vault-relative
    /// path there. `expected_sha256` guards against deleting content the caller never saw.
    pub fn trash(&self, path: &str, expected_sha256: Option<&str>) -> Result<String, VaultError> {
        self.queue_path(path);
        // A path that does not resolve is refused before any lock (nothing is touched).
        let source = self.resolve(path)?;
        let _guard = self.lock_mutations(&source.rel)?;
        if !source.exists() {
            return Err(VaultError::NotFound { path: source.rel });
        }
        self.check_target(&source, expected_sha256)?;
        self.remember(&source);
        let mut segments: Vec<String> = source.rel.split('/').map(str::to_owned).collect();
        let name = segments.pop().unwrap_or_default();
        let mut folders = vec![TRASH_DIR.to_owned()];
        folders.extend(segments);
        let trash_dir = ensure_folders(self.root(), &folders, &source.rel)?;
        let mut attempt = 0u32;
        loop {
            let candidate = numbered_name(&name, attempt);
            match rename_no_replace(&source.abs, &trash_dir.join(&candidate)) {
                Ok(()) => {
                    self.sync_parent(&source.abs, &source.rel)?;
                    sync_dir(&trash_dir).map_err(|error| VaultError::io(&source.rel, error))?;
                    let mut trashed = folders.join("/");
                    trashed.push('/');
                    trashed.push_str(&candidate);
                    return Ok(trashed);
                }
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                    attempt = attempt.saturating_add(1);
                }
                Err(error) => return Err(VaultError::io(&source.rel, error)),
            }
        }
    }

    /// Deletes the file at `path` for good (the explicit alternative to [`Vault::trash`]).
    pub fn remove(&self, path: &str, expected_sha256: Option<&str>) -> Result<(), VaultError> {
        self.queue_path(path);
        // A path that does not resolve is refused before any lock (nothing is touched).
        let target = self.resolve(path)?;
        let _guard = self.lock_mutations(&target.rel)?;
        if !target.exists() {
            return Err(VaultError::NotFound { path: target.rel });
        }
        self.check_target(&target, expected_sha256)?;
        self.remember(&target);
        retry_busy_rename(|| fs::remove_file(&target.abs))
            .map_err(|error| VaultError::io(&target.rel, error))?;
        self.sync_parent(&target.abs, &target.rel)
    }

    /// Flushes the folder holding `abs` after a name in it changed.
    pub(crate) fn sync_parent(&self, abs: &Path, rel: &str) -> Result<(), VaultError> {
        parent_of(abs)
            .and_then(sync_dir)
            .map_err(|error| VaultError::io(rel, error))
    }
}

/// `name` for the first attempt, then `stem N.ext` (`note 1.md`); a leading dot is not an
/// extension separator.
fn numbered_name(name: &str, attempt: u32) -> String {
    if attempt == 0 {
        return name.to_owned();
    }
    match name.rfind('.').filter(|&dot| dot > 0) {
        Some(dot) => format!("{} {attempt}{}", &name[..dot], &name[dot..]),
        None => format!("{name} {attempt}"),
    }
}
