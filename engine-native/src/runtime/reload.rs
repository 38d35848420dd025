//! [`Runtime::reload`]: the configuration read again from where it came from, and the new
//! vaults, ACLs and tool visibility swapped in for the calls that start afterwards. The cache
//! database is not touched.

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use crate::config::{ConfigErrors, LoadedConfig, ServerConfig};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::served::{Served, StartError};
use crate::runtime::state::Runtime;

/// The top-level config keys a reload applies; a change to any other key is reported as
/// needing a restart.
pub const RELOADED_KEYS: [&str; 4] = ["vaults", "acl", "toolVisibility", "elicitTtlSeconds"];

/// What a reload changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ReloadReport {
    /// Whether the server runs on a bare vault folder (no config file): its one vault was
    /// re-opened and nothing else can change.
    pub zero_config: bool,
    /// The ids of vaults that appeared.
    pub added: Vec<String>,
    /// The ids of vaults that are gone.
    pub removed: Vec<String>,
    /// The ids of vaults whose folder or ACL (and so read-only switch) changed.
    pub changed: Vec<String>,
    /// Whether `toolVisibility` changed (connected clients are told to list tools again).
    pub tool_visibility_changed: bool,
    /// Top-level config keys that changed but take effect only when the server restarts.
    pub restart_required: Vec<String>,
    /// A one-line summary.
    pub message: String,
}

impl Runtime {
    /// Loads the configuration again (the file re-read, the start's environment and flags) and
    /// swaps in its vaults, ACLs and tool visibility for every call that starts afterwards;
    /// calls in flight finish with what they started with. A configuration that does not
    /// load, or a vault that does not open, changes nothing. When the tool visibility changed,
    /// the tool-list generation ([`Runtime::watch_tool_list`]) moves on.
    pub fn reload(&self) -> Result<ReloadReport, ToolError> {
        let _one_at_a_time = self.one_reload_at_a_time();
        self.reload_held()
    }

    /// Holds the reload lock: one reload (or `add_vault`) at a time.
    pub(super) fn one_reload_at_a_time(&self) -> std::sync::MutexGuard<'_, ()> {
        self.reload_lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// [`Runtime::reload`] with the reload lock already held.
    pub(super) fn reload_held(&self) -> Result<ReloadReport, ToolError> {
        let old = self.served();
        let config = old.config().reload().map_err(config_invalid)?;
        let report = compare(old.config(), &config);
        let registry = old
            .registry()
            .with_visibility(config.config.tool_visibility.clone());
        let ids: Vec<String> = config.config.vaults.iter().map(|v| v.id.clone()).collect();
        let served = Served::open(config, registry).map_err(|error| open_failed(&ids, error))?;
        self.swap_served(served);
        if report.tool_visibility_changed {
            self.tool_list.send_modify(|generation| *generation += 1);
        }
        Ok(report)
    }
}

/// The differences between the configuration in force and the reloaded one.
fn compare(old: &LoadedConfig, new: &LoadedConfig) -> ReloadReport {
    let (before, after) = (&old.config, &new.config);
    let ids = |config: &ServerConfig| -> BTreeSet<String> {
        config.vaults.iter().map(|vault| vault.id.clone()).collect()
    };
    let (old_ids, new_ids) = (ids(before), ids(after));
    let added: Vec<String> = new_ids.difference(&old_ids).cloned().collect();
    let removed: Vec<String> = old_ids.difference(&new_ids).cloned().collect();
    let changed: Vec<String> = old_ids
        .intersection(&new_ids)
        .filter(|id| vault_shape(before, id) != vault_shape(after, id))
        .cloned()
        .collect();
    let tool_visibility_changed = before.tool_visibility != after.tool_visibility;
    let restart_required = changed_keys(before, after)
        .into_iter()
        .filter(|key| !RELOADED_KEYS.contains(&key.as_str()))
        .collect();
    let zero_config = new.is_zero_config();
    let message = if zero_config {
        "zero-config server (no config file): vault \"main\" was re-opened from its folder"
            .to_owned()
    } else {
        format!(
            "reloaded {}: {} vault(s) added, {} removed, {} changed{}",
            origin_name(new),
            added.len(),
            removed.len(),
            changed.len(),
            if tool_visibility_changed {
                "; tool visibility changed"
            } else {
                ""
            }
        )
    };
    ReloadReport {
        zero_config,
        added,
        removed,
        changed,
        tool_visibility_changed,
        restart_required,
        message,
    }
}

/// A vault's folder and effective ACL, as JSON, to tell whether it changed.
fn vault_shape(config: &ServerConfig, id: &str) -> Value {
    config.vaults.iter().find(|vault| vault.id == id).map_or(
        Value::Null,
        |vault| json!({ "path": vault.path, "acl": config.acl_for(vault) }),
    )
}

/// The top-level keys whose values differ.
fn changed_keys(before: &ServerConfig, after: &ServerConfig) -> Vec<String> {
    let as_object = |config: &ServerConfig| match serde_json::to_value(config) {
        Ok(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let (before, after) = (as_object(before), as_object(after));
    let keys: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    keys.into_iter()
        .filter(|key| before.get(*key) != after.get(*key))
        .cloned()
        .collect()
}

/// The config file's path, for messages.
fn origin_name(config: &LoadedConfig) -> String {
    match &config.input.origin {
        crate::config::ConfigOrigin::File { path, .. } => path.display().to_string(),
        crate::config::ConfigOrigin::VaultFolder(path) => path.display().to_string(),
    }
}

/// `validation_error`: the reloaded configuration has problems; nothing changed.
pub(super) fn config_invalid(errors: ConfigErrors) -> ToolError {
    let paths: Vec<&str> = errors.0.iter().map(|p| p.path.as_str()).collect();
    let problems: Vec<Value> = errors
        .0
        .iter()
        .map(|problem| json!({ "path": problem.path, "message": problem.to_string() }))
        .collect();
    ToolError::new(
        ErrorCode::ValidationError,
        format!(
            "the configuration was not reloaded, nothing changed: {}",
            errors.to_string().trim_end()
        ),
    )
    .with_details(json!({ "paths": paths, "problems": problems }))
    .with_recovery("fix the config file at the paths named, then call reload_vault again")
}

/// `validation_error`: a vault of the reloaded configuration does not open; nothing changed.
/// `ids` are the reloaded vault ids, in config order.
fn open_failed(ids: &[String], error: StartError) -> ToolError {
    let at = |id: &str, key: &str| {
        ids.iter().position(|known| known == id).map_or_else(
            || "vaults".to_owned(),
            |index| format!("vaults[{index}].{key}"),
        )
    };
    let path = match &error {
        StartError::Vault { id, .. } => at(id, "path"),
        StartError::Acl { id, .. } => at(id, "acl"),
        StartError::Store(_) | StartError::Registry(_) => "(root)".to_owned(),
        StartError::Cache(_) => "cacheDir".to_owned(),
    };
    ToolError::new(
        ErrorCode::ValidationError,
        format!("the configuration was not reloaded, nothing changed: {path}: {error}"),
    )
    .with_details(json!({ "paths": [path] }))
    .with_recovery("fix the vault folder or the config file, then call reload_vault again")
}
