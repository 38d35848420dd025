//! The loader's inputs gathered from the real world: which config file or vault folder the
//! command line (or `OBSIDIAN_TC_CONFIG`) names, and the file's text.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::config::env::CONFIG_FILE_VAR;
use crate::config::flags::ConfigFlags;
use crate::config::load::{ConfigOrigin, LoadInput, LoadedConfig, load};
use crate::config::problem::{ConfigErrors, ConfigProblem};

/// Loads the configuration for a command line: `flags` and the environment `env`. Paths typed
/// on the command line are taken from the current folder `cwd`, as any shell user expects;
/// nothing inside the configuration is.
pub fn load_for_command_line(
    flags: &ConfigFlags,
    env: BTreeMap<String, String>,
    cwd: &Path,
) -> Result<LoadedConfig, ConfigErrors> {
    let origin = read_origin(flags, &env, cwd)?;
    let mut overrides = flags.overrides();
    for flag in &mut overrides {
        if flag.flag == "--cache-dir"
            && let Some(dir) = flag.value.as_str()
        {
            flag.value = cwd.join(dir).to_string_lossy().into_owned().into();
        }
    }
    load(&LoadInput {
        origin,
        env,
        overrides,
    })
}

fn read_origin(
    flags: &ConfigFlags,
    env: &BTreeMap<String, String>,
    cwd: &Path,
) -> Result<ConfigOrigin, ConfigErrors> {
    let file = if let Some(path) = &flags.path {
        let path = cwd.join(path);
        if path.is_dir() {
            return canonical_vault(&path).map(ConfigOrigin::VaultFolder);
        }
        path
    } else if let Some(path) = &flags.config {
        cwd.join(path)
    } else if let Some(path) = env.get(CONFIG_FILE_VAR) {
        let path = PathBuf::from(path);
        if !path.is_absolute() {
            return Err(failure(format!(
                "{CONFIG_FILE_VAR}={} is relative: give the config file's absolute path",
                path.display()
            )));
        }
        path
    } else {
        return Err(failure(format!(
            "no configuration: pass a vault folder (`obsidian-tc config show /path/to/vault`), \
             --config FILE, or set {CONFIG_FILE_VAR}"
        )));
    };
    read_config_file(file)
}

/// The vault folder's real path (symbolic links and `..` resolved; on Windows without the
/// `\\?\` prefix where it is not needed): the key of its platform cache folder, the same
/// whichever way the folder was named.
fn canonical_vault(path: &Path) -> Result<PathBuf, ConfigErrors> {
    dunce::canonicalize(path).map_err(|e| {
        failure(format!(
            "cannot resolve the vault folder {}: {e}",
            path.display()
        ))
    })
}

/// The config file at `path` with its current text.
pub(crate) fn read_config_file(path: PathBuf) -> Result<ConfigOrigin, ConfigErrors> {
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok(ConfigOrigin::File { path, text }),
        Err(e) => Err(failure(format!(
            "cannot read the config file {}: {e}",
            path.display()
        ))),
    }
}

fn failure(message: String) -> ConfigErrors {
    ConfigErrors(vec![ConfigProblem::new("(root)", message)])
}
