//! Reading the properties of every note under a folder that the caller may read.
//!
//! Dispatch checks the folder ACL only on declared path arguments, and the vault backend
//! has no notion of callers, so the list tools filter each note with
//! [`ToolContext::may`], the same check as dispatch's gate 8.

use super::errors::frontmatter_code;
use super::note::read_text;
use super::results::InvalidNote;
use crate::errors::ToolError;
use crate::frontmatter::{self, Frontmatter};
use crate::runtime::ToolContext;
use crate::tools::vault_error::tool_error_from_vault;
use crate::vault::{EntryKind, VaultError};
use engine_core::acl::AclOp;

/// The most unreadable notes a list names; `invalid_count` counts them all.
const MAX_INVALID_LISTED: usize = 100;

/// The notes of a scan.
pub(crate) struct Scan {
    /// Path and properties of every readable note, sorted by path.
    pub notes: Vec<(String, Frontmatter)>,
    /// The notes whose properties could not be read.
    pub invalid: Vec<InvalidNote>,
}

impl Scan {
    /// The `invalid` and `invalid_count` fields of a list result: the first
    /// [`MAX_INVALID_LISTED`] unreadable notes and how many there are.
    pub fn invalid_report(&mut self) -> (Vec<InvalidNote>, usize) {
        let count = self.invalid.len();
        let mut listed = std::mem::take(&mut self.invalid);
        listed.truncate(MAX_INVALID_LISTED);
        (listed, count)
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
pub(crate) fn scan(ctx: &ToolContext<'_>, folder: Option<&str>) -> Result<Scan, ToolError> {
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
                scan.invalid.push(InvalidNote {
                    message: error.to_string(),
                    code: error.code().to_owned(),
                    path: entry.path,
                    line: None,
                });
                continue;
            }
        };
        match frontmatter::read(&note.text) {
            Ok(fm) => scan.notes.push((note.path, fm)),
            Err(error) => scan.invalid.push(InvalidNote {
                code: frontmatter_code(&error).to_owned(),
                message: error.to_string(),
                line: match error {
                    frontmatter::FrontmatterError::InvalidYaml { line, .. } => Some(line),
                    _ => None,
                },
                path: note.path,
            }),
        }
    }
    Ok(scan)
}
