//! `refresh_plugin_capabilities`: probes the vault's companion again and replaces its
//! capability snapshot, so installing or enabling a plugin, or starting Obsidian, shows up
//! without a restart.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::companion::CapabilityReport;
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

use crate::tools::common::companion::vault_config;

/// `refresh_plugin_capabilities` takes only the optional `vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RefreshArgs {}

/// The tool.
pub(crate) fn tool() -> ToolDef {
    ToolDef::new(
("refresh_plugin_capabilities", "Refresh plugin capabilities", "Probe the vault's TC Bridge companion again and replace the cached capability snapshot: whether it is reachable, its version and the app's, and which plugins (Dataview, Templater, ...) are installed and enabled. Call it after installing or enabling a plugin, or once the app is running."),
"admin",
(input_schema::<RefreshArgs>(), output_schema::<CapabilityReport>()),
refresh,
)
.keywords(&["companion", "probe", "plugins", "reconnect", "tc bridge", "plugin check", "installed plugins"])
.scopes(&["admin:vault"])
}

fn refresh(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let RefreshArgs {} = parse(args)?;
    let state = ctx
        .runtime()
        .companions()
        .of(vault_config(ctx)?)
        .map(|companion| companion.refresh());
    structured(&CapabilityReport::of(ctx.vault_id(), state.as_ref()))
}
