//! `update_base`: a base's views (add, replace, remove by name), formulas, property
//! configuration and top-level filters patched; every other top-level key is kept, in file
//! order. Changing the top-level filters (which files the base covers) asks the user first.
//! The file is rewritten in the property YAML style (comments and custom formatting are
//! not kept) and parsed back with the base parser before it is written.

use serde_json::{Map, Value, json};

use super::args::{UpdateBase, ViewOp, ViewPatch};
use super::load::{parse_base_text, read_base_text};
use super::written::{prepare_update, write_base};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::vault_error::check_expected;

/// Updates a base (see the module docs).
pub(super) fn update_base(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: UpdateBase = parse(args)?;
    if args.clear_filters && args.filters.is_some() {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "pass either filters (to set them) or clear_filters (to remove them), not both",
        ));
    }
    let (path, sha256, text) = read_base_text(ctx, &args.path)?;
    check_expected(&path, Some(&sha256), args.expected_sha256.as_deref())?;
    let (mut sections, _) = parse_base_text(&path, &text)?;
    let original = sections.clone();
    let old_filters = section(&sections, "filters").cloned();
    if args.clear_filters {
        sections.retain(|(key, _)| key != "filters");
    } else if let Some(filters) = args.filters {
        set_section(&mut sections, "filters", filters);
    }
    for (key, patch) in [("formulas", args.formulas), ("properties", args.properties)] {
        if let Some(patch) = patch {
            patch_map(&mut sections, key, patch, &path)?;
        }
    }
    patch_views(&mut sections, &args.views, &path)?;
    let prepared = prepare_update(&path, (&text, &original), &sections)?;
    let new_filters = section(&sections, "filters").cloned();
    if new_filters != old_filters {
        ctx.confirm(json!({
            "action": "change_base_filters",
            "path": path,
            "from": old_filters,
            "to": new_filters,
        }))?;
    }
    write_base(ctx, &path, prepared, Some(sha256))
}

/// The top-level section `key`.
fn section<'a>(sections: &'a [(String, Value)], key: &str) -> Option<&'a Value> {
    sections.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Sets the top-level section `key`, in place when it exists, else at the end.
fn set_section(sections: &mut Vec<(String, Value)>, key: &str, value: Value) {
    match sections.iter_mut().find(|(k, _)| k == key) {
        Some((_, old)) => *old = value,
        None => sections.push((key.to_owned(), value)),
    }
}

/// `invalid_input` naming the section `key` that is not a mapping or list as a base has it.
fn malformed(path: &str, key: &str, shape: &str) -> ToolError {
    ToolError::new(
        ErrorCode::InvalidInput,
        format!(
            "'{path}': its '{key}' is not a {shape}; fix the file or recreate it with create_base"
        ),
    )
}

/// Sets or (for `null`) removes entries of the mapping section `key`; an emptied section is
/// dropped.
fn patch_map(
    sections: &mut Vec<(String, Value)>,
    key: &str,
    patch: Map<String, Value>,
    path: &str,
) -> Result<(), ToolError> {
    let mut map = match section(sections, key) {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(map)) => map.clone(),
        Some(_) => return Err(malformed(path, key, "mapping")),
    };
    for (name, value) in patch {
        match value {
            Value::Null => map.remove(&name),
            value => map.insert(name, value),
        };
    }
    if map.is_empty() {
        sections.retain(|(k, _)| k != key);
    } else {
        set_section(sections, key, Value::Object(map));
    }
    Ok(())
}

/// Applies the view changes in order.
fn patch_views(
    sections: &mut Vec<(String, Value)>,
    patches: &[ViewPatch],
    path: &str,
) -> Result<(), ToolError> {
    if patches.is_empty() {
        return Ok(());
    }
    let mut views = match section(sections, "views") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(views)) => views.clone(),
        Some(_) => return Err(malformed(path, "views", "list")),
    };
    for patch in patches {
        let at = views
            .iter()
            .position(|v| v.get("name").and_then(Value::as_str) == Some(patch.name.as_str()));
        let view = || -> Result<Value, ToolError> {
            let mut view = patch.view.clone().ok_or_else(|| {
                ToolError::new(
                    ErrorCode::InvalidInput,
                    format!("view '{}': {:?} needs `view`", patch.name, patch.op),
                )
            })?;
            view.insert("name".to_owned(), Value::String(patch.name.clone()));
            Ok(Value::Object(view))
        };
        match (patch.op, at) {
            (ViewOp::Add, None) => views.push(view()?),
            (ViewOp::Replace, Some(i)) => views[i] = view()?,
            (ViewOp::Remove, Some(i)) => {
                views.remove(i);
            }
            (ViewOp::Add, Some(_)) => {
                return Err(ToolError::new(
                    ErrorCode::AlreadyExists,
                    format!(
                        "'{path}' already has a view named '{}': use op replace, or another name",
                        patch.name
                    ),
                ));
            }
            (_, None) => {
                return Err(ToolError::new(
                    ErrorCode::NotFound,
                    format!(
                        "'{path}' has no view named '{}': read_base lists its view names",
                        patch.name
                    ),
                ));
            }
        }
    }
    set_section(sections, "views", Value::Array(views));
    Ok(())
}
