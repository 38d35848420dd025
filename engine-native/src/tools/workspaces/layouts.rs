//! `list_workspaces`, `save_workspace` and `open_workspace` over the Workspaces core
//! plugin's `.obsidian/workspaces.json` (`{"workspaces": {name: layout}, "active": name}`).
//!
//! A layout names its open files in the leaves' view state (`"file": "Notes/a.md"`); the
//! tools list only those the caller may read. The current layout is Obsidian's
//! `.obsidian/workspace.json`, read by the server alone (it stays hard-denied to agents).
//! Switching the live layout (`open_workspace`) is the running app's work: the server checks
//! the name, then asks the vault's TC Bridge companion to load it.

use std::collections::BTreeSet;

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::args::{NoArgs, WorkspaceName};
use super::json_file::{JsonFile, WORKSPACES_FILE, bad_file, read_json, write_json};
use crate::companion::contract::tool::OPEN_WORKSPACE;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::companion::call_contract_route;
use crate::tools::common::structured::structured;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::ObsidianSetting;

/// One saved workspace.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct WorkspaceOut {
    /// Its name.
    pub name: String,
    /// Whether it is the active one.
    pub active: bool,
    /// The files its layout has open that the caller may read, sorted.
    pub files: Vec<String>,
}

/// `list_workspaces`'s result.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct WorkspaceList {
    /// The saved workspaces, by name.
    pub workspaces: Vec<WorkspaceOut>,
    /// The active workspace's name, if any.
    pub active: Option<String>,
}

/// `open_workspace`'s result, as TC Bridge answers it.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub(super) struct WorkspaceOpened {
    /// The workspace asked for.
    pub name: String,
    /// Whether Obsidian loaded it.
    pub opened: bool,
    /// The workspace Obsidian now has active.
    pub active: String,
}

/// `save_workspace`'s result.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct WorkspaceSaved {
    /// The workspace's name.
    pub name: String,
    /// Whether it replaced a saved workspace of that name.
    pub replaced: bool,
    /// The files the saved layout has open that the caller may read.
    pub files: Vec<String>,
    /// The SHA-256 of `.obsidian/workspaces.json` now.
    pub sha256: String,
}

/// The `workspaces` object of the file (empty when absent).
fn saved(file: &JsonFile) -> Result<Map<String, Value>, ToolError> {
    match file.root.get("workspaces") {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(map)) => Ok(map.clone()),
        Some(_) => Err(bad_file(file.path, "'workspaces' is not an object")),
    }
}

/// The files a layout has open (every `"file"` text in it) that the caller may read.
fn open_files(ctx: &ToolContext<'_>, layout: &Value) -> Vec<String> {
    fn walk(value: &Value, out: &mut BTreeSet<String>) {
        match value {
            Value::Object(map) => {
                for (key, value) in map {
                    match (key.as_str(), value) {
                        ("file", Value::String(path)) => {
                            out.insert(path.clone());
                        }
                        _ => walk(value, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| walk(item, out)),
            _ => {}
        }
    }
    let mut files = BTreeSet::new();
    walk(layout, &mut files);
    files
        .into_iter()
        .filter(|path| ctx.may(path, AclOp::Read))
        .collect()
}

/// Lists the saved workspaces (see the module docs).
pub(super) fn list_workspaces(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let _: NoArgs = parse(args)?;
    let file = read_json(ctx, WORKSPACES_FILE)?;
    let active = file
        .root
        .get("active")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let workspaces = saved(&file)?
        .iter()
        .map(|(name, layout)| WorkspaceOut {
            active: active.as_deref() == Some(name.as_str()),
            files: open_files(ctx, layout),
            name: name.clone(),
        })
        .collect();
    structured(&WorkspaceList { workspaces, active })
}

/// Saves the current layout under a name and makes it the active workspace, as Obsidian's
/// "Save" does; replacing a saved one asks the user first.
pub(super) fn save_workspace(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: WorkspaceName = parse(args)?;
    let name = args.name.trim();
    if name.is_empty() {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "name is empty: pass the workspace's name",
        ));
    }
    let mut layout = ctx
        .vault()
        .read_setting(ObsidianSetting::Workspace)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?
        .ok_or_else(|| {
            ToolError::new(
                ErrorCode::NotFound,
                "Obsidian has not written .obsidian/workspace.json (the current layout) yet: open the vault in Obsidian once, then save again",
            )
        })?;
    if let Value::Object(map) = &mut layout {
        // Obsidian keeps the recent-files list beside the layout, not in a saved workspace.
        map.remove("lastOpenFiles");
    }
    let mut file = read_json(ctx, WORKSPACES_FILE)?;
    let mut workspaces = saved(&file)?;
    let replaced = workspaces.contains_key(name);
    let files = open_files(ctx, &layout);
    if replaced {
        ctx.confirm(json!({"action": "replace_workspace", "name": name, "files": files}))?;
    }
    workspaces.insert(name.to_owned(), layout);
    file.root
        .insert("workspaces".to_owned(), Value::Object(workspaces));
    file.root
        .insert("active".to_owned(), Value::String(name.to_owned()));
    let sha256 = write_json(ctx, &file)?;
    structured(&WorkspaceSaved {
        name: name.to_owned(),
        replaced,
        files,
        sha256,
    })
}

/// Switches Obsidian's live layout: the name is checked against `workspaces.json` (an
/// unknown one is `not_found`), then TC Bridge loads it; without a reachable companion the
/// call answers `plugin_missing` / `plugin_unreachable` and nothing changes.
pub(super) fn open_workspace(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: WorkspaceName = parse(args)?;
    let file = read_json(ctx, WORKSPACES_FILE)?;
    if !saved(&file)?.contains_key(&args.name) {
        return Err(ToolError::new(
            ErrorCode::NotFound,
            format!(
                "no saved workspace is named '{}': list_workspaces gives the names",
                args.name
            ),
        ));
    }
    let answer = call_contract_route(ctx, &OPEN_WORKSPACE, &json!({"name": args.name}))?;
    let opened: WorkspaceOpened = serde_json::from_value(answer).map_err(|error| {
        ToolError::internal(format!(
            "TC Bridge answered open_workspace with an unexpected shape: {error}"
        ))
    })?;
    structured(&opened)
}
