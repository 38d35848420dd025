//! Canvas tools (JSON Canvas 1.0, `.canvas` files; domain `structured`):
//!
//! - `read_canvas`: the nodes and edges, typed, file nodes' targets resolved, unknown keys
//!   in `extra`.
//! - `create_canvas`: a new canvas from initial nodes and edges, validated first;
//!   replacing a file needs `overwrite: true` and the user's confirmation.
//! - `update_canvas`: add, remove and change nodes and edges by id, all or nothing, with
//!   `expected_sha256`; removing more than 10 nodes needs the user's confirmation.
//! - `query_canvas`: nodes by type, text, file target, color and group, across the given
//!   canvases or every one the caller may read, paged.
//!
//! Every key of every node and edge, and of the top level, is kept in its order; a canvas
//! is written in Obsidian's own layout, so one Obsidian wrote comes back byte for byte.

mod args;
mod create;
mod json;
mod load;
mod model;
mod query;
mod read;
mod update;
mod view;

use crate::dispatch::ToolDef;
use crate::tools::args::{PATH_READ, PATH_READ_WRITE, input_schema};
use crate::tools::structured::output_schema;

/// The canvas tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef {
            name: "read_canvas",
            title: "Read canvas",
            description: "Read a canvas (.canvas, JSON Canvas): its nodes (id, type, position, size, color, content, target and whether it resolves, url, label, enclosing groups, other keys in extra) and edges (fromNode, toNode, sides, ends, label), and its SHA-256 for update_canvas.",
            domain: "structured",
            keywords: &["canvas", ".canvas", "json canvas", "whiteboard", "mind map"],
            input_schema: input_schema::<args::ReadCanvas>(),
            output_schema: output_schema::<read::CanvasRead>(),
            scopes: &["read:canvas"],
            destructive: false,
            idempotency: false,
            vault_arg: true,
            path_args: PATH_READ,
            precheck: None,
            handler: read::read_canvas,
        },
        ToolDef {
            name: "create_canvas",
            title: "Create canvas",
            description: "Create a new canvas (.canvas) with initial nodes and edges (JSON Canvas objects). Refused with nothing written when ids repeat, an edge points at a missing node, or a side/end is invalid. An existing canvas is replaced only with overwrite: true, after the user confirms.",
            domain: "structured",
            keywords: &[
                "canvas",
                "new canvas",
                "json canvas",
                "whiteboard",
                "mind map",
            ],
            input_schema: input_schema::<args::CreateCanvas>(),
            output_schema: output_schema::<create::CanvasWritten>(),
            scopes: &["write:canvas"],
            destructive: false,
            idempotency: true,
            vault_arg: true,
            path_args: PATH_READ_WRITE,
            precheck: None,
            handler: create::create_canvas,
        },
        ToolDef {
            name: "update_canvas",
            title: "Update canvas",
            description: "Change a canvas in one all-or-nothing step: add_nodes, add_edges, update_nodes / update_edges ({id, set}: keys to set, null removes), remove_nodes (their edges go too), remove_edges. Pass expected_sha256 from read_canvas. Unknown keys are kept. Removing more than 10 nodes needs the user's confirmation.",
            domain: "structured",
            keywords: &[
                "canvas",
                "edit canvas",
                "canvas node",
                "canvas edge",
                "connect nodes",
            ],
            input_schema: input_schema::<args::UpdateCanvas>(),
            output_schema: output_schema::<update::CanvasUpdated>(),
            scopes: &["write:canvas"],
            destructive: false,
            idempotency: false,
            vault_arg: true,
            path_args: PATH_READ_WRITE,
            precheck: None,
            handler: update::update_canvas,
        },
        ToolDef {
            name: "query_canvas",
            title: "Query canvases",
            description: "Find canvas nodes by type, content substring (contains), target, color or group (id or label) across the given canvases, or every .canvas you may read. Paged: limit and cursor. Each match has the canvas path and the typed node.",
            domain: "structured",
            keywords: &["canvas", "find canvas node", "canvases", "canvas search"],
            input_schema: input_schema::<args::QueryCanvas>(),
            output_schema: output_schema::<query::CanvasMatches>(),
            scopes: &["read:canvas"],
            destructive: false,
            idempotency: false,
            vault_arg: true,
            path_args: &[],
            precheck: None,
            handler: query::query_canvas,
        },
    ]
}
