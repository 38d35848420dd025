//! `create_canvas`: a new canvas with initial nodes and edges, validated before anything is
//! written; replacing an existing file needs `overwrite: true` and the user's confirmation.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use super::args::CreateCanvas;
use super::load::{require_canvas_path, write_canvas_file};
use super::model::{Canvas, new_item};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::VaultError;

/// A canvas written.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct CanvasWritten {
    /// The canvas's path.
    pub path: String,
    /// The SHA-256 of the new content.
    pub sha256: String,
    /// Whether the file did not exist before.
    pub created: bool,
    /// Nodes in the canvas now.
    pub nodes: usize,
    /// Edges in the canvas now.
    pub edges: usize,
}

/// Creates a canvas (see the module docs).
pub(super) fn create_canvas(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: CreateCanvas = parse(args)?;
    require_canvas_path(&args.path)?;
    let mut canvas = Canvas::new();
    canvas.nodes = args
        .nodes
        .iter()
        .map(|node| new_item(node, true))
        .collect::<Result<_, _>>()?;
    canvas.edges = args
        .edges
        .iter()
        .map(|edge| new_item(edge, false))
        .collect::<Result<_, _>>()?;
    canvas.validate()?;
    let existing = match ctx.vault().read(&args.path) {
        Ok(file) => Some(file),
        Err(VaultError::NotFound { .. }) => None,
        Err(error) => return Err(tool_error_from_vault(&error, AclOp::Read)),
    };
    let replacing = match existing {
        None => None,
        Some(file) if !args.overwrite => {
            return Err(ToolError::new(
                ErrorCode::AlreadyExists,
                format!(
                    "'{}' already exists: pass overwrite: true to replace it (the user confirms), or use update_canvas to change it",
                    file.path
                ),
            )
            .with_details(json!({"path": file.path})));
        }
        Some(file) => {
            ctx.confirm(json!({
                "tool": ctx.tool().name(),
                "vault": ctx.vault_id(),
                "path": file.path,
                "reason": "replaces an existing canvas",
                "sha256": file.sha256,
                "nodes": canvas.nodes.len(),
                "edges": canvas.edges.len(),
            }))?;
            Some(file.sha256)
        }
    };
    let written = write_canvas_file(ctx, &args.path, &canvas, replacing)?;
    structured(&CanvasWritten {
        path: written.path,
        sha256: written.sha256,
        created: written.created,
        nodes: canvas.nodes.len(),
        edges: canvas.edges.len(),
    })
}
