//! Reading a `.base` file (YAML) and gathering the files a query runs over.

use std::collections::HashMap;

use engine_core::acl::AclOp;
use serde_json::{Map, Value, json};

use crate::bases::eval::FileFacts;
use crate::bases::model::{Base, BaseError, read_base};
use crate::errors::{ErrorCode, ToolError};
use crate::frontmatter::parse_properties;
use crate::runtime::ToolContext;
use crate::tools::common::index::index_fault;
use crate::tools::common::link_table::link_table;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::EntryKind;

/// A `.base` file as read.
pub(super) struct BaseFile {
    /// Its canonical path.
    pub path: String,
    /// Its SHA-256.
    pub sha256: String,
    /// The YAML as JSON.
    pub json: Value,
    /// The parsed base.
    pub base: Base,
}

/// `unsupported_base_filter` for `error` in the base at `path`.
pub(super) fn unsupported(path: &str, error: &BaseError) -> ToolError {
    ToolError::new(
        ErrorCode::UnsupportedBaseFilter,
        format!(
            "{path}: {} is not supported (at {})",
            error.construct, error.location
        ),
    )
    .with_details(json!({"path": path, "construct": error.construct, "location": error.location}))
}

/// `invalid_input` unless `path` names a `.base` file.
pub(super) fn require_base_path(path: &str) -> Result<(), ToolError> {
    if path.to_lowercase().ends_with(".base") {
        return Ok(());
    }
    Err(ToolError::new(
        ErrorCode::InvalidInput,
        format!("'{path}' is not a .base file: pass the path of a base, e.g. 'Views/Books.base'"),
    ))
}

/// The YAML text of a base at `path`: its top-level sections in file order and the parsed
/// base. Invalid YAML is `invalid_input`, an unsupported construct `unsupported_base_filter`.
pub(super) fn parse_base_text(
    path: &str,
    text: &str,
) -> Result<(Vec<(String, Value)>, Base), ToolError> {
    let sections = parse_properties(text, 1).map_err(|error| {
        ToolError::new(
            ErrorCode::InvalidInput,
            format!("'{path}' is not a valid base: {error}"),
        )
    })?;
    let json = Value::Object(sections.iter().cloned().collect::<Map<_, _>>());
    let base = read_base(&json).map_err(|error| unsupported(path, &error))?;
    Ok((sections, base))
}

/// Reads the base at `path` as UTF-8 text with its canonical path and SHA-256.
pub(super) fn read_base_text(
    ctx: &ToolContext<'_>,
    path: &str,
) -> Result<(String, String, String), ToolError> {
    require_base_path(path)?;
    let file = ctx
        .vault()
        .read(path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let text = String::from_utf8(file.bytes).map_err(|_| {
        ToolError::new(
            ErrorCode::InvalidInput,
            format!("'{path}' is not UTF-8 text"),
        )
    })?;
    Ok((file.path, file.sha256, text))
}

/// Reads and parses the base at `path`.
pub(super) fn load_base(ctx: &ToolContext<'_>, path: &str) -> Result<BaseFile, ToolError> {
    let (path, sha256, text) = read_base_text(ctx, path)?;
    let (sections, base) = parse_base_text(&path, &text)?;
    Ok(BaseFile {
        json: Value::Object(sections.into_iter().collect()),
        path,
        sha256,
        base,
    })
}

/// Every file of the vault the caller may read (hidden folders left out), with the index's
/// frontmatter, tags and resolved links for notes.
pub(super) fn vault_files(ctx: &ToolContext<'_>) -> Result<Vec<FileFacts>, ToolError> {
    let entries = ctx
        .vault()
        .list(None)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let mut facts: HashMap<String, _> = ctx
        .store()
        .note_facts()
        .all(ctx.vault_id())
        .map_err(index_fault)?
        .into_iter()
        .map(|f| (f.path.clone(), f))
        .collect();
    let table = link_table(ctx)?;
    let graph = table.graph();
    Ok(entries
        .into_iter()
        .filter(|e| e.kind == EntryKind::File)
        .filter(|e| !e.path.split('/').any(|part| part.starts_with('.')))
        .filter(|e| ctx.may_list(&e.path))
        .map(|entry| {
            let note = facts.remove(&entry.path);
            FileFacts {
                links: graph.outgoing(&entry.path).to_vec(),
                frontmatter: note
                    .as_ref()
                    .map(|n| n.frontmatter.clone())
                    .unwrap_or_default(),
                tags: note.map(|n| n.tags).unwrap_or_default(),
                size: entry.size,
                mtime_ms: entry.modified_ms,
                path: entry.path,
            }
        })
        .collect())
}
