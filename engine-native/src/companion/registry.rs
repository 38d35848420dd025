//! [`Companions`]: the companion of each served vault — the one its config names, else the one
//! TC Bridge's settings file in the vault names ([`super::discovery`]), unless the config says
//! `companion: false`. Made when first needed (the start-up probe on a thread of its own, so
//! starting never waits for it) and made again when its address or token changes: a reload,
//! or the plugin rewriting its settings.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use crate::config::VaultConfig;
use crate::config::sections::{CompanionConfig, CompanionSetting};

use super::client::VaultCompanion;
use super::discovery::{Absent, SettingsFiles};

/// The companions of a server's vaults, by vault id.
#[derive(Debug, Default)]
pub struct Companions {
    by_vault: Mutex<HashMap<String, Arc<VaultCompanion>>>,
    settings: SettingsFiles,
}

impl Companions {
    /// The companion of `vault`: the configured one; with no `companion` configured, the one
    /// TC Bridge's settings file names now (read again when it changed, or when the companion
    /// it named refused its token or did not answer); or why there is none.
    pub fn of(&self, vault: &VaultConfig) -> Result<Arc<VaultCompanion>, Absent> {
        match &vault.companion {
            Some(CompanionSetting::At(config)) => Ok(self.get(&vault.id, config)),
            Some(CompanionSetting::Discover(false)) => Err(Absent::Off),
            None | Some(CompanionSetting::Discover(true)) => {
                let root = Path::new(&vault.path);
                let config = self.settings.companion(&vault.id, root, false)?;
                let companion = self.get(&vault.id, &config);
                if !companion.refused_or_gone() {
                    return Ok(companion);
                }
                // a rewrite the file's stamp did not show (a timestamp too coarse) would look
                // like this: read it again
                let config = self.settings.companion(&vault.id, root, true)?;
                Ok(self.get(&vault.id, &config))
            }
        }
    }

    /// The companion of `vault` at `config`: the known one, or a new, unprobed one when there
    /// is none or the address or token changed.
    fn get(&self, vault: &str, config: &CompanionConfig) -> Arc<VaultCompanion> {
        let mut by_vault = self.by_vault.lock().unwrap_or_else(PoisonError::into_inner);
        match by_vault.get(vault) {
            Some(known) if known.config() == config => Arc::clone(known),
            _ => {
                let made = Arc::new(VaultCompanion::new(vault, config.clone()));
                by_vault.insert(vault.to_owned(), Arc::clone(&made));
                made
            }
        }
    }

    /// Starts the probe of every vault in `vaults` that has a companion, each on a thread of
    /// its own: the caller does not wait for any of them.
    pub fn start(&self, vaults: &[VaultConfig]) {
        for vault in vaults {
            let Ok(companion) = self.of(vault) else {
                continue;
            };
            let spawned = std::thread::Builder::new()
                .name(format!("companion-probe-{}", vault.id))
                .spawn(move || {
                    companion.refresh();
                });
            if let Err(error) = spawned {
                tracing::warn!(vault = %vault.id, %error, "cannot start the companion probe; the first bridge call probes instead");
            }
        }
    }
}
