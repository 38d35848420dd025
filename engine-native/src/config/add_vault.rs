//! Adding a vault to the config file (`add_vault`): the file's text with one more entry in
//! `vaults` (every other byte kept: jsonc-parser's concrete syntax tree keeps indentation,
//! key order and line endings, and new text follows the file's indentation), the atomic
//! write of that text, and the folders a vault may not be.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use engine_core::hash::sha256_hex;
use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstRootNode};

use crate::config::load::{ConfigOrigin, LoadedConfig};
use crate::vault::{Replace, write_file_unless_changed};

/// Top-level folders of a Unix system that hold no notes: a vault is never one of them nor
/// inside one.
const SYSTEM_FOLDERS: [&str; 12] = [
    "/bin", "/boot", "/dev", "/etc", "/lib", "/lib64", "/proc", "/run", "/sbin", "/sys", "/usr",
    "/var",
];

/// Windows folders directly under a drive's root that hold no notes.
const WINDOWS_FOLDERS: [&str; 4] = [
    "windows",
    "program files",
    "program files (x86)",
    "programdata",
];

impl LoadedConfig {
    /// The config file this configuration was read from and the text it was read as; `None`
    /// for a bare vault folder (no config file).
    pub fn config_file(&self) -> Option<(&Path, &str)> {
        match &self.input.origin {
            ConfigOrigin::File { path, text } => Some((path, text)),
            ConfigOrigin::VaultFolder(_) => None,
        }
    }
}

/// `text` (a config file) with `{"id": id, "path": folder}` appended to its `vaults` array
/// (created when absent); `Err` names why the text cannot be edited.
pub fn with_added_vault(text: &str, id: &str, folder: &str) -> Result<String, String> {
    let root = CstRootNode::parse(text, &ParseOptions::default())
        .map_err(|error| format!("the config file does not parse: {error}"))?;
    let root_object = root
        .object_value()
        .ok_or("the config file does not hold a JSON object")?;
    let entry = CstInputValue::Object(vec![
        ("id".to_owned(), id.into()),
        ("path".to_owned(), folder.into()),
    ]);
    match root_object.get("vaults") {
        None => {
            root_object.append("vaults", CstInputValue::Array(vec![entry]));
        }
        Some(_) => {
            root_object
                .array_value("vaults")
                .ok_or("the config file's \"vaults\" is not an array")?
                .append(entry);
        }
    }
    Ok(root.to_string())
}

/// Writes `new` over the config file at `path` atomically (temp file, rename), keeping its
/// permissions, only while it still holds `old`: `Ok(false)` when someone changed it since it
/// was read (nothing written).
pub fn replace_config_text(path: &Path, old: &str, new: &str) -> io::Result<bool> {
    let mode = fs::metadata(path)?.permissions();
    let written = write_file_unless_changed(
        path,
        new.as_bytes(),
        Some(mode),
        Replace::Allowed,
        Some(&sha256_hex(old.as_bytes())),
    )?;
    Ok(written.is_ok())
}

/// Why the real folder `folder` may not become a vault of `config` (`None`: it may): a file
/// system or drive root, a system folder, a folder holding the home folder, one overlapping
/// the cache folder, one holding the config file, a hidden folder (`.ssh`, `.config`, ...)
/// or, in the home folder, one inside a hidden folder, and a folder overlapping a vault
/// already served (inside one, or holding one). `home` is the user's home folder, when known.
pub fn refused_vault_folder(
    folder: &Path,
    config: &LoadedConfig,
    home: Option<&Path>,
) -> Option<String> {
    if folder.parent().is_none() {
        return Some("it is the root of the file system or of a drive".to_owned());
    }
    if let Some(system) = system_folder(folder) {
        return Some(format!("it is a system folder or inside one ({system})"));
    }
    let home = home.map(real);
    if let Some(home) = &home
        && home.starts_with(folder)
    {
        return Some(format!("it holds the home folder {}", home.display()));
    }
    let overlaps = |other: &Path| folder.starts_with(other) || other.starts_with(folder);
    let cache = real(config.cache_dir());
    if overlaps(&cache) {
        return Some(format!(
            "it overlaps the server's cache folder {}",
            cache.display()
        ));
    }
    if let Some((file, _)) = config.config_file()
        && real(file).starts_with(folder)
    {
        return Some(format!("it holds the config file {}", file.display()));
    }
    if let Some(hidden) = hidden_name(folder, home.as_deref()) {
        return Some(format!(
            "it is a hidden folder, or inside one in the home folder ({hidden}): such \
             folders hold settings and credentials (.ssh, .aws, .config), not notes"
        ));
    }
    config.config.vaults.iter().find_map(|vault| {
        let root = real(Path::new(&vault.path));
        overlaps(&root).then(|| {
            format!(
                "it overlaps vault {:?} ({}): a folder may be served by one vault only",
                vault.id,
                root.display()
            )
        })
    })
}

/// The system folder `folder` is or is inside, if any.
fn system_folder(folder: &Path) -> Option<String> {
    let unix = SYSTEM_FOLDERS
        .iter()
        .find(|system| folder.starts_with(system))
        .map(|system| (*system).to_owned());
    let mut components = folder.components();
    let windows = match (components.next(), components.next(), components.next()) {
        (Some(Component::Prefix(_)), Some(Component::RootDir), Some(Component::Normal(name))) => {
            let name = name.to_string_lossy().to_lowercase();
            WINDOWS_FOLDERS.contains(&name.as_str()).then_some(name)
        }
        _ => None,
    };
    unix.or(windows)
}

/// The hidden name (`.ssh`, `.config`, the cache's own `.obsidian-tc`) that `folder` has, or
/// that one of its folders below the home folder `home` has. (Hidden folders elsewhere, such
/// as a temporary folder's `/tmp/.tmpXYZ`, may hold a vault.)
fn hidden_name(folder: &Path, home: Option<&Path>) -> Option<String> {
    let hidden = |component: Component<'_>| match component {
        Component::Normal(name) if name.to_string_lossy().starts_with('.') => {
            Some(name.to_string_lossy().into_owned())
        }
        _ => None,
    };
    let below_home = home.and_then(|home| folder.strip_prefix(home).ok());
    folder
        .components()
        .next_back()
        .and_then(hidden)
        .or_else(|| below_home?.components().find_map(hidden))
}

/// `path` with symbolic links resolved, or as given when it does not resolve.
fn real(path: &Path) -> PathBuf {
    dunce::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}
