//! Where a zero-config vault's cache folder is, at each start ([`place`]).
//!
//! The loader names the folder from the vault's canonical path ([`CacheHome`]). The cache holds
//! what no rescan rebuilds — the pending captures (`capture_queue`), the undo snapshots, the
//! audit log (`event_log`, `event_paths`), pending approvals and idempotency keys, and the
//! session traces (`traces/`) — so it must be found again when the vault folder is moved or
//! renamed, and never shared by two copies of a vault:
//!
//! - the vault carries a random id in `<vault>/.obsidian-tc/vault-id`, written once (tiny,
//!   safe to sync); each cache folder records in `vault.json` the id it serves and the path;
//! - a start whose path has no folder looks for the folder of its id: when the path that
//!   folder recorded no longer holds the vault, the vault moved and the folder is adopted
//!   (renamed to the new key); when it still does, this vault is a copy and gets a new id and
//!   a cache of its own;
//! - a folder at this path's key recording another id belonged to a vault that was here and
//!   moved away: it is set aside under its own name (`<key>-<id>`), and that vault adopts it
//!   when it next starts;
//! - a vault with no `vault-id` at a path whose folder records one takes that id: its
//!   `.obsidian-tc` was deleted (older builds' cache folder, removed to reset the cache), and
//!   the data of its path stays its own;
//! - a cache an older build kept in the vault moves here once (`migrate.rs`); while another
//!   process has it open, it serves the run where it is.

mod identity;
mod migrate;
mod relocate;

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::config::{CACHE_DIR_NAME, CacheHome, LoadedConfig};
use crate::store::{CACHE_DB_FILE, StoreError, held_by_others};

pub use identity::{RECORD_FILE, Record, VAULT_ID_FILE, read_id, read_record};
use migrate::{Migration, migrate};
use relocate::move_tree;

/// Why the cache folder could not be placed.
#[derive(Debug)]
pub enum VaultCacheError {
    /// A file operation failed.
    Io {
        /// What was being done, e.g. `move`.
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The operating system's reason.
        error: io::Error,
    },
    /// A `vault-id` or `vault.json` that does not read.
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong and what to do.
        problem: String,
    },
    /// A cache folder of another vault is open in another process, in the way of this one.
    InUse {
        /// The folder.
        dir: PathBuf,
    },
    /// A cache database could not be checked.
    Store(PathBuf, StoreError),
    /// No random id could be made.
    Random(StoreError),
}

impl VaultCacheError {
    fn io(action: &'static str, path: &Path, error: io::Error) -> VaultCacheError {
        VaultCacheError::Io {
            action,
            path: path.to_path_buf(),
            error,
        }
    }
}

impl fmt::Display for VaultCacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VaultCacheError::Io {
                action,
                path,
                error,
            } => write!(f, "cannot {action} {}: {error}", path.display()),
            VaultCacheError::BadFile { path, problem } => {
                write!(f, "{} {problem}", path.display())
            }
            VaultCacheError::InUse { dir } => write!(
                f,
                "the cache folder {} belongs to another vault that was at this path, and a \
                 process has it open: stop that server, or pass --cache-dir",
                dir.display()
            ),
            VaultCacheError::Store(path, error) => {
                write!(f, "cannot check {}: {error}", path.display())
            }
            VaultCacheError::Random(error) => write!(f, "cannot make a vault id: {error}"),
        }
    }
}

impl std::error::Error for VaultCacheError {}

/// Settles the cache folder of `config` when it is the zero-config platform folder not yet
/// settled (else does nothing): finds it again after the vault moved, separates a copy, moves
/// an older in-vault cache there, and sets `cacheDir` to the folder to use. Returns one line per
/// thing done, for the log, each saying where the cache now is.
pub fn place(config: &mut LoadedConfig) -> Result<Vec<String>, VaultCacheError> {
    let Some(home) = config.cache_home.take() else {
        return Ok(Vec::new());
    };
    let mut notes = Vec::new();
    // Two servers starting at once on one vault (two clients launched together) would each
    // probe, adopt or move the same folders: the second waits for the first's decisions.
    let _placing = lock_placement(&home.vaults_root)?;
    let dir = settle(&home, &mut notes)?;
    config.config.cache_dir = Some(dir.to_string_lossy().into_owned());
    Ok(notes)
}

/// The lock every start holds while it places a cache folder under `root` (the file
/// `.placing` there, locked exclusively; released when the returned file is dropped).
fn lock_placement(root: &Path) -> Result<std::fs::File, VaultCacheError> {
    let file = root.join(".placing");
    std::fs::create_dir_all(root).map_err(|e| VaultCacheError::io("create", root, e))?;
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&file)
        .map_err(|e| VaultCacheError::io("open", &file, e))?;
    lock.lock()
        .map_err(|e| VaultCacheError::io("lock", &file, e))?;
    Ok(lock)
}

/// [`place`] for a command that only reads the cache: when this vault never had one (no
/// `vault-id`, no folder at its key, no cache inside it), nothing is created and `cacheDir`
/// stays the folder a server would make.
pub fn place_existing(config: &mut LoadedConfig) -> Result<Vec<String>, VaultCacheError> {
    let never = config.cache_home.as_ref().is_some_and(|home| {
        !identity::id_file(&home.vault).exists()
            && !home.dir().join(RECORD_FILE).exists()
            && !home.vault.join(CACHE_DIR_NAME).join(CACHE_DB_FILE).exists()
    });
    if never {
        config.cache_home = None;
        return Ok(Vec::new());
    }
    place(config)
}

/// The folder the vault of `home` uses this run, made ready.
fn settle(home: &CacheHome, notes: &mut Vec<String>) -> Result<PathBuf, VaultCacheError> {
    let target = home.dir();
    let vault = &home.vault;
    let mut id = read_id(vault)?;
    match read_record(&target)? {
        Some(record) if id.is_none() || id.as_deref() == Some(&record.vault_id) => {
            id = Some(identity::ensure_id(vault, Some(&record.vault_id))?);
        }
        Some(record) => set_aside(home, &record, notes)?,
        None => {}
    }
    let id = match id {
        Some(id) if !target.join(RECORD_FILE).exists() => {
            match find_by_id(&home.vaults_root, &id)? {
                Some((_, record)) if identity::holds(&record.path, &id) => {
                    let new = identity::renew_id(vault)?;
                    notes.push(format!(
                        "{} is a copy of the vault at {}: it gets its own id and cache, in {}",
                        vault.display(),
                        record.path.display(),
                        target.display()
                    ));
                    new
                }
                Some((dir, record)) => {
                    if let Some(in_place) = adopt(&dir, &target, &record, notes)? {
                        return Ok(in_place);
                    }
                    id
                }
                None => id,
            }
        }
        Some(id) => id,
        None => identity::ensure_id(vault, None)?,
    };
    identity::write_record(
        &target,
        &Record {
            vault_id: id,
            path: vault.clone(),
        },
    )?;
    let old = vault.join(CACHE_DIR_NAME);
    match migrate(&old, &target)? {
        Migration::Nothing => {}
        Migration::Moved => notes.push(format!(
            "moved the cache out of the vault ({}): it is now in {}",
            old.display(),
            target.display()
        )),
        Migration::InUse => {
            notes.push(format!(
                "the cache inside the vault ({}) is open in another process: using it there for \
                 this run; it moves to {} at a start when no other process has it open",
                old.display(),
                target.display()
            ));
            return Ok(old);
        }
        Migration::Stale(db) => notes.push(format!(
            "the cache is in {}; an older one is left unused at {}: remove it once you have \
             checked",
            target.display(),
            db.display()
        )),
    }
    Ok(target)
}

/// The folder of the vault that moved away from this path, renamed to `<key>-<its id>` so
/// that the vault finds it by id when it next starts.
fn set_aside(
    home: &CacheHome,
    record: &Record,
    notes: &mut Vec<String>,
) -> Result<(), VaultCacheError> {
    let dir = home.dir();
    refuse_in_use(&dir)?;
    let aside = home
        .vaults_root
        .join(format!("{}-{}", home.key, record.vault_id));
    move_tree(&dir, &aside).map_err(|e| VaultCacheError::io("move", &dir, e))?;
    notes.push(format!(
        "the cache folder {} served another vault (it was at {}): set aside as {}",
        dir.display(),
        record.path.display(),
        aside.display()
    ));
    Ok(())
}

/// Renames the folder of a vault that moved (`dir`, recording its old path) to `target`, with
/// the new path recorded. When another process still has it open, it serves this run where it
/// is, and that folder is returned.
fn adopt(
    dir: &Path,
    target: &Path,
    record: &Record,
    notes: &mut Vec<String>,
) -> Result<Option<PathBuf>, VaultCacheError> {
    if in_use(dir)? {
        notes.push(format!(
            "this vault moved from {}; its cache ({}) is open in another process: using it \
             there for this run",
            record.path.display(),
            dir.display()
        ));
        return Ok(Some(dir.to_path_buf()));
    }
    move_tree(dir, target).map_err(|e| VaultCacheError::io("move", dir, e))?;
    notes.push(format!(
        "this vault moved from {}: its cache is now in {}",
        record.path.display(),
        target.display()
    ));
    Ok(None)
}

/// The cache folder under `root` whose record names `id`, if any.
fn find_by_id(root: &Path, id: &str) -> Result<Option<(PathBuf, Record)>, VaultCacheError> {
    let entries = match std::fs::read_dir(root) {
        Ok(entries) => entries,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(VaultCacheError::io("list", root, error)),
    };
    for entry in entries {
        let dir = entry
            .map_err(|e| VaultCacheError::io("list", root, e))?
            .path();
        // a folder whose record does not read is someone else's problem, not this vault's
        if let Ok(Some(record)) = read_record(&dir)
            && record.vault_id == id
        {
            return Ok(Some((dir, record)));
        }
    }
    Ok(None)
}

fn in_use(dir: &Path) -> Result<bool, VaultCacheError> {
    let db = dir.join(CACHE_DB_FILE);
    if !db.is_file() {
        return Ok(false);
    }
    held_by_others(&db).map_err(|e| VaultCacheError::Store(db, e))
}

fn refuse_in_use(dir: &Path) -> Result<(), VaultCacheError> {
    if in_use(dir)? {
        return Err(VaultCacheError::InUse {
            dir: dir.to_path_buf(),
        });
    }
    Ok(())
}
