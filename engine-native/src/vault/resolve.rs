//! Safe resolution of a requested vault-relative path to a real location inside the vault.
//!
//! Order: engine-core's lexical validation (NFC) and hard-deny on the path as written; then
//! a walk from the vault root that matches each segment against the names on disk (NFC or
//! NFD spellings); then realpath of the part that exists, which must stay under the vault
//! root; then hard-deny again on the canonical vault-relative path, so a symlink into
//! `.obsidian` is refused like `.obsidian` itself.

use std::io;
use std::path::{Component, Path, PathBuf};

use engine_core::acl::{is_hard_denied, validate_path};

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
    let canonical = canonicalize_inside(root, &existing, &nfc)?;
    let mut rel = relative_text(root, &canonical);
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
