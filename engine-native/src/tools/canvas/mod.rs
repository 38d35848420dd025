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

use crate::runtime::ToolDef;
use crate::tools::common::args::{PATH_READ, PATH_READ_WRITE, input_schema};
use crate::tools::common::structured::output_schema;

/// The canvas tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef::new(
("read_canvas", "Read canvas", "Read a canvas (.canvas, JSON Canvas): its nodes (id, type, position, size, color, content, target and whether it resolves, url, label, enclosing groups, other keys in extra) and edges (fromNode, toNode, sides, ends, label), and its SHA-256 for update_canvas."),
"structured",
(input_schema::<args::ReadCanvas>(), output_schema::<read::CanvasRead>()),
read::read_canvas,
)
.keywords(&["canvas", ".canvas", "json canvas", "whiteboard", "mind map", "show canvas", "canvas contents"])
.scopes(&["read:canvas"])
.paths(PATH_READ),
        ToolDef::new(
("create_canvas", "Create canvas", "Create a new canvas (.canvas) with initial nodes and edges (JSON Canvas objects). Refused with nothing written when ids repeat, an edge points at a missing node, or a side/end is invalid. An existing canvas is replaced only with overwrite: true, after the user confirms."),
"structured",
(input_schema::<args::CreateCanvas>(), output_schema::<create::CanvasWritten>()),
create::create_canvas,
)
.keywords(&["make a canvas", "canvas with", "canvas", "new canvas", "whiteboard", "mind map", "draw", "diagram"])
.scopes(&["write:canvas"])
.paths(PATH_READ_WRITE)
.idempotent(true),
        ToolDef::new(
("update_canvas", "Update canvas", "Change a canvas in one all-or-nothing step: add_nodes, add_edges, update_nodes / update_edges ({id, set}: keys to set, null removes), remove_nodes (their edges go too), remove_edges. Pass expected_sha256 from read_canvas. Unknown keys are kept. Removing more than 10 nodes needs the user's confirmation."),
"structured",
(input_schema::<args::UpdateCanvas>(), output_schema::<update::CanvasUpdated>()),
update::update_canvas,
)
.keywords(&["on the canvas", "canvas", "edit canvas", "canvas node", "canvas edge", "connect nodes", "add node", "box", "arrow"])
.scopes(&["write:canvas"])
.paths(PATH_READ_WRITE),
        ToolDef::new(
("query_canvas", "Query canvases", "Find canvas nodes by type, content substring (contains), target, color or group (id or label) across the given canvases, or every .canvas you may read. Paged: limit and cursor. Each match has the canvas path and the typed node."),
"structured",
(input_schema::<args::QueryCanvas>(), output_schema::<query::CanvasMatches>()),
query::query_canvas,
)
.keywords(&["canvas", "find canvas node", "canvases", "canvas search", "which canvas"])
.scopes(&["read:canvas"]),
    ]
}
