//! `create_base`: a new `.base` file from its sections, checked by the base parser before it
//! is written; an existing file is replaced only with `overwrite` and the user's confirmation.

use engine_core::acl::AclOp;
use serde_json::{Value, json};

use super::args::CreateBase;
use super::load::require_base_path;
use super::written::{prepare, write_base};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::VaultError;

/// Creates a base (see the module docs).
pub(super) fn create_base(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: CreateBase = parse(args)?;
    require_base_path(&args.path)?;
    let sections: Vec<(String, Value)> = [
        ("filters", args.filters),
        ("formulas", args.formulas.map(Value::Object)),
        ("properties", args.properties.map(Value::Object)),
        ("views", args.views.map(Value::Array)),
    ]
    .into_iter()
    .filter_map(|(key, value)| Some((key.to_owned(), value?)))
    .collect();
    let prepared = prepare(&args.path, &sections)?;
    let previous = match ctx.vault().read(&args.path) {
        Ok(file) => Some(file),
        Err(VaultError::NotFound { .. }) => None,
        Err(error) => return Err(tool_error_from_vault(&error, AclOp::Read)),
    };
    let previous_sha256 = match previous {
        None => None,
        Some(file) if !args.overwrite => {
            return Err(ToolError::new(
                ErrorCode::AlreadyExists,
                format!(
                    "'{}' already exists: pass overwrite: true to replace it, or use update_base to change it",
                    file.path
                ),
            ));
        }
        Some(file) => {
            ctx.confirm(json!({
                "action": "replace_base",
                "path": file.path,
                "previous_sha256": file.sha256,
            }))?;
            Some(file.sha256)
        }
    };
    write_base(ctx, &args.path, prepared, previous_sha256)
}
