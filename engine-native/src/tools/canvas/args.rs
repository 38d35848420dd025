//! The arguments of the canvas tools.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::tools::common::paging::{CursorLength, PageArgs, Paging};

/// `read_canvas` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ReadCanvas {
    /// The `.canvas` file.
    pub path: String,
}

/// `create_canvas` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct CreateCanvas {
    /// The new `.canvas` file.
    pub path: String,
    /// Initial nodes: JSON Canvas node objects (`id`, `type`, `x`, `y`, `width`, `height`,
    /// and `text` / `file` / `url` / `label` by type; other keys are kept).
    #[serde(default)]
    pub nodes: Vec<Value>,
    /// Initial edges: `id`, `fromNode`, `toNode`, optional `fromSide`/`toSide`
    /// (top/right/bottom/left), `fromEnd`/`toEnd` (none/arrow), `color`, `label`.
    #[serde(default)]
    pub edges: Vec<Value>,
    /// Replace an existing file (needs the user's confirmation).
    #[serde(default)]
    pub overwrite: bool,
}

/// A change to one node or edge.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ItemPatch {
    /// The id of the node or edge.
    pub id: String,
    /// Keys to set (`null` removes a key); the id cannot change.
    pub set: Map<String, Value>,
}

/// `update_canvas` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct UpdateCanvas {
    /// The `.canvas` file.
    pub path: String,
    /// The SHA-256 read_canvas returned: the update is refused if the canvas changed since.
    pub expected_sha256: Option<String>,
    /// Nodes to add (JSON Canvas node objects).
    #[serde(default)]
    pub add_nodes: Vec<Value>,
    /// Edges to add.
    #[serde(default)]
    pub add_edges: Vec<Value>,
    /// Node changes by id.
    #[serde(default)]
    pub update_nodes: Vec<ItemPatch>,
    /// Edge changes by id.
    #[serde(default)]
    pub update_edges: Vec<ItemPatch>,
    /// Ids of nodes to remove (their edges go too; more than 10 needs confirmation).
    #[serde(default)]
    pub remove_nodes: Vec<String>,
    /// Ids of edges to remove.
    #[serde(default)]
    pub remove_edges: Vec<String>,
}

/// `query_canvas` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct QueryCanvas {
    /// The canvases to search (default: every `.canvas` file the caller may read).
    pub paths: Option<Vec<String>>,
    /// Only nodes of this type (text, file, link, group).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Only nodes whose text, label, URL or file contains this (case-insensitive).
    pub contains: Option<String>,
    /// Only file nodes pointing at this vault path (exact, case-insensitive).
    pub target: Option<String>,
    /// Only nodes of this color (`"1"`..`"6"` or `#RRGGBB`).
    pub color: Option<String>,
    /// Only nodes inside this group (its id or label).
    pub group: Option<String>,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    pub page: PageArgs<CanvasPaging>,
}

/// `query_canvas` pages by 100 nodes (at most 1000); `limit` may be `null`.
pub(super) struct CanvasPaging;

impl Paging for CanvasPaging {
    const ITEMS: &'static str = "nodes";
    const CURSOR: CursorLength = CursorLength::ANY;
    const NULLABLE_LIMIT: bool = true;
    const NULL_DEFAULTS: bool = false;
}
