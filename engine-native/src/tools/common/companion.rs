//! Calls to TC Bridge inside Obsidian, for every family that needs one: the call's
//! companion, ready for the plugin the caller needs, then a route within its timeout.

use std::sync::Arc;
use std::time::Duration;

use engine_core::acl::AclOp;
use serde_json::{Value, json};

use crate::companion::contract::{ToolRoute, tool};
use crate::companion::errors::{no_companion, tc_bridge_missing};
use crate::companion::{CallFailure, Needs, VaultCompanion};
use crate::config::VaultConfig;
use crate::errors::ToolError;
use crate::runtime::ToolContext;
/// Calls `route` of the call's companion with `body`: `plugin_missing` without a companion
/// or without the plugin it `needs`, `plugin_unreachable` / `plugin_incompatible` as the
/// snapshot says, else TC Bridge's result or its own error. For a mutating tool, the files
/// its path arguments name for writing are remembered first, so what Obsidian changes there
/// is snapshotted and can be undone. When TC Bridge refuses the token of a companion found
/// through its settings file, or nothing listens at its port any more, the file is read
/// again and, if it names another companion (a regenerated token, a new port), the call goes
/// once more to that one.
pub(crate) fn call_route(
    ctx: &ToolContext<'_>,
    route: &str,
    needs: Option<&Needs>,
    slow: bool,
    body: &Value,
) -> Result<Value, ToolError> {
    let companion = companion_for(ctx)?;
    let missing = |why: &str| tc_bridge_missing(ctx.vault_id(), ctx.vault().root(), why);
    companion.ready(needs, missing)?;
    if ctx.tool().is_mutating() {
        // the files Obsidian is asked to write are snapshotted like the server's own writes
        for arg in ctx
            .tool()
            .def
            .path_args
            .iter()
            .filter(|a| a.op != AclOp::Read)
        {
            if let Some(path) = body.get(arg.name).and_then(Value::as_str) {
                ctx.vault().remember_path(path);
            }
        }
        // once the request is out, Obsidian may act on it even if its answer is lost
        ctx.mark_effect_started();
    }
    match post(&companion, route, slow, body) {
        // nothing was acted on (the token was refused, or nothing was sent): when TC Bridge's
        // settings now name another companion, the call goes there once
        Err(failure @ (CallFailure::Unauthorized | CallFailure::NotConnected(_))) => {
            let again = companion_for(ctx)?;
            if Arc::ptr_eq(&again, &companion) {
                return Err(companion.failure_error(failure, missing));
            }
            again.ready(needs, missing)?;
            post(&again, route, slow, body).map_err(|failure| again.failure_error(failure, missing))
        }
        answer => answer.map_err(|failure| companion.failure_error(failure, missing)),
    }
}

/// [`call_route`] to the contract's `route`, with the plugin it needs and its timeout class.
pub(crate) fn call_contract_route(
    ctx: &ToolContext<'_>,
    route: &ToolRoute,
    body: &Value,
) -> Result<Value, ToolError> {
    call_route(ctx, route.path, route.needs.as_ref(), route.slow(), body)
}

/// Runs the Dataview query `query` in Obsidian through `search_dql`'s route: TC Bridge's
/// `{type, headers?, values}`, rows naming notes the caller may not read already left out
/// there (the caller filters again by its own ACL).
pub(crate) fn run_dql(ctx: &ToolContext<'_>, query: &str) -> Result<Value, ToolError> {
    call_contract_route(ctx, &tool::SEARCH_DQL, &json!({ "query": query }))
}

/// Posts `body` to `route` of `companion` within the route's timeout.
fn post(
    companion: &VaultCompanion,
    route: &str,
    slow: bool,
    body: &Value,
) -> Result<Value, CallFailure> {
    let config = companion.config();
    let timeout_ms = if slow {
        config.slow_call_timeout_ms
    } else {
        config.call_timeout_ms
    };
    companion.post(route, body, Duration::from_millis(timeout_ms))
}

/// The configuration of the vault the call in `ctx` is bound to.
pub(crate) fn vault_config<'d>(ctx: &ToolContext<'d>) -> Result<&'d VaultConfig, ToolError> {
    ctx.vault_config()
        .ok_or_else(|| ToolError::internal("the call's vault is not in the configuration"))
}

/// The companion of the vault the call in `ctx` is bound to, or the `plugin_missing` error
/// saying why it has none.
fn companion_for(ctx: &ToolContext<'_>) -> Result<Arc<VaultCompanion>, ToolError> {
    ctx.runtime()
        .companions()
        .of(vault_config(ctx)?)
        .map_err(|absent| no_companion(ctx.vault_id(), ctx.vault().root(), &absent))
}
