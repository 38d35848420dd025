//! The frontmatter side several families share: a note's text read for its properties, the
//! tool error of a frontmatter problem, and the properties of every note under a folder that
//! the caller may read.
//!
//! Dispatch checks the folder ACL only on declared path arguments, and the vault backend
//! has no notion of callers, so the list tools filter each note with
//! [`ToolContext::may`], the same check as dispatch's gate 8.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

use crate::errors::{ErrorCode, ToolError};
use crate::frontmatter::{self, Frontmatter, FrontmatterError};
use crate::runtime::ToolContext;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{EntryKind, Vault, VaultError};
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
    let Texts { notes, mut invalid } = read_notes(ctx, folder)?;
    let mut parsed = Vec::with_capacity(notes.len());
    for note in notes {
        match frontmatter::read(&note.text) {
            Ok(fm) => parsed.push((note.path, fm)),
            Err(error) => invalid.push(InvalidNote {
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
    Ok(Scan {
        notes: parsed,
        invalid,
    })
}

/// The Markdown notes under a folder, read as text.
pub(crate) struct Texts {
    /// Every readable note, sorted by path.
    pub notes: Vec<NoteText>,
    /// The notes that could not be read (not UTF-8, ...).
    pub invalid: Vec<InvalidNote>,
}

/// Reads every Markdown note under `folder` (the whole vault with `None`) that the caller
/// may list; a note that cannot be read is in `invalid`, a note that vanished since the
/// listing is skipped.
pub(crate) fn read_notes(ctx: &ToolContext<'_>, folder: Option<&str>) -> Result<Texts, ToolError> {
    let entries = ctx
        .vault()
        .list(folder)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let mut texts = Texts {
        notes: Vec::new(),
        invalid: Vec::new(),
    };
    for entry in entries {
        if entry.kind != EntryKind::File || !is_note(&entry.path) || !ctx.may_list(&entry.path) {
            continue;
        }
        match read_text(ctx.vault(), &entry.path) {
            Ok(note) => texts.notes.push(note),
            Err(VaultError::NotFound { .. }) => {}
            Err(error) => texts.invalid.push(InvalidNote {
                message: error.to_string(),
                code: error.code().to_owned(),
                path: entry.path,
                line: None,
            }),
        }
    }
    Ok(texts)
}

/// A note's text exactly as stored (BOM and line breaks included).
pub(crate) struct NoteText {
    /// The canonical vault-relative path.
    pub path: String,
    /// The note's text.
    pub text: String,
    /// The SHA-256 of the note's bytes.
    pub sha256: String,
}

/// Reads the note at `path` as UTF-8 text; a file that is not is `NotText`.
pub(crate) fn read_text(vault: &Vault, path: &str) -> Result<NoteText, VaultError> {
    let note = vault.read(path)?;
    let text = String::from_utf8(note.bytes).map_err(|_| VaultError::NotText {
        path: note.path.clone(),
    })?;
    Ok(NoteText {
        path: note.path,
        text,
        sha256: note.sha256,
    })
}

/// [`read_text`] for a tool that reads the note: vault errors become tool errors.
pub(crate) fn read_for_tool(vault: &Vault, path: &str) -> Result<NoteText, ToolError> {
    read_text(vault, path).map_err(|error| tool_error_from_vault(&error, AclOp::Read))
}

/// Maps a frontmatter refusal on the note at `path` to `invalid_input`; `details` name the
/// path, the kind of problem (`frontmatter_code`) and, for invalid YAML, the note line.
pub(crate) fn tool_error_from_frontmatter(error: &FrontmatterError, path: &str) -> ToolError {
    let mut details = json!({ "path": path, "frontmatter_code": frontmatter_code(error) });
    match error {
        FrontmatterError::InvalidYaml { line, .. } => details["line"] = json!(line),
        FrontmatterError::NotAMapping { found } => details["found"] = json!(found),
        FrontmatterError::InvalidKey { key, reason } => {
            details["key"] = json!(key);
            details["reason"] = json!(reason);
        }
        FrontmatterError::ValueNotRepresentable { key } => details["key"] = json!(key),
        FrontmatterError::UnsupportedLayout { reason } => details["reason"] = json!(reason),
    }
    ToolError::new(ErrorCode::InvalidInput, format!("{path}: {error}")).with_details(details)
}

/// A short stable name of the problem.
pub(crate) fn frontmatter_code(error: &FrontmatterError) -> &'static str {
    match error {
        FrontmatterError::InvalidYaml { .. } => "invalid_yaml",
        FrontmatterError::NotAMapping { .. } => "not_a_mapping",
        FrontmatterError::InvalidKey { .. } => "invalid_key",
        FrontmatterError::ValueNotRepresentable { .. } => "value_not_representable",
        FrontmatterError::UnsupportedLayout { .. } => "unsupported_layout",
    }
}

/// A note whose properties could not be read; the list tools report it and go on.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct InvalidNote {
    /// The vault-relative path.
    pub path: String,
    /// What is wrong: a frontmatter code (`invalid_yaml`, `not_a_mapping`, ...) or the
    /// vault backend's code (`not_text`, ...).
    pub code: String,
    /// The problem, for a human.
    pub message: String,
    /// For invalid YAML: the note line of the problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}
