//! The one write of a tool that edits a file it read: the call's effect is marked as started
//! (a failure from here on may have changed the vault), then the file is written through the
//! vault, guarded by the SHA-256 it had when read.

use engine_core::acl::AclOp;

use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{WriteOptions, WriteOutcome};

/// Writes `bytes` at `path`: a new file when `replacing` is `None`, else in place of the
/// file read with that SHA-256 (`concurrent_modification` when it changed since).
pub(crate) fn write_back(
    ctx: &ToolContext<'_>,
    path: &str,
    bytes: &[u8],
    replacing: Option<String>,
) -> Result<WriteOutcome, ToolError> {
    let options = WriteOptions {
        overwrite: replacing.is_some(),
        expected_sha256: replacing,
    };
    ctx.mark_effect_started();
    ctx.vault()
        .write(path, bytes, &options)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Write))
}
