//! Obsidian's two agent-writable settings files, `.obsidian/workspaces.json` and
//! `.obsidian/bookmarks.json` (the only hard-deny exemptions), read and written through the
//! vault like any file: atomic replace, guarded by the SHA-256 read. They are written back
//! as Obsidian writes them (`JSON.stringify(data, null, 2)`: 2-space indent, no final
//! newline), every object's keys in the order the file had them; keys this server does not
//! know are kept.

use engine_core::acl::AclOp;
use serde_json::{Map, Value};

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::tools::common::ordered_json::{Json, pretty};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::tools::common::write_back::write_back;
use crate::vault::VaultError;

/// `.obsidian/workspaces.json`: `{"workspaces": {name: layout}, "active": name}`.
pub(super) const WORKSPACES_FILE: &str = ".obsidian/workspaces.json";

/// `.obsidian/bookmarks.json`: `{"items": [bookmark or group]}`.
pub(super) const BOOKMARKS_FILE: &str = ".obsidian/bookmarks.json";

/// A settings file as read: its top-level object and SHA-256 (`None` when absent).
pub(super) struct JsonFile {
    /// The vault-relative path.
    pub path: &'static str,
    /// The top-level object (empty when the file does not exist).
    pub root: Map<String, Value>,
    /// The SHA-256 of the bytes read; `None` when the file does not exist.
    pub sha256: Option<String>,
    /// The file as read, keys in its order (the order the written file keeps).
    read: Json,
}

/// Reads `path` (one of the two files above); a missing file is an empty object.
pub(super) fn read_json(ctx: &ToolContext<'_>, path: &'static str) -> Result<JsonFile, ToolError> {
    let file = match ctx.vault().read(path) {
        Ok(file) => file,
        Err(VaultError::NotFound { .. }) => {
            return Ok(JsonFile {
                path,
                root: Map::new(),
                sha256: None,
                read: Json::Null,
            });
        }
        Err(error) => return Err(tool_error_from_vault(&error, AclOp::Read)),
    };
    let read: Json =
        serde_json::from_slice(&file.bytes).map_err(|error| bad_file(path, &error.to_string()))?;
    match read.to_value() {
        Value::Object(root) => Ok(JsonFile {
            path,
            root,
            sha256: Some(file.sha256),
            read,
        }),
        _ => Err(bad_file(path, "it is not a JSON object")),
    }
}

/// `invalid_input` for a settings file that is not as Obsidian writes it.
pub(super) fn bad_file(path: &str, reason: &str) -> ToolError {
    ToolError::new(
        ErrorCode::InvalidInput,
        format!(
            "{path} is not a valid Obsidian file ({reason}); fix or remove it in Obsidian, nothing was changed"
        ),
    )
}

/// Writes `file.root` back, refusing if the file changed since it was read. Returns the new
/// SHA-256.
pub(super) fn write_json(ctx: &ToolContext<'_>, file: &JsonFile) -> Result<String, ToolError> {
    let ordered = Json::ordered_like(&Value::Object(file.root.clone()), &file.read);
    let text = pretty(&ordered);
    write_back(ctx, file.path, text.as_bytes(), file.sha256.clone()).map(|written| written.sha256)
}
