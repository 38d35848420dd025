//! `refresh_plugin_capabilities`: probes the vault's companion again and replaces its
//! capability snapshot, so installing or enabling a plugin, or starting Obsidian, shows up
//! without a restart.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::companion::CapabilityReport;
use crate::dispatch::{ToolContext, ToolDef};
use crate::errors::ToolError;
use crate::tools::args::{input_schema, parse};
use crate::tools::structured::{output_schema, structured};

/// `refresh_plugin_capabilities` takes only the optional `vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RefreshArgs {}

/// The tool.
pub(crate) fn tool() -> ToolDef {
    ToolDef {
        name: "refresh_plugin_capabilities",
        title: "Refresh plugin capabilities",
        description: "Probe the vault's TC Bridge companion again and replace the cached capability snapshot: whether it is reachable, its version and the app's, and which plugins (Dataview, Templater, ...) are installed and enabled. Call it after installing or enabling a plugin, or once the app is running.",
        domain: "admin",
        keywords: &["companion", "probe", "plugins", "reconnect", "tc bridge"],
        input_schema: input_schema::<RefreshArgs>(),
        output_schema: output_schema::<CapabilityReport>(),
        scopes: &["admin:vault"],
        destructive: false,
        idempotency: false,
        vault_arg: true,
        path_args: &[],
        precheck: None,
        handler: refresh,
    }
}

fn refresh(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let RefreshArgs {} = parse(args)?;
    let state = ctx
        .dispatcher()
        .companions()
        .configured(ctx)
        .map(|companion| companion.refresh());
    structured(&CapabilityReport::of(ctx.vault_id(), state.as_ref()))
}
