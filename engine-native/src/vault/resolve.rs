//! Safe resolution of a requested vault-relative path to a real location inside the vault.
//!
//! Order: engine-core's lexical validation (NFC) and hard-deny on the path as written; on
//! Windows, the names Windows reads as something else (devices, trailing dots and spaces,
//! alternate data streams); then a walk from the vault root that matches each segment against
//! the names on disk (NFC or NFD spellings); then realpath of the part that exists, which must
//! stay under the vault root; then hard-deny again on the canonical vault-relative path, so a
//! symlink into `.obsidian` is refused like `.obsidian` itself. On Windows the canonical path
//! must also name the requested one (letter case aside): an 8.3 short name (`PRIVAT~1`) or a
//! junction inside the vault would otherwise reach a folder the ACL, which judged the path as
//! written, denies. Names the request would create must be names Windows can hold, on every
//! platform, so the vault stays usable where it syncs to.

use std::io;
use std::path::{Component, Path, PathBuf};

use engine_core::acl::{is_hard_denied, validate_path, windows_name_problem};

use super::error::VaultError;
use super::names::{find_entry, nfc_name};

/// A requested path resolved inside the vault.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    /// The canonical vault-relative path, NFC.
    pub rel: String,
    /// The absolute location: the canonical existing part plus the missing segments.
    pub abs: PathBuf,
    /// The segments (NFC) after the last one that exists on disk; empty when the path exists.
    pub missing: Vec<String>,
}

impl Resolved {
    /// Whether something exists at the path.
    pub fn exists(&self) -> bool {
        self.missing.is_empty()
    }
}

/// Resolves `path` under the canonical vault root `root`.
pub(crate) fn resolve(root: &Path, path: &str) -> Result<Resolved, VaultError> {
    let nfc = validate_path(path).map_err(|reason| VaultError::PathInvalid {
        path: path.to_owned(),
        reason,
    })?;
    if is_hard_denied(&nfc) {
        return Err(VaultError::HardDeny { path: nfc });
    }
    // Windows refuses its names on every segment; other platforms on those a call would
    // create (below), so that a vault synced to Windows stays usable there.
    if cfg!(windows) {
        check_windows_names(&nfc, nfc.split('/'))?;
    }
    let mut existing = root.to_path_buf();
    let mut missing = Vec::new();
    for segment in nfc.split('/') {
        if !missing.is_empty() {
            missing.push(segment.to_owned());
            continue;
        }
        match find_entry(&existing, segment) {
            Ok(Some(name)) => existing.push(name),
            Ok(None) => missing.push(segment.to_owned()),
            Err(error) if error.kind() == io::ErrorKind::NotADirectory => {
                return Err(VaultError::NotADirectory { path: nfc });
            }
            Err(error) => return Err(VaultError::io(&nfc, error)),
        }
    }
    if !cfg!(windows) {
        check_windows_names(&nfc, missing.iter().map(String::as_str))?;
    }
    let canonical = canonicalize_inside(root, &existing, &nfc)?;
    let mut rel = relative_text(root, &canonical);
    #[cfg(windows)]
    check_no_alias(&nfc, &rel, missing.len())?;
    let mut abs = canonical;
    for segment in &missing {
        if !rel.is_empty() {
            rel.push('/');
        }
        rel.push_str(segment);
        abs.push(segment);
    }
    if is_hard_denied(&rel) {
        return Err(VaultError::HardDeny { path: rel });
    }
    if rel.is_empty() {
        return Err(VaultError::IsDirectory { path: nfc });
    }
    Ok(Resolved { rel, abs, missing })
}

/// Refuses the first of `segments` (of the requested path `path`) that Windows cannot hold.
fn check_windows_names<'a>(
    path: &str,
    mut segments: impl Iterator<Item = &'a str>,
) -> Result<(), VaultError> {
    match segments.find_map(windows_name_problem) {
        Some(reason) => Err(VaultError::PathInvalid {
            path: path.to_owned(),
            reason,
        }),
        None => Ok(()),
    }
}

/// Refuses a request whose existing part resolved to other names than it gave (letter case
/// aside): an 8.3 short name, or a link inside the vault.
#[cfg(windows)]
fn check_no_alias(requested: &str, canonical: &str, missing: usize) -> Result<(), VaultError> {
    use engine_core::acl::casefold::eq_folded;
    let requested: Vec<&str> = requested.split('/').collect();
    let existing = &requested[..requested.len() - missing];
    let found: Vec<&str> = canonical.split('/').filter(|s| !s.is_empty()).collect();
    let same = found.len() == existing.len()
        && found
            .iter()
            .zip(existing)
            .all(|(found, asked)| eq_folded(found, asked));
    if same {
        Ok(())
    } else {
        Err(VaultError::Alias {
            path: requested.join("/"),
            actual: canonical.to_owned(),
        })
    }
}

/// The realpath of `existing`, refused unless it lies under `root`.
fn canonicalize_inside(
    root: &Path,
    existing: &Path,
    requested: &str,
) -> Result<PathBuf, VaultError> {
    let escapes = || VaultError::EscapesVault {
        path: requested.to_owned(),
    };
    match existing.canonicalize() {
        Ok(canonical) if canonical.starts_with(root) => Ok(canonical),
        Ok(_) => Err(escapes()),
        // Every segment was found by lstat, so a missing target is a dangling symlink.
        Err(error) if error.kind() == io::ErrorKind::NotFound => Err(escapes()),
        Err(error) if error.kind() == io::ErrorKind::NotADirectory => {
            Err(VaultError::NotADirectory {
                path: requested.to_owned(),
            })
        }
        Err(error) => Err(VaultError::io(requested, error)),
    }
}

/// The NFC vault-relative text of `abs`, which lies under `root` (names that are not UTF-8
/// are replaced lossily; such a path can only be reported, never requested).
pub(crate) fn relative_text(root: &Path, abs: &Path) -> String {
    let Ok(rest) = abs.strip_prefix(root) else {
        return String::new();
    };
    let segments: Vec<String> = rest
        .components()
        .filter_map(|component| match component {
            Component::Normal(name) => {
                Some(nfc_name(name).unwrap_or_else(|| name.to_string_lossy().into_owned()))
            }
            _ => None,
        })
        .collect();
    segments.join("/")
}
