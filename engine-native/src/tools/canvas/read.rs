//! `read_canvas`: a canvas's nodes and edges, typed.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use super::args::ReadCanvas;
use super::load::load_canvas;
use super::view::{EdgeView, NodeView, edge_views, node_views};
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;

/// A canvas as read.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct CanvasRead {
    /// The canvas's path.
    pub path: String,
    /// The SHA-256 of the file (update_canvas's `expected_sha256`).
    pub sha256: String,
    /// The nodes in file order.
    pub nodes: Vec<NodeView>,
    /// The edges in file order.
    pub edges: Vec<EdgeView>,
    /// Top-level keys other than `nodes` and `edges`, as stored.
    pub extra: Map<String, Value>,
}

/// Reads a canvas (see the module docs).
pub(super) fn read_canvas(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ReadCanvas = parse(args)?;
    let file = load_canvas(ctx, &args.path, None)?;
    structured(&CanvasRead {
        nodes: node_views(ctx, &file.canvas),
        edges: edge_views(&file.canvas),
        extra: file
            .canvas
            .root
            .iter()
            .filter(|(k, _)| k != "nodes" && k != "edges")
            .map(|(k, v)| (k.clone(), v.to_value()))
            .collect(),
        path: file.path,
        sha256: file.sha256,
    })
}
