//! Removing temp files left by an interrupted atomic write (a crash or a kill between
//! creating the temp file and renaming it). They are never visible in listings; this frees
//! their space.

use std::ffi::OsStr;
use std::fs::{self, Metadata};
use std::io;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use super::atomic::is_temp_name;
use super::error::VaultError;
use super::handle::Vault;
use super::resolve::relative_text;
use super::walk::walk;

/// The one control folder that receives atomic writes (to its two exempt files).
const OBSIDIAN_DIR: &str = ".obsidian";

impl Vault {
    /// Deletes this module's temp files last modified at least `min_age` before `now` (a
    /// younger one may belong to a write in progress) and returns their vault-relative paths.
    pub fn remove_stale_temp_files(
        &self,
        now: SystemTime,
        min_age: Duration,
    ) -> Result<Vec<String>, VaultError> {
        // Another process's temp file is younger than `min_age`: this process's lock is enough.
        let _guard = self.lock_in_process();
        let is_stale = |name: &OsStr, metadata: &Metadata| {
            let age = metadata
                .modified()
                .ok()
                .and_then(|modified| now.duration_since(modified).ok())
                .unwrap_or(Duration::ZERO);
            name.to_str().is_some_and(is_temp_name) && metadata.is_file() && age >= min_age
        };
        let mut stale: Vec<PathBuf> = Vec::new();
        walk(self.root(), &mut |walked| {
            if is_stale(&walked.name, &walked.metadata) {
                stale.push(walked.abs.clone());
            }
        })
        .map_err(|error| VaultError::io("", error))?;
        let obsidian = self.root().join(OBSIDIAN_DIR);
        if obsidian
            .symlink_metadata()
            .is_ok_and(|metadata| metadata.is_dir())
        {
            let io_error = |error| VaultError::io(OBSIDIAN_DIR, error);
            for entry in fs::read_dir(&obsidian).map_err(io_error)? {
                let entry = entry.map_err(io_error)?;
                if entry
                    .metadata()
                    .is_ok_and(|metadata| is_stale(&entry.file_name(), &metadata))
                {
                    stale.push(entry.path());
                }
            }
        }
        let mut removed = Vec::new();
        for abs in stale {
            let rel = relative_text(self.root(), &abs);
            match fs::remove_file(&abs) {
                Ok(()) => removed.push(rel),
                Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                Err(error) => return Err(VaultError::io(&rel, error)),
            }
        }
        removed.sort();
        Ok(removed)
    }
}
