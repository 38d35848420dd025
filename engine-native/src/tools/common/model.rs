//! The language model for a tool call ([`crate::inference`]): the gateway with the calling
//! client's sampler, the configured endpoint, the audit rows for this call, and the egress
//! guard with the caller's read ACL and `inference.excludePaths`.

use crate::inference::egress::{Chunk, Guarded, exclude_globs, guard, is_excluded};
use crate::inference::{Audience, Gateway, Sampler};
use crate::runtime::ToolContext;

/// The model gateway of the call `ctx`.
pub(crate) fn gateway<'a>(ctx: &'a ToolContext<'_>) -> Gateway<'a> {
    gateway_with(ctx, ctx.sampler())
}

/// The gateway of the call `ctx` to the configured chat endpoint only (never the client's
/// sampling): for an optional judge that must not turn a lookup into a round trip.
pub(crate) fn endpoint_gateway<'a>(ctx: &'a ToolContext<'_>) -> Gateway<'a> {
    gateway_with(ctx, None)
}

/// [`gateway`] with `sampler`.
fn gateway_with<'a>(ctx: &'a ToolContext<'_>, sampler: Option<&'a dyn Sampler>) -> Gateway<'a> {
    let audience = Audience {
        vault_id: ctx.vault_id(),
        caller: &ctx.caller().id,
        tool: ctx.tool().name(),
        args_hash: ctx.args_hash(),
    };
    Gateway::new(
        &ctx.served().config().config.inference,
        sampler,
        ctx.store(),
        audience,
        Box::new(move || ctx.clock().now_ms()),
    )
}

/// Whether the text of `path` may be sent to a model for this caller: readable and listed,
/// outside `inference.excludePaths` (credentials are the gateway's scan).
pub(crate) fn may_send(ctx: &ToolContext<'_>, path: &str) -> bool {
    ctx.may_list(path)
        && !is_excluded(
            &exclude_globs(&ctx.served().config().config.inference.exclude_paths),
            path,
        )
}

/// What of `chunks` may be sent to a model for this caller: readable and listed
/// ([`ToolContext::may_list`]), outside `inference.excludePaths`, free of credentials.
pub(crate) fn guard_evidence(ctx: &ToolContext<'_>, chunks: Vec<Chunk>) -> Guarded {
    let excluded = exclude_globs(&ctx.served().config().config.inference.exclude_paths);
    guard(chunks, &|path| ctx.may_list(path), &excluded)
}
