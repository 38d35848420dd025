//! The errors of a bridge call, each naming the plugin and saying what to do: TC Bridge or a
//! plugin behind it missing, TC Bridge unreachable or incompatible, and the errors TC Bridge
//! itself answers with, mapped onto the server's codes.

use std::path::Path;

use serde_json::{Map, Value, json};

use crate::errors::{ErrorCode, ToolError};

use super::contract;
use super::discovery::Absent;
use super::probe::{COMPANION_API_VERSION, ProbeError};

/// TC Bridge's plugin id (its folder under `.obsidian/plugins/`).
pub const TC_BRIDGE_ID: &str = "tc-bridge";

/// A plugin an Obsidian tool needs inside Obsidian: its capability key in the probe, its
/// manifest id, and the name users know it by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Needs {
    /// The key under the probe's `capabilities`.
    pub capability: &'static str,
    /// The plugin's manifest id.
    pub plugin_id: &'static str,
    /// Its name.
    pub name: &'static str,
}

/// The command that installs TC Bridge into the vault at `root`.
fn install_command(root: &Path) -> String {
    format!("obsidian-tc plugin install --vault {}", root.display())
}

/// `plugin_missing`: the vault has no companion, for the reason `absent` says.
pub fn no_companion(vault: &str, root: &Path, absent: &Absent) -> ToolError {
    let install = install_command(root);
    let recovery = match absent {
        Absent::Off => format!(
            "the configuration turns TC Bridge off for vault '{vault}' (companion: false): ask \
             the user to remove that to use Obsidian's plugins; meanwhile use a tool that works \
             without Obsidian"
        ),
        Absent::NoSettings { .. } => format!(
            "ask the user to run `{install}` and enable TC Bridge in Obsidian (the server then \
             finds it by itself); meanwhile use a tool that works without Obsidian"
        ),
        Absent::Unusable { .. } => {
            "ask the user to open the vault in Obsidian with TC Bridge enabled (it rewrites its \
             settings), or to set the vault's companion url and token to the ones TC Bridge's \
             settings show; meanwhile use a tool that works without Obsidian"
                .to_owned()
        }
    };
    ToolError::new(
        ErrorCode::PluginMissing,
        format!(
            "this tool runs inside Obsidian through TC Bridge, and vault '{vault}' has no \
             companion: {absent}"
        ),
    )
    .with_details(json!({ "plugin": TC_BRIDGE_ID, "vault": vault, "install": install }))
    .with_recovery(recovery)
}

/// `plugin_missing`: what answers at the vault's companion url is not TC Bridge (`why`).
pub fn tc_bridge_missing(vault: &str, root: &Path, why: &str) -> ToolError {
    let install = install_command(root);
    ToolError::new(
        ErrorCode::PluginMissing,
        format!(
            "this tool runs inside Obsidian through TC Bridge, and what answers at vault \
             '{vault}''s companion url is not TC Bridge ({why})"
        ),
    )
    .with_details(json!({ "plugin": TC_BRIDGE_ID, "vault": vault, "install": install }))
    .with_recovery(format!(
        "ask the user to run `{install}`, enable TC Bridge in Obsidian and check the vault's \
         companion url (TC Bridge's settings show its port); meanwhile use a tool that works \
         without Obsidian"
    ))
}

/// `plugin_missing`: TC Bridge runs but the plugin the tool needs is not installed or not
/// enabled in Obsidian.
pub fn plugin_missing(vault: &str, needs: &Needs) -> ToolError {
    ToolError::new(
        ErrorCode::PluginMissing,
        format!(
            "this tool needs the {} plugin, which is not installed and enabled in the Obsidian \
             of vault '{vault}'",
            needs.name
        ),
    )
    .with_details(json!({ "plugin": needs.plugin_id, "name": needs.name, "vault": vault }))
    .with_recovery(format!(
        "ask the user to install and enable {} in Obsidian (Settings → Community plugins), then \
         call refresh_plugin_capabilities",
        needs.name
    ))
}

/// `plugin_unreachable` (retryable): nothing answered at the companion url in time.
pub fn unreachable(vault: &str, url: &str, why: &str) -> ToolError {
    ToolError::new(
        ErrorCode::PluginUnreachable,
        format!("TC Bridge of vault '{vault}' at {url} did not answer ({why})"),
    )
    .with_details(json!({ "plugin": TC_BRIDGE_ID, "vault": vault, "url": url }))
}

/// `plugin_unreachable` (not retryable as is): TC Bridge refused the configured token.
pub fn unauthorized(vault: &str, url: &str) -> ToolError {
    let mut error = ToolError::new(
        ErrorCode::PluginUnreachable,
        format!("TC Bridge of vault '{vault}' at {url} refused the configured token"),
    )
    .with_details(json!({ "plugin": TC_BRIDGE_ID, "vault": vault, "url": url }))
    .with_recovery(ProbeError::Unauthorized.hint());
    error.retryable = false;
    error
}

/// `plugin_incompatible`: TC Bridge speaks Companion API `reported`, not ours.
pub fn incompatible(vault: &str, reported: &str) -> ToolError {
    ToolError::new(
        ErrorCode::PluginIncompatible,
        format!(
            "TC Bridge of vault '{vault}' speaks Companion API {reported}, this server speaks \
             {COMPANION_API_VERSION}"
        ),
    )
    .with_details(json!({
        "plugin": TC_BRIDGE_ID,
        "vault": vault,
        "reported": reported,
        "expected": COMPANION_API_VERSION,
    }))
    .with_recovery(format!(
        "ask the user to {}, then call refresh_plugin_capabilities",
        ProbeError::Incompatible {
            reported: reported.to_owned()
        }
        .hint()
    ))
}

/// TC Bridge's own error (`{ok:false, code, message, details}`) as a tool error: its code
/// mapped onto ours as the contract says (a code it does not list is `internal`), its message
/// and details kept, its code in `details.companion_code`.
pub fn from_companion(code: &str, message: &str, details: Option<Value>) -> ToolError {
    let mapped = contract::mapped_code(code).unwrap_or(ErrorCode::Internal);
    let mut map = match details {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    };
    map.insert("companion_code".to_owned(), Value::String(code.to_owned()));
    ToolError::new(mapped, format!("TC Bridge: {message}")).with_details(Value::Object(map))
}
