//! The platform cache folder of zero-config tests, kept in a temp folder: an environment that
//! names it on every platform, for the loader and for the binary.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use obsidian_tc::config::CacheHome;
use obsidian_tc::config::cache_home::{Platform, vault_key, vaults_root};

/// The variables naming `root` as the platform cache folder's base on every platform
/// (`HOME`, `LOCALAPPDATA`).
pub fn cache_env(root: &Path) -> BTreeMap<String, String> {
    let root = root.to_string_lossy().into_owned();
    ["HOME", "LOCALAPPDATA"]
        .into_iter()
        .map(|name| (name.to_owned(), root.clone()))
        .collect()
}

/// `command` with [`cache_env`] set: its zero-config caches go under `root`.
pub fn with_cache_home<'a>(command: &'a mut Command, root: &Path) -> &'a mut Command {
    command.envs(cache_env(root))
}

/// The cache folder this platform gives the vault at `vault` (canonical) under `root`.
pub fn vault_cache_dir(root: &Path, vault: &Path) -> PathBuf {
    CacheHome {
        vault: vault.to_path_buf(),
        vaults_root: vaults_root(Platform::CURRENT, &cache_env(root)).expect("a cache root"),
        key: vault_key(vault),
    }
    .dir()
}

/// The platform cache folder's base of every binary the shared helpers start
/// (`support::mcp`): one folder under the temp dir, each test vault keyed apart inside, so
/// that test runs never fill the user's own cache folder.
pub fn test_cache_root() -> PathBuf {
    std::env::temp_dir().join("obsidian-tc-it-cache-home")
}

/// The cache folder a binary started by the shared helpers uses for the vault at `vault`.
pub fn cache_of(vault: &Path) -> PathBuf {
    vault_cache_dir(
        &test_cache_root(),
        &vault.canonicalize().expect("the vault's canonical path"),
    )
}
