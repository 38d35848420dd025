//! Reading the properties of every note under a folder that the caller may read.
//!
//! Dispatch checks the folder ACL only on declared path arguments, and the vault backend
//! has no notion of callers, so the list tools filter each note with
//! [`ToolContext::may`], the same check as dispatch's gate 8.

use engine_core::acl::AclOp;
use serde_json::{Value, json};

use super::errors::frontmatter_code;
use super::note::read_text;
use crate::dispatch::ToolContext;
use crate::errors::ToolError;
use crate::frontmatter::{self, Frontmatter};
use crate::tools::vault_error::tool_error_from_vault;
use crate::vault::{EntryKind, VaultError};

/// The most unreadable notes a list names; `invalid_count` counts them all.
const MAX_INVALID_LISTED: usize = 100;

/// The notes of a scan.
pub(super) struct Scan {
    /// Path and properties of every readable note, sorted by path.
    pub notes: Vec<(String, Frontmatter)>,
    /// The notes whose properties could not be read: `{path, code, message, line?}`.
    pub invalid: Vec<Value>,
}

impl Scan {
    /// The `invalid` and `invalid_count` fields of a list result.
    pub fn invalid_report(&self) -> (Value, usize) {
        let listed: Vec<&Value> = self.invalid.iter().take(MAX_INVALID_LISTED).collect();
        (json!(listed), self.invalid.len())
    }
}

/// Whether a listed file is a Markdown note.
fn is_note(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("md"))
}

/// Reads the properties of every Markdown note under `folder` (the whole vault with
/// `None`) that the caller may read. A note that cannot be read or parsed is reported in
/// `invalid`, never fatal; a note that vanished since the listing is skipped.
pub(super) fn scan(ctx: &ToolContext<'_>, folder: Option<&str>) -> Result<Scan, ToolError> {
    let entries = ctx
        .vault()
        .list(folder)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let mut scan = Scan {
        notes: Vec::new(),
        invalid: Vec::new(),
    };
    for entry in entries {
        if entry.kind != EntryKind::File
            || !is_note(&entry.path)
            || !ctx.may(&entry.path, AclOp::Read)
        {
            continue;
        }
        let note = match read_text(ctx.vault(), &entry.path) {
            Ok(note) => note,
            Err(VaultError::NotFound { .. }) => continue,
            Err(error) => {
                scan.invalid.push(json!({
                    "path": entry.path,
                    "code": error.code(),
                    "message": error.to_string(),
                }));
                continue;
            }
        };
        match frontmatter::read(&note.text) {
            Ok(fm) => scan.notes.push((note.path, fm)),
            Err(error) => {
                let mut problem = json!({
                    "path": note.path,
                    "code": frontmatter_code(&error),
                    "message": error.to_string(),
                });
                if let frontmatter::FrontmatterError::InvalidYaml { line, .. } = error {
                    problem["line"] = json!(line);
                }
                scan.invalid.push(problem);
            }
        }
    }
    Ok(scan)
}
