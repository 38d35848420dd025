//! Shared helpers of the store tests: a store on a real file in a temp dir.

use std::path::PathBuf;

use obsidian_tc::store::{IdempotencyPolicy, Store};
use tempfile::TempDir;

/// A temp dir and the `cache.db` path inside a not-yet-existing subdirectory of it.
pub fn db_path() -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("cache").join("cache.db");
    (dir, path)
}

/// Opens a store on `path` with the default policy.
pub fn open(path: &std::path::Path) -> Store {
    Store::open(path, IdempotencyPolicy::default()).expect("open store")
}
