//! `read_frontmatter` and `read_property`.

use serde_json::Value;

use super::args::{NotePath, NoteProperty};
use super::results::{FrontmatterRead, PropertyEntry, PropertyRead};
use crate::errors::ToolError;
use crate::frontmatter::{self, PropertyType};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::frontmatter::read_for_tool;
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::structured::structured;

/// The properties of a note in the order it lists them, each with its type, and the note's
/// SHA-256.
pub(super) fn read_frontmatter(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: NotePath = parse(args)?;
    let note = read_for_tool(ctx.vault(), &args.path)?;
    let fm = frontmatter::read(&note.text)
        .map_err(|error| tool_error_from_frontmatter(&error, &note.path))?;
    let properties = fm
        .keys
        .iter()
        .map(|key| {
            let value = fm.properties.get(key).cloned().unwrap_or(Value::Null);
            PropertyEntry {
                key: key.clone(),
                kind: PropertyType::of(&value),
                value,
            }
        })
        .collect();
    structured(&FrontmatterRead {
        path: note.path,
        has_frontmatter: fm.yaml_range.is_some(),
        properties,
        sha256: note.sha256,
    })
}

/// One property's value (`null` when the note does not have it) and whether it exists.
pub(super) fn read_property(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: NoteProperty = parse(args)?;
    let note = read_for_tool(ctx.vault(), &args.path)?;
    let value = frontmatter::property(&note.text, &args.key)
        .map_err(|error| tool_error_from_frontmatter(&error, &note.path))?;
    structured(&PropertyRead {
        path: note.path,
        key: args.key,
        exists: value.is_some(),
        kind: value.as_ref().map(PropertyType::of),
        value: value.unwrap_or(Value::Null),
        sha256: note.sha256,
    })
}
