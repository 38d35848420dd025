//! [`Runtime::add_vault`]: one more vault written to the config file and applied as
//! [`Runtime::reload`] applies a config edit, under the same lock, so that the file and the
//! vaults served never disagree: a refusal or a failure leaves the file's bytes as they were.

use std::path::Path;

use serde_json::json;

use crate::config::add_vault::{refused_vault_folder, replace_config_text, with_added_vault};
use crate::config::checks::valid_vault_id;
use crate::config::{ConfigOrigin, LoadInput, LoadedConfig, load};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::reload::{ReloadReport, config_invalid};
use crate::runtime::state::Runtime;

impl Runtime {
    /// Adds vault `id` at the real folder `folder` (absolute, symbolic links resolved) to the
    /// config file the server was started from, then reloads it. Refused, with the file
    /// untouched: a server without a config file, an id already served, a folder
    /// [`refused_vault_folder`] names (`home`: the user's home folder), a config file changed
    /// on disk since it was loaded, and a configuration that would not load. When the reload
    /// fails after the write, the old text is put back.
    pub fn add_vault(
        &self,
        id: &str,
        folder: &Path,
        home: Option<&Path>,
    ) -> Result<ReloadReport, ToolError> {
        let _one_at_a_time = self.one_reload_at_a_time();
        let served = self.served();
        let loaded = served.config();
        let (file, text) = check_new_vault(loaded, id, folder, home)?;
        let folder_text = folder.to_string_lossy();
        let edited = with_added_vault(text, id, &folder_text).map_err(|problem| {
            ToolError::new(
                ErrorCode::InvalidInput,
                format!(
                    "the config file {} cannot be edited: {problem}",
                    file.display()
                ),
            )
        })?;
        load(&LoadInput {
            origin: ConfigOrigin::File {
                path: file.to_path_buf(),
                text: edited.clone(),
            },
            env: loaded.input.env.clone(),
            overrides: loaded.input.overrides.clone(),
        })
        .map_err(|errors| {
            let refused = config_invalid(errors);
            ToolError::new(
                ErrorCode::ValidationError,
                format!(
                    "the vault was not added, nothing changed: {}",
                    refused.message
                ),
            )
            .with_details(refused.details.clone())
        })?;
        let changed_meanwhile = || {
            ToolError::new(
                ErrorCode::ConcurrentModification,
                format!(
                    "the config file {} changed since the server loaded it; nothing was written",
                    file.display()
                ),
            )
            .with_recovery("call reload_vault to apply the file as it is now, then add_vault again")
        };
        let write_failed = |error: std::io::Error| {
            ToolError::internal(format!(
                "writing the config file {} failed: {error}",
                file.display()
            ))
        };
        if !replace_config_text(file, text, &edited).map_err(write_failed)? {
            return Err(changed_meanwhile());
        }
        match self.reload_held() {
            Ok(report) => Ok(report),
            Err(error) => {
                // Best effort: the reload changed nothing, so the file goes back to what is served.
                let _ = replace_config_text(file, &edited, text);
                Err(error)
            }
        }
    }
}

/// The refusals of [`Runtime::add_vault`] that the configuration in force decides (the config
/// file and the text it was loaded as, when there is none): no config file, an invalid id or
/// one already served, a folder [`refused_vault_folder`] names. `add_vault`'s precheck runs it before a
/// person is asked; [`Runtime::add_vault`] again under the reload lock.
pub fn check_new_vault<'c>(
    loaded: &'c LoadedConfig,
    id: &str,
    folder: &Path,
    home: Option<&Path>,
) -> Result<(&'c Path, &'c str), ToolError> {
    let Some((file, text)) = loaded.config_file() else {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "this server runs on a bare vault folder without a config file, so there is \
             no file to add a vault to",
        )
        .with_recovery(
            "ask the user to write a config file listing the vaults ({\"vaults\": [{\"id\": \
             \"main\", \"path\": \"/path/to/vault\"}]}) and start the server with \
             --config FILE; add_vault then adds to that file",
        ));
    };
    if !valid_vault_id(id) {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!("{id:?} is not a vault id: use letters, digits, '-' and '_' only"),
        )
        .with_details(json!({ "vault_id": id })));
    }
    if loaded.config.vaults.iter().any(|vault| vault.id == id) {
        return Err(ToolError::new(
            ErrorCode::AlreadyExists,
            format!("a vault with id {id:?} is already served"),
        )
        .with_details(json!({ "vault_id": id }))
        .with_recovery("choose another vault_id (list_vaults shows the ids in use)"));
    }
    if let Some(reason) = refused_vault_folder(folder, loaded, home) {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!("{} cannot be a vault: {reason}", folder.display()),
        )
        .with_details(json!({ "path": folder.to_string_lossy() }))
        .with_recovery("choose the folder of an Obsidian vault that no other vault overlaps"));
    }
    Ok((file, text))
}
