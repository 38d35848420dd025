//! The tools that work over a whole vault on the caller's behalf (a derived table filled
//! from every note): refused, the same way whatever the hidden notes hold, to a caller who
//! may not read every note, since what they count would depend on the notes it may not read.

use engine_core::acl::AclOp;

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;

/// `acl_denied` unless the caller may read every note of the vault; `what` names the work.
pub(crate) fn require_whole_vault(ctx: &ToolContext<'_>, what: &str) -> Result<(), ToolError> {
    if ctx.reads_everything() {
        return Ok(());
    }
    Err(ToolError::new(
        ErrorCode::AclDenied,
        format!(
            "{what} reads every note of the vault and is refused under a read restriction; \
             an operator runs it (or the command line)"
        ),
    )
    .with_details(serde_json::json!({ "op": AclOp::Read })))
}
