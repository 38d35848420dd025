//! [`Companions`]: the companion of each served vault, made when a vault with a `companion`
//! is first served (its start-up probe on a thread of its own, so starting never waits for
//! it) and made again when a reload changes its address or token.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::config::VaultConfig;
use crate::config::sections::CompanionConfig;

use super::client::VaultCompanion;

/// The companions of a server's vaults, by vault id.
#[derive(Debug, Default)]
pub struct Companions {
    by_vault: Mutex<HashMap<String, Arc<VaultCompanion>>>,
}

impl Companions {
    /// The companion of `vault` at `config`: the known one, or a new, unprobed one when there
    /// is none or the address or token changed.
    pub fn get(&self, vault: &str, config: &CompanionConfig) -> Arc<VaultCompanion> {
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
            let Some(config) = &vault.companion else {
                continue;
            };
            let companion = self.get(&vault.id, config);
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

    /// The companion of vault `vault_id` among `vaults`, when one is configured.
    pub fn configured(
        &self,
        vaults: &[VaultConfig],
        vault_id: &str,
    ) -> Option<Arc<VaultCompanion>> {
        let vault = vaults.iter().find(|vault| vault.id == vault_id)?;
        let config = vault.companion.as_ref()?;
        Some(self.get(&vault.id, config))
    }
}
