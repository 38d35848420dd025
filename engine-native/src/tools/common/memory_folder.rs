//! Where agent memory lives in a vault: the memory tools keep their entity notes there, and
//! the capture queue files notes into it.

use crate::runtime::ToolContext;

/// The memory folder when the vault configures none.
pub(super) const DEFAULT_MEMORY_FOLDER: &str = "Memory";

/// The vault's memory folder (without surrounding slashes).
pub(crate) fn memory_folder(ctx: &ToolContext<'_>) -> String {
    ctx.vault_config()
        .and_then(|vault| vault.memory_folder.as_deref())
        .map(|folder| folder.trim_matches('/'))
        .filter(|folder| !folder.is_empty())
        .unwrap_or(DEFAULT_MEMORY_FOLDER)
        .to_owned()
}
