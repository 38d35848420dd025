//! The folder ACL on paths that are not a declared path argument (lists of paths, listed
//! entries, a destination that gets replaced): the same engine-core policy and the same
//! error the dispatch gate applies to declared path arguments.

use engine_core::acl::AclOp;

use crate::dispatch::ToolContext;
use crate::errors::ToolError;

/// `Ok` when the bound vault's folder ACL lets the caller perform `op` on `path`, else the
/// dispatch gate's error (`acl_denied`, `read_only_mode` or `path_invalid`).
pub(super) fn check_acl(ctx: &ToolContext<'_>, path: &str, op: AclOp) -> Result<(), ToolError> {
    let decision = ctx
        .vault_entry()
        .policy
        .evaluate(path, op, &ctx.caller().scopes);
    if decision.allowed {
        Ok(())
    } else {
        Err(ToolError::from_acl_denial(path, &decision))
    }
}

/// Whether the caller may perform `op` on `path` (for filtering a listing without errors).
pub(super) fn allows(ctx: &ToolContext<'_>, path: &str, op: AclOp) -> bool {
    ctx.vault_entry()
        .policy
        .evaluate(path, op, &ctx.caller().scopes)
        .allowed
}
