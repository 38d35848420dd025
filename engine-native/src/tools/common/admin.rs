//! What the tool files of the `admin` domain share (`admin`, `audit`, `vaults`).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::runtime::{Handler, ToolDef};

/// No arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoArgs {}

/// A tool of the `admin` domain (of `admin`, `audit` and `vaults`): no path
/// arguments, no precheck, not destructive, no idempotency key; `schemas` is the (input,
/// output) schema pair.
pub(crate) fn admin_tool(
    name: &'static str,
    title: &'static str,
    description: &'static str,
    scopes: &'static [&'static str],
    vault_arg: bool,
    schemas: (Value, Option<Value>),
    handler: Handler,
) -> ToolDef {
    ToolDef {
        vault_arg,
        ..ToolDef::new((name, title, description), "admin", schemas, handler).scopes(scopes)
    }
}
