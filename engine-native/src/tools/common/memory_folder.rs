//! Where agent memory lives in a vault: the memory tools keep their entity notes there, the
//! goal tools their goal notes, and the capture queue files notes into it.

use crate::config::VaultConfig;
use crate::runtime::ToolContext;

/// The memory folder when the vault configures none.
pub(super) const DEFAULT_MEMORY_FOLDER: &str = "Memory";

/// The vault's memory folder (without surrounding slashes).
pub(crate) fn memory_folder(ctx: &ToolContext<'_>) -> String {
    memory_folder_of(ctx.vault_config())
}

/// The memory folder of the vault configured as `vault` (the default without a config).
pub(crate) fn memory_folder_of(vault: Option<&VaultConfig>) -> String {
    vault
        .and_then(|vault| vault.memory_folder.as_deref())
        .map(|folder| folder.trim_matches('/'))
        .filter(|folder| !folder.is_empty())
        .unwrap_or(DEFAULT_MEMORY_FOLDER)
        .to_owned()
}
