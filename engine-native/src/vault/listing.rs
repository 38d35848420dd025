//! Listing the vault: vault-relative NFC paths with kind, size, modification and change
//! times.
//! Dot-segment entries (control folders, temp files) are skipped, and so is every symlink
//! that leads outside the vault, into a control folder, or to a folder (whose content is
//! listed where it really lives). With the hard-link guard on, a file with more than one
//! hard link is not listed either: every read of it is refused.

use std::fs;

use engine_core::acl::{is_hard_denied, validate_path};

use super::atomic::is_temp_name;
use super::error::VaultError;
use super::handle::Vault;
use super::names::nfc_name;
use super::os;
use super::read::modified_ms;
use super::resolve::relative_text;
use super::walk::{WalkEntry, walk};

/// What a listed entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A file (or a symlink to a file inside the vault).
    File,
    /// A folder.
    Directory,
}

/// One listed entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Vault-relative path, NFC.
    pub path: String,
    /// File or folder.
    pub kind: EntryKind,
    /// Size in bytes (0 for a folder).
    pub size: u64,
    /// Last modification, milliseconds since the Unix epoch.
    pub modified_ms: i64,
    /// Last change of the file or its metadata (`ctime`: every write, rename and `touch`
    /// moves it, and no program can set it back), nanoseconds since the Unix epoch.
    pub changed_ns: i64,
}

/// How recent a change is too recent to trust a stamp: a file written twice within one tick
/// of the file system's clock, with the same size, keeps its first stamp.
const RACY_MS: i64 = 3_000;

/// The time (Unix milliseconds) from which on a listed stamp is too recent to trust: such a
/// file may have changed again since without its stamp showing it (git's "racily clean"
/// entries), so whoever keeps something by stamp reads it again instead.
pub fn racy_since() -> i64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(i64::MAX, |d| {
            i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
        });
    now.saturating_sub(RACY_MS)
}

/// A file's size and change times as the file system reports them: while it stays the same
/// and is [`settled`](ChangeStamp::settled), what was read under it still holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangeStamp {
    /// Size in bytes.
    pub size: u64,
    /// Last modification, milliseconds since the Unix epoch.
    pub modified_ms: i64,
    /// Last change of the file or its metadata, nanoseconds since the Unix epoch.
    pub changed_ns: i64,
}

impl ChangeStamp {
    /// The stamp of a listed entry.
    pub fn of(entry: &Entry) -> ChangeStamp {
        ChangeStamp {
            size: entry.size,
            modified_ms: entry.modified_ms,
            changed_ns: entry.changed_ns,
        }
    }

    /// The stamp of a file's metadata.
    pub fn of_metadata(metadata: &std::fs::Metadata) -> ChangeStamp {
        ChangeStamp {
            size: metadata.len(),
            modified_ms: modified_ms(metadata),
            changed_ns: os::changed_ns(metadata),
        }
    }

    /// Whether the file last changed before `racy_since` (Unix ms, see [`racy_since`]): only
    /// then does an equal stamp prove the file unchanged.
    pub fn settled(self, racy_since: i64) -> bool {
        self.modified_ms < racy_since && self.changed_ns.div_euclid(1_000_000) < racy_since
    }
}

impl Vault {
    /// Lists everything under `folder` (the whole vault with `None`), sorted by path.
    pub fn list(&self, folder: Option<&str>) -> Result<Vec<Entry>, VaultError> {
        let start = match folder {
            None => self.root().to_path_buf(),
            Some(folder) => {
                let resolved = self.resolve(folder)?;
                if !resolved.exists() {
                    return Err(VaultError::NotFound { path: resolved.rel });
                }
                if !resolved.abs.is_dir() {
                    return Err(VaultError::NotADirectory { path: resolved.rel });
                }
                resolved.abs
            }
        };
        let shown = folder.unwrap_or("");
        let mut entries = Vec::new();
        walk(&start, &mut |walked| {
            if let Some(entry) = self.listed(walked) {
                entries.push(entry);
            }
        })
        .map_err(|error| VaultError::io(shown, error))?;
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(entries)
    }

    /// The listing entry for a walked entry, or `None` when it is not listed.
    fn listed(&self, walked: &WalkEntry) -> Option<Entry> {
        let name = nfc_name(&walked.name)?;
        if name.starts_with('.') || is_temp_name(&name) {
            return None;
        }
        let parent = walked.abs.parent()?;
        let mut path = relative_text(self.root(), parent);
        if !path.is_empty() {
            path.push('/');
        }
        path.push_str(&name);
        // A name that cannot be requested (a backslash, a control character) is not listed.
        if validate_path(&path).is_err() {
            return None;
        }
        let (metadata, link_target) = if walked.metadata.file_type().is_symlink() {
            let target = fs::canonicalize(&walked.abs).ok()?;
            if !target.starts_with(self.root())
                || is_hard_denied(&relative_text(self.root(), &target))
            {
                return None;
            }
            let metadata = fs::metadata(&target).ok()?;
            if !metadata.is_file() {
                return None;
            }
            (metadata, Some(target))
        } else {
            (walked.metadata.clone(), None)
        };
        let real = link_target.as_deref().unwrap_or(&walked.abs);
        let kind = if metadata.is_dir() {
            EntryKind::Directory
        } else if metadata.is_file() {
            if self.options().hard_link_guard && os::link_count(real, None, &metadata).ok()? > 1 {
                return None;
            }
            EntryKind::File
        } else {
            return None;
        };
        Some(Entry {
            path,
            kind,
            size: if kind == EntryKind::File {
                metadata.len()
            } else {
                0
            },
            modified_ms: modified_ms(&metadata),
            changed_ns: os::changed_ns(&metadata),
        })
    }
}
