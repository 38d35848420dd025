//! The configuration a command line names, loaded with the process environment, and the
//! dispatcher opened on it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::cli::{EXIT_FAILURE, EXIT_USAGE};
use crate::config::{CACHE_HOME_VARS, ConfigFlags, LoadedConfig, load_for_command_line};
use crate::dispatch::Dispatcher;
use crate::runtime::SystemClock;
use crate::store::{CACHE_DB_FILE, IdempotencyPolicy, Store};
use crate::vault_cache::place_existing;

/// Loads the configuration `flags` name (flag > `OBSIDIAN_TC_*` environment > file >
/// default), with the variables that locate the platform cache folder. A path that is neither a folder nor a JSON file is refused with what to pass.
pub fn load_config(flags: &ConfigFlags) -> Result<LoadedConfig, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    if let Some(path) = &flags.path {
        check_vault_or_config(&cwd.join(path))?;
    }
    let env: BTreeMap<String, String> = std::env::vars_os()
        .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
        .filter(|(name, _)| {
            name.starts_with("OBSIDIAN_TC_") || CACHE_HOME_VARS.contains(&name.as_str())
        })
        .collect();
    load_for_command_line(flags, env, &cwd).map_err(|errors| errors.to_string())
}

/// Opens the dispatcher (store, vaults, ACLs, tools) on `config` with the system clock.
pub fn open_dispatcher(config: LoadedConfig) -> Result<Arc<Dispatcher>, String> {
    Dispatcher::new(config, Arc::new(SystemClock))
        .map(Arc::new)
        .map_err(|e| e.to_string())
}

/// [`load_config`] for a command: prints the problems and gives the usage exit code.
pub fn load_config_or_exit(flags: &ConfigFlags) -> Result<LoadedConfig, u8> {
    load_config(flags).map_err(|message| {
        eprint!("{message}");
        EXIT_USAGE
    })
}

/// [`open_dispatcher`] for a command: prints why it could not open and gives the failure
/// exit code.
pub fn open_dispatcher_or_exit(config: LoadedConfig) -> Result<Arc<Dispatcher>, u8> {
    open_dispatcher(config).map_err(|message| {
        eprintln!("{message}");
        EXIT_FAILURE
    })
}

/// The dispatcher of the configuration `flags` name, or the exit code after saying why
/// on stderr (what `call`, `elicit` and `index` start with).
pub fn dispatcher_for(flags: &ConfigFlags) -> Result<Arc<Dispatcher>, u8> {
    open_dispatcher_or_exit(load_config_or_exit(flags)?)
}

/// The cache database file of `config` when a server has made it, the cache folder placed
/// first ([`place_existing`]: a moved vault's found again, an older in-vault one moved); else the
/// failure exit code after saying so on stderr (a command that only reads the cache never
/// creates one).
pub fn existing_cache_db(config: &mut LoadedConfig) -> Result<PathBuf, u8> {
    match place_existing(config) {
        Ok(notes) => notes.iter().for_each(|note| tracing::info!("{note}")),
        Err(error) => {
            eprintln!("cannot place the cache folder: {error}");
            return Err(EXIT_FAILURE);
        }
    }
    let path = config.cache_dir().join(CACHE_DB_FILE);
    if path.is_file() {
        return Ok(path);
    }
    eprintln!(
        "no cache database at {}: no obsidian-tc server has run on this configuration yet \
         (or cacheDir names another folder)",
        path.display()
    );
    Err(EXIT_FAILURE)
}

/// The existing cache database of the configuration `flags` name, opened alone: no vault is
/// scanned, no model loaded (what `audit` reads). Or the exit code after saying why on
/// stderr.
pub fn store_for(flags: &ConfigFlags) -> Result<Store, u8> {
    let path = existing_cache_db(&mut load_config_or_exit(flags)?)?;
    Store::open(&path, IdempotencyPolicy::default()).map_err(|error| {
        eprintln!("cannot open the cache database {}: {error}", path.display());
        EXIT_FAILURE
    })
}

/// Refuses a path that is neither an existing folder nor a `.json` file.
fn check_vault_or_config(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Ok(());
    }
    if !path.exists() {
        return Err(format!(
            "{} does not exist: pass an Obsidian vault folder or a config file (.json)",
            path.display()
        ));
    }
    let is_json = path
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("json"));
    if !is_json {
        return Err(format!(
            "{} is neither a folder nor a JSON config file: pass an Obsidian vault folder, or \
             a config file ending in .json",
            path.display()
        ));
    }
    Ok(())
}

/// The vaults of `served` a command runs on: `wanted` alone, or every one; bad usage (said on
/// stderr) when `wanted` is not a vault of the configuration.
pub fn chosen_vaults<'a>(
    served: &'a crate::runtime::Served,
    wanted: Option<&str>,
) -> Result<Vec<&'a crate::runtime::VaultEntry>, u8> {
    let vaults: Vec<_> = served
        .vaults()
        .iter()
        .filter(|entry| wanted.is_none_or(|id| id == entry.id))
        .collect();
    if vaults.is_empty() {
        let known: Vec<&str> = served.vaults().iter().map(|v| v.id.as_str()).collect();
        eprintln!(
            "no vault {:?} in the configuration; its vaults are {known:?}",
            wanted.unwrap_or_default()
        );
        return Err(crate::cli::EXIT_USAGE);
    }
    Ok(vaults)
}
