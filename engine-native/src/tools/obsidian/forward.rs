//! The one body of every Obsidian tool: its validated arguments sent to its route through
//! [`call_route`].

use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::companion::call_route;

use super::args::ObsidianCall;

/// The handler of the Obsidian tool whose arguments are `T`.
pub(crate) fn forward<T: ObsidianCall>(
    ctx: &ToolContext<'_>,
    args: Value,
) -> Result<Value, ToolError> {
    let typed: T = parse(args)?;
    send(ctx, &typed)
}

/// Sends the typed call to its route (with its `mode` when the route is shared).
pub(crate) fn send<T: ObsidianCall>(ctx: &ToolContext<'_>, typed: &T) -> Result<Value, ToolError> {
    let mut body = serde_json::to_value(typed)
        .map_err(|error| ToolError::internal(format!("cannot encode the arguments: {error}")))?;
    if let (Some(mode), Some(map)) = (T::MODE, body.as_object_mut()) {
        map.insert("mode".to_owned(), Value::String(mode.to_owned()));
    }
    call_route(ctx, T::ROUTE, T::NEEDS.as_ref(), T::SLOW, &body)
}
