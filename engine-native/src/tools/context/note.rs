//! One note read for a context tool the way `read_note` reads it: the caller's folder ACL
//! first, then the vault backend, then UTF-8 decoding, each failure the error `read_note`
//! gives (so a hidden note is refused exactly as `read_note` refuses it).

use engine_core::acl::AclOp;

use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{NoteFile, TextFile};

/// The file at `path` and its decoded text (LF line breaks, no BOM).
pub(super) fn read(ctx: &ToolContext<'_>, path: &str) -> Result<(NoteFile, String), ToolError> {
    ctx.check_path(path, AclOp::Read)?;
    let file = ctx
        .vault()
        .read(path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let text = TextFile::decode(&file.bytes, &file.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    Ok((file, text.text))
}
