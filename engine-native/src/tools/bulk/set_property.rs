//! `bulk_set_property`: set one frontmatter property on many notes, named by `paths` or
//! selected by `folder` and/or `tag`. A selection only ever holds notes the caller may read
//! and write, so a hidden note is never touched nor counted; a named path the caller may
//! not write fails as its own item. Only the property's lines change in each note
//! ([`crate::frontmatter::apply`]); a note already holding the value is `unchanged`.

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;
use engine_core::markdown::ChunkOptions;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::outcome::{BulkResult, ItemResult, ItemStatus, finish};
use crate::errors::{ErrorCode, ToolError};
use crate::frontmatter::{Edit, apply};
use crate::note::parse_note;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::structured::output_schema;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::tools::common::write_back::write_back;
use crate::vault::{EntryKind, VaultError};

/// The most notes one call edits.
const MAX_NOTES: usize = 1000;

/// The arguments of `bulk_set_property`: `paths`, or `folder` and/or `tag`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct BulkSetProperty {
    /// The notes to edit, by vault-relative path.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1000))]
    paths: Option<Vec<String>>,
    /// Edit every Markdown note under this folder (with `tag`: those with the tag).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    folder: Option<String>,
    /// Edit every note with this tag (`#project` or `project`; child tags such as
    /// `project/alpha` count), inline or in the frontmatter.
    #[serde(default)]
    #[schemars(length(min = 1, max = 256))]
    tag: Option<String>,
    /// The property to set.
    #[schemars(length(min = 1, max = 256))]
    key: String,
    /// Its new value: text, number, boolean, list or object (null leaves it empty).
    value: Value,
}

/// The `bulk_set_property` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("bulk_set_property", "Set a property on many notes", "Batch edit: write one frontmatter property into many notes at once: the notes named by paths, or every note under folder and/or with tag (inline or frontmatter, child tags included) that you may edit. Only that property's lines change in each note. One result per note (updated, unchanged or failed). Always needs the user's confirmation. When some notes fail the call returns bulk_partial with the per-note results in details."),
"notes",
(input_schema::<BulkSetProperty>(), output_schema::<BulkResult>()),
bulk_set_property,
)
.keywords(&["every note in", "on all notes", "set on every", "batch", "mass edit", "frontmatter", "yaml", "many notes", "every note", "in bulk"])
.scopes(&["write:notes", "bulk:notes"])
.precheck(precheck)
}

/// Refuses a contradictory selection before the confirmation is asked for.
fn precheck(_ctx: &ToolContext<'_>, args: &Value) -> Result<(), ToolError> {
    let args: BulkSetProperty = parse(args.clone())?;
    check_selection(&args)
}

/// `paths` alone, or `folder` and/or `tag`.
fn check_selection(args: &BulkSetProperty) -> Result<(), ToolError> {
    let filtered = args.folder.is_some() || args.tag.is_some();
    if args.paths.is_some() == filtered {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "give either paths, or folder and/or tag, to say which notes to edit",
        ));
    }
    Ok(())
}

fn bulk_set_property(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: BulkSetProperty = parse(args)?;
    check_selection(&args)?;
    let paths = match &args.paths {
        Some(paths) => paths.clone(),
        None => select(ctx, args.folder.as_deref(), args.tag.as_deref())?,
    };
    if paths.len() > MAX_NOTES {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!(
                "the selection holds {} notes, more than {MAX_NOTES}; narrow the folder or tag",
                paths.len()
            ),
        ));
    }
    let edit = Edit::Set {
        key: args.key.clone(),
        value: args.value.clone(),
    };
    let results = paths
        .iter()
        .map(|path| set_one(ctx, path, &edit).unwrap_or_else(|e| ItemResult::failed(path, &e)))
        .collect();
    finish(results)
}

/// The Markdown notes under `folder` (the whole vault without one) with `tag` (any without
/// one) that the caller may read and write, sorted by path.
fn select(
    ctx: &ToolContext<'_>,
    folder: Option<&str>,
    tag: Option<&str>,
) -> Result<Vec<String>, ToolError> {
    let entries = ctx
        .vault()
        .list(folder)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let tag = tag.map(|tag| tag.trim_start_matches('#').to_lowercase());
    let mut selected = Vec::new();
    for entry in entries {
        let is_note = entry.kind == EntryKind::File
            && entry
                .path
                .rsplit_once('.')
                .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("md"));
        if !is_note || !ctx.may(&entry.path, AclOp::Read) || !ctx.may(&entry.path, AclOp::Write) {
            continue;
        }
        if let Some(tag) = &tag
            && !has_tag(ctx, &entry.path, tag)
        {
            continue;
        }
        selected.push(entry.path);
    }
    Ok(selected)
}

/// Whether the note at `path` carries `tag` (a lowercase key) or one of its child tags; a
/// note that cannot be read does not.
fn has_tag(ctx: &ToolContext<'_>, path: &str, tag: &str) -> bool {
    let Ok(file) = ctx.vault().read(path) else {
        return false;
    };
    let Ok(text) = String::from_utf8(file.bytes) else {
        return false;
    };
    parse_note(path, &text, &ChunkOptions::default())
        .tags
        .iter()
        .any(|key| {
            key == tag
                || key
                    .strip_prefix(tag)
                    .is_some_and(|rest| rest.starts_with('/'))
        })
}

/// Sets the property in the note at `path`.
fn set_one(ctx: &ToolContext<'_>, path: &str, edit: &Edit) -> Result<ItemResult, ToolError> {
    ctx.check_path(path, AclOp::Write)?;
    ctx.check_path(path, AclOp::Read)?;
    let file = ctx
        .vault()
        .read(path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
    let text = String::from_utf8(file.bytes.clone()).map_err(|_| {
        tool_error_from_vault(
            &VaultError::NotText {
                path: file.path.clone(),
            },
            AclOp::Write,
        )
    })?;
    let edited = apply(&text, edit).map_err(|error| tool_error_from_frontmatter(&error, path))?;
    if edited.text == text {
        return Ok(ItemResult::done(
            file.path,
            ItemStatus::Unchanged,
            file.sha256,
        ));
    }
    let outcome = write_back(ctx, &file.path, edited.text.as_bytes(), Some(file.sha256))?;
    Ok(ItemResult::done(
        outcome.path,
        ItemStatus::Updated,
        sha256_hex(edited.text.as_bytes()),
    ))
}
