//! The two files that tie a vault to its cache folder: the vault's `vault-id` (in
//! `<vault>/.obsidian-tc/`, a random id written once, tiny and safe to sync) and the cache
//! folder's `vault.json` (the id it serves and the path the vault was at).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config::CACHE_DIR_NAME;
use crate::store::new_vault_id;
use crate::vault_cache::VaultCacheError;

/// The file in `<vault>/.obsidian-tc/` naming the vault.
pub const VAULT_ID_FILE: &str = "vault-id";

/// The file in a platform cache folder naming the vault it serves.
pub const RECORD_FILE: &str = "vault.json";

/// What a cache folder's `vault.json` says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Record {
    /// The `vault-id` of the vault this folder serves.
    pub vault_id: String,
    /// The vault's folder when it last started.
    pub path: PathBuf,
}

/// The `vault-id` file of the vault at `vault`.
pub fn id_file(vault: &Path) -> PathBuf {
    vault.join(CACHE_DIR_NAME).join(VAULT_ID_FILE)
}

/// The id in the vault's `vault-id` file, `None` when there is none.
pub fn read_id(vault: &Path) -> Result<Option<String>, VaultCacheError> {
    let file = id_file(vault);
    match std::fs::read_to_string(&file) {
        Ok(text) => {
            let id = text.trim();
            if id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()) {
                Ok(Some(id.to_ascii_lowercase()))
            } else {
                Err(VaultCacheError::BadFile {
                    path: file,
                    problem: "is not a vault id (32 hex digits): remove it, a new one is made"
                        .to_owned(),
                })
            }
        }
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(VaultCacheError::io("read", &file, error)),
    }
}

/// The vault's id: the one in its `vault-id` file, else `wanted` (or a new random id) written
/// there. The file appears whole or not at all (written beside it, then linked into place
/// without replacing): of two processes starting at once, the second reads the first's id,
/// and a crash never leaves an empty file.
pub fn ensure_id(vault: &Path, wanted: Option<&str>) -> Result<String, VaultCacheError> {
    if let Some(id) = read_id(vault)? {
        return Ok(id);
    }
    let id = match wanted {
        Some(id) => id.to_owned(),
        None => new_vault_id().map_err(VaultCacheError::Random)?,
    };
    let file = id_file(vault);
    let temp = staged(&file, format!("{id}\n").as_bytes())?;
    match temp.persist_noclobber(&file) {
        Ok(_) => Ok(id),
        Err(error) if error.error.kind() == io::ErrorKind::AlreadyExists => read_id(vault)?
            .ok_or_else(|| VaultCacheError::io("read", &file, io::ErrorKind::NotFound.into())),
        Err(error) => Err(VaultCacheError::io("create", &file, error.error)),
    }
}

/// Gives the vault a new random id (it is a copy of another vault), replacing its file.
pub fn renew_id(vault: &Path) -> Result<String, VaultCacheError> {
    let id = new_vault_id().map_err(VaultCacheError::Random)?;
    replace(&id_file(vault), format!("{id}\n").as_bytes())?;
    Ok(id)
}

/// Whether the folder `path` holds a vault whose id is `id`.
pub fn holds(path: &Path, id: &str) -> bool {
    matches!(read_id(path), Ok(Some(found)) if found == id)
}

/// The `vault.json` of the cache folder `dir`, `None` when it has none.
pub fn read_record(dir: &Path) -> Result<Option<Record>, VaultCacheError> {
    let file = dir.join(RECORD_FILE);
    match std::fs::read(&file) {
        Ok(bytes) => {
            serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| VaultCacheError::BadFile {
                    path: file,
                    problem: format!("is not a vault record ({e}): remove it"),
                })
        }
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(VaultCacheError::io("read", &file, error)),
    }
}

/// Writes `record` as the `vault.json` of `dir` (created if needed), replacing it whole.
pub fn write_record(dir: &Path, record: &Record) -> Result<(), VaultCacheError> {
    let text = serde_json::to_vec_pretty(record)
        .unwrap_or_else(|e| unreachable!("a record always serializes: {e}"));
    replace(&dir.join(RECORD_FILE), &text)
}

/// Writes `bytes` to a temporary file beside `file`, then renames it over `file`.
fn replace(file: &Path, bytes: &[u8]) -> Result<(), VaultCacheError> {
    staged(file, bytes)?
        .persist(file)
        .map_err(|error| VaultCacheError::io("replace", file, error.error))?;
    Ok(())
}

/// A temporary file beside `file` (its folder created if needed) holding `bytes`.
fn staged(file: &Path, bytes: &[u8]) -> Result<tempfile::NamedTempFile, VaultCacheError> {
    create_parent(file)?;
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut temp = tempfile::NamedTempFile::new_in(dir)
        .map_err(|error| VaultCacheError::io("create a file in", dir, error))?;
    temp.write_all(bytes)
        .map_err(|error| VaultCacheError::io("write", temp.path(), error))?;
    Ok(temp)
}

fn create_parent(file: &Path) -> Result<(), VaultCacheError> {
    let dir = file.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|error| VaultCacheError::io("create", dir, error))
}
