//! `update_canvas`: adds, removes and changes nodes and edges by id in one all-or-nothing
//! step. Every change is applied to a copy, the whole result is validated, and only then is
//! the canvas written, with the SHA-256 of the read as the precondition. Removing a node
//! removes the edges attached to it; removing more than 10 nodes needs the user's
//! confirmation.

use std::collections::HashSet;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use super::args::{ItemPatch, UpdateCanvas};
use super::load::{load_canvas, write_canvas_file};
use super::model::{Item, field, id, new_item, patch_item};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;

/// Removing more nodes than this in one call needs the user's confirmation (v1 §2.4).
const REMOVE_CONFIRM_NODES: usize = 10;

/// A canvas updated.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct CanvasUpdated {
    /// The canvas's path.
    pub path: String,
    /// The SHA-256 of the new content.
    pub sha256: String,
    /// Nodes in the canvas now.
    pub nodes: usize,
    /// Edges in the canvas now.
    pub edges: usize,
    /// Ids of the nodes removed.
    pub removed_nodes: Vec<String>,
    /// Ids of the edges removed (asked for, or attached to a removed node).
    pub removed_edges: Vec<String>,
}

/// Updates a canvas (see the module docs).
pub(super) fn update_canvas(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: UpdateCanvas = parse(args)?;
    let file = load_canvas(ctx, &args.path, args.expected_sha256.as_deref())?;
    let mut canvas = file.canvas.clone();

    let remove_nodes: HashSet<&str> = args.remove_nodes.iter().map(String::as_str).collect();
    require_present(&canvas.nodes, &remove_nodes, "node", "remove_nodes")?;
    let remove_edges: HashSet<&str> = args.remove_edges.iter().map(String::as_str).collect();
    require_present(&canvas.edges, &remove_edges, "edge", "remove_edges")?;
    let removed_nodes: Vec<String> = canvas
        .nodes
        .iter()
        .map(|n| id(n).to_owned())
        .filter(|n| remove_nodes.contains(n.as_str()))
        .collect();
    canvas.nodes.retain(|n| !remove_nodes.contains(id(n)));
    let attached = |edge: &Item| {
        ["fromNode", "toNode"]
            .iter()
            .any(|key| field(edge, key).is_some_and(|node| remove_nodes.contains(node)))
    };
    let removed_edges: Vec<String> = canvas
        .edges
        .iter()
        .filter(|e| remove_edges.contains(id(e)) || attached(e))
        .map(|e| id(e).to_owned())
        .collect();
    canvas
        .edges
        .retain(|e| !removed_edges.iter().any(|r| r == id(e)));

    apply_patches(&mut canvas.nodes, &args.update_nodes, "node")?;
    apply_patches(&mut canvas.edges, &args.update_edges, "edge")?;
    for node in &args.add_nodes {
        canvas.nodes.push(new_item(node, true)?);
    }
    for edge in &args.add_edges {
        canvas.edges.push(new_item(edge, false)?);
    }
    canvas.validate()?;

    if removed_nodes.len() > REMOVE_CONFIRM_NODES {
        ctx.confirm(json!({
            "tool": ctx.tool().name(),
            "vault": ctx.vault_id(),
            "path": file.path,
            "reason": format!("removes {} nodes, more than {REMOVE_CONFIRM_NODES}", removed_nodes.len()),
            "removed_nodes": removed_nodes,
            "removed_edges": removed_edges,
        }))?;
    }
    let written = if canvas == file.canvas {
        None
    } else {
        Some(write_canvas_file(
            ctx,
            &file.path,
            &canvas,
            Some(file.sha256.clone()),
        )?)
    };
    structured(&CanvasUpdated {
        path: file.path,
        sha256: written.map_or(file.sha256, |w| w.sha256),
        nodes: canvas.nodes.len(),
        edges: canvas.edges.len(),
        removed_nodes,
        removed_edges,
    })
}

/// Refuses ids in `wanted` that no item of `items` has (`not_found`, naming them).
fn require_present(
    items: &[Item],
    wanted: &HashSet<&str>,
    what: &str,
    arg: &str,
) -> Result<(), ToolError> {
    let present: HashSet<&str> = items.iter().map(id).collect();
    let mut missing: Vec<&str> = wanted.difference(&present).copied().collect();
    if missing.is_empty() {
        return Ok(());
    }
    missing.sort_unstable();
    Err(ToolError::new(
        ErrorCode::NotFound,
        format!(
            "{arg}: no {what} with id {} in the canvas; nothing was changed (read_canvas lists the ids)",
            missing.join(", ")
        ),
    )
    .with_details(json!({"missing": missing})))
}

/// Applies `patches` to the items with their ids.
fn apply_patches(items: &mut [Item], patches: &[ItemPatch], what: &str) -> Result<(), ToolError> {
    for patch in patches {
        let item = items
            .iter_mut()
            .find(|i| id(i) == patch.id)
            .ok_or_else(|| {
                ToolError::new(ErrorCode::NotFound, format!(
                    "no {what} with id '{}' to update (removed in this call, or never there); nothing was changed",
                    patch.id
                ))
            })?;
        patch_item(item, &patch.set)?;
    }
    Ok(())
}
