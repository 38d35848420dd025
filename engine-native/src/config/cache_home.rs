//! Where a zero-config start keeps its cache: the platform's cache folder, one folder per vault
//! keyed by the vault's canonical path, never inside the vault (sync tools such as iCloud,
//! Dropbox, Syncthing or git carry a live SQLite database between devices and corrupt it).
//!
//! - Linux and other Unix: `$HOME/.cache/obsidian-tc/vaults/<key>`. Not `$XDG_CACHE_HOME`:
//!   MCP clients start servers with a reduced environment (the SDKs pass `HOME`, `PATH`,
//!   `USER`… and drop the rest), so a server and the `obsidian-tc elicit approve` a person runs
//!   in a shell that sets it would look in two folders;
//! - macOS: `$HOME/Library/Caches/obsidian-tc/vaults/<key>`;
//! - Windows: `%LOCALAPPDATA%\obsidian-tc\cache\vaults\<key>`.
//!
//! Only a start on a bare vault folder asks this module: `--cache-dir` (`cacheDir`) names another
//! folder, `--cache-in-vault` (`cacheInVault`) keeps `<vault>/.obsidian-tc/`, and a start from a
//! config file keeps `.obsidian-tc/` beside that file (`config::load`).
//!
//! Hand-written rather than the `dirs` crate: the loader is a pure function of its
//! [`LoadInput`](crate::config::LoadInput), environment included, and `dirs` reads the process
//! environment (and on Windows the shell's known-folder API) itself. The variables read are
//! [`CACHE_HOME_VARS`]; the command line passes them in with the `OBSIDIAN_TC_*` ones.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use engine_core::hash::sha256_hex;

/// The environment variables the platform cache folder is found from.
pub const CACHE_HOME_VARS: [&str; 2] = ["HOME", "LOCALAPPDATA"];

/// How many characters of the vault folder's name a key keeps.
const NAME_CHARS: usize = 40;

/// How many hex digits of the canonical path's SHA-256 a key ends with.
const HASH_CHARS: usize = 12;

/// The operating system family, which decides the cache folder's layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// Linux and every other Unix but macOS (`~/.cache`).
    Xdg,
    /// macOS (`~/Library/Caches`).
    MacOs,
    /// Windows (`%LOCALAPPDATA%`).
    Windows,
}

impl Platform {
    /// The platform this build runs on.
    pub const CURRENT: Platform = if cfg!(windows) {
        Platform::Windows
    } else if cfg!(target_os = "macos") {
        Platform::MacOs
    } else {
        Platform::Xdg
    };
}

/// The platform cache folder of one zero-config vault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheHome {
    /// The vault's folder (canonical when it came from the command line).
    pub vault: PathBuf,
    /// The folder holding every vault's cache folder (`…/obsidian-tc/vaults`).
    pub vaults_root: PathBuf,
    /// This vault's folder name under [`vaults_root`](Self::vaults_root): [`vault_key`].
    pub key: String,
}

impl CacheHome {
    /// The cache folder of the vault at `vault` on `platform`, from the environment `env`; or
    /// why there is none (the variable the platform needs is unset).
    pub fn new(
        platform: Platform,
        env: &BTreeMap<String, String>,
        vault: &Path,
    ) -> Result<CacheHome, String> {
        Ok(CacheHome {
            vault: vault.to_path_buf(),
            vaults_root: vaults_root(platform, env)?,
            key: vault_key(vault),
        })
    }

    /// The vault's cache folder: `<vaults_root>/<key>`.
    pub fn dir(&self) -> PathBuf {
        self.vaults_root.join(&self.key)
    }
}

/// The folder holding every vault's cache folder on `platform`, from `env`.
pub fn vaults_root(platform: Platform, env: &BTreeMap<String, String>) -> Result<PathBuf, String> {
    let absolute = |name: &str| {
        env.get(name)
            .map(PathBuf::from)
            .filter(|path| path.is_absolute() || platform == Platform::Windows && is_drive(path))
    };
    let unset = |name: &str| {
        format!(
            "{name} is not set (or not absolute), so the platform cache folder is unknown: pass \
             --cache-dir, or set cacheInVault to keep the cache inside the vault"
        )
    };
    let home = || absolute("HOME").ok_or_else(|| unset("HOME"));
    let (base, layout): (PathBuf, &[&str]) = match platform {
        Platform::Xdg => (home()?, &[".cache", "obsidian-tc", "vaults"]),
        Platform::MacOs => (home()?, &["Library", "Caches", "obsidian-tc", "vaults"]),
        Platform::Windows => (
            absolute("LOCALAPPDATA").ok_or_else(|| unset("LOCALAPPDATA"))?,
            &["obsidian-tc", "cache", "vaults"],
        ),
    };
    let mut root = base;
    if platform == Platform::Windows {
        // built with `\` whatever the host, so that the text is the one Windows uses
        let mut text = root.to_string_lossy().trim_end_matches('\\').to_owned();
        for part in layout {
            text.push('\\');
            text.push_str(part);
        }
        return Ok(PathBuf::from(text));
    }
    root.extend(layout);
    Ok(root)
}

/// Whether `path` reads as a Windows absolute path (`C:\…`), whatever the host platform.
fn is_drive(path: &Path) -> bool {
    let text = path.to_string_lossy();
    let bytes = text.as_bytes();
    bytes.len() >= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && matches!(bytes[2], b'\\' | b'/')
        || text.starts_with(r"\\")
}

/// The key of the vault at `vault`: its folder's name (letters, digits, `-`, `_` and `.`;
/// anything else becomes `_`; at most 40 characters) and the first 12 hex digits of the
/// SHA-256 of the whole path, e.g. `Notes-3f2a9c01b7de`. Readable, and stable for one path.
pub fn vault_key(vault: &Path) -> String {
    let name: String = vault
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(NAME_CHARS)
        .collect();
    let name = name.trim_start_matches('.');
    let name = if name.is_empty() { "vault" } else { name };
    let hash = sha256_hex(vault.as_os_str().as_encoded_bytes());
    format!("{name}-{}", &hash[..HASH_CHARS])
}
