//! Moving the cache an older build kept inside the vault (`<vault>/.obsidian-tc/cache.db`, its
//! `-wal`/`-shm` and `traces/`) to the platform cache folder, once.

use std::path::{Path, PathBuf};

use crate::sessions::TRACES_DIR;
use crate::store::CACHE_DB_FILE;
use crate::vault_cache::relocate::move_tree;
use crate::vault_cache::{VaultCacheError, in_use};

/// What became of an in-vault cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Migration {
    /// There was none, or the new folder has its own database already.
    Nothing,
    /// It moved to the new folder.
    Moved,
    /// Another process has it open: it serves this run where it is.
    InUse,
    /// The new folder has a database and an older one is left in the vault, unused.
    Stale(PathBuf),
}

/// Moves the cache in `old` (a vault's `.obsidian-tc`) into `new` unless `new` has a database
/// already or another process has the old one open. The database moves last: until it has
/// moved, the next start sees none in `new` and finishes the move.
pub fn migrate(old: &Path, new: &Path) -> Result<Migration, VaultCacheError> {
    let old_db = old.join(CACHE_DB_FILE);
    if !old_db.is_file() {
        return Ok(Migration::Nothing);
    }
    if new.join(CACHE_DB_FILE).exists() {
        return Ok(Migration::Stale(old_db));
    }
    if in_use(old)? {
        return Ok(Migration::InUse);
    }
    // the probe checkpointed the WAL and removed -wal/-shm; a file system without shared
    // memory keeps them, and they go before the database
    let db = CACHE_DB_FILE;
    for name in [TRACES_DIR, &format!("{db}-wal"), &format!("{db}-shm"), db] {
        let from = old.join(name);
        if from.exists() {
            let kept = move_tree(&from, &new.join(name))
                .map_err(|e| VaultCacheError::io("move", &from, e))?;
            if let Some(first) = kept.first() {
                tracing::warn!(
                    "{} was not moved: {} already has one; remove it once you have checked",
                    first.display(),
                    new.display()
                );
            }
        }
    }
    Ok(Migration::Moved)
}
