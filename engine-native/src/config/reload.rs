//! Loading the configuration again while serving (`reload_vault`): the same origin, environment
//! and flags as at start, with the config file read from disk anew.

use crate::config::disk::read_config_file;
use crate::config::load::{ConfigOrigin, LoadInput, LoadedConfig, load};
use crate::config::problem::ConfigErrors;

impl LoadedConfig {
    /// The configuration loaded again from where this one came from: the config file re-read
    /// from disk, or the same bare vault folder, with the environment and flags of the first
    /// load (priority flag > environment > file > default). Every problem is reported, and
    /// `self` is left as it is.
    pub fn reload(&self) -> Result<LoadedConfig, ConfigErrors> {
        let origin = match &self.input.origin {
            ConfigOrigin::File { path, .. } => read_config_file(path.clone())?,
            folder @ ConfigOrigin::VaultFolder(_) => folder.clone(),
        };
        load(&LoadInput {
            origin,
            env: self.input.env.clone(),
            overrides: self.input.overrides.clone(),
        })
    }

    /// Whether this configuration comes from a bare vault folder (no config file).
    pub fn is_zero_config(&self) -> bool {
        matches!(self.input.origin, ConfigOrigin::VaultFolder(_))
    }
}
