//! The typed view of a canvas's nodes and edges that the tools return.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use super::model::{Canvas, Item, field, id, number};
use crate::content::injection::ContentFlags;
use crate::runtime::ToolContext;
use engine_core::acl::AclOp;

/// Keys shown as typed fields (everything else is in `extra`).
const TYPED_NODE_KEYS: [&str; 12] = [
    "id", "type", "x", "y", "width", "height", "color", "text", "file", "subpath", "url", "label",
];
/// Keys of an edge shown as typed fields.
const TYPED_EDGE_KEYS: [&str; 9] = [
    "id", "fromNode", "fromSide", "fromEnd", "toNode", "toSide", "toEnd", "color", "label",
];

/// One node.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(super) struct NodeView {
    /// The node's id.
    pub id: String,
    /// `text`, `file`, `link` or `group`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// Color: a preset `"1"`..`"6"` or `#RRGGBB`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// A text node's Markdown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Shapes of prompt injection in `text` (absent when none; the text is never altered).
    #[serde(flatten)]
    pub flags: ContentFlags,
    /// A file node's vault path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// A file node's heading or block (`#...`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subpath: Option<String>,
    /// For a file node: whether the file exists in the vault and the caller may read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_resolved: Option<bool>,
    /// A link node's URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// A group's label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The ids of the groups whose area contains this node, innermost first.
    pub groups: Vec<String>,
    /// Every other key of the node, as stored.
    pub extra: Map<String, Value>,
}

/// One edge.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(super) struct EdgeView {
    /// The edge's id.
    pub id: String,
    /// The node it starts at.
    #[serde(rename = "fromNode")]
    pub from_node: String,
    /// The side it starts from.
    #[serde(rename = "fromSide", skip_serializing_if = "Option::is_none")]
    pub from_side: Option<String>,
    /// The start's shape (`none` by default).
    #[serde(rename = "fromEnd", skip_serializing_if = "Option::is_none")]
    pub from_end: Option<String>,
    /// The node it ends at.
    #[serde(rename = "toNode")]
    pub to_node: String,
    /// The side it ends at.
    #[serde(rename = "toSide", skip_serializing_if = "Option::is_none")]
    pub to_side: Option<String>,
    /// The end's shape (`arrow` by default).
    #[serde(rename = "toEnd", skip_serializing_if = "Option::is_none")]
    pub to_end: Option<String>,
    /// Color.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Every other key of the edge, as stored.
    pub extra: Map<String, Value>,
}

/// The keys of `item` not in `typed`.
fn extra(item: &Item, typed: &[&str]) -> Map<String, Value> {
    item.iter()
        .filter(|(k, _)| !typed.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.to_value()))
        .collect()
}

/// The string `key` of `item`, owned.
fn text(item: &Item, key: &str) -> Option<String> {
    field(item, key).map(str::to_owned)
}

/// Whether `inner`'s area lies within `outer`'s.
fn contains(outer: &Item, inner: &Item) -> bool {
    let area = |n: &Item| {
        let x = number(n, "x").unwrap_or(0.0);
        let y = number(n, "y").unwrap_or(0.0);
        (
            x,
            y,
            x + number(n, "width").unwrap_or(0.0),
            y + number(n, "height").unwrap_or(0.0),
        )
    };
    let (ox, oy, ox2, oy2) = area(outer);
    let (ix, iy, ix2, iy2) = area(inner);
    ox <= ix && oy <= iy && ix2 <= ox2 && iy2 <= oy2
}

/// The ids of the groups containing `node`, smallest (innermost) first.
fn groups_of(canvas: &Canvas, node: &Item) -> Vec<String> {
    let mut groups: Vec<&Item> = canvas
        .nodes
        .iter()
        .filter(|g| field(g, "type") == Some("group") && id(g) != id(node) && contains(g, node))
        .collect();
    let size = |g: &Item| number(g, "width").unwrap_or(0.0) * number(g, "height").unwrap_or(0.0);
    groups.sort_by(|a, b| size(a).total_cmp(&size(b)));
    groups.into_iter().map(|g| id(g).to_owned()).collect()
}

/// The typed view of every node (file targets resolved for the caller).
pub(super) fn node_views(ctx: &ToolContext<'_>, canvas: &Canvas) -> Vec<NodeView> {
    canvas
        .nodes
        .iter()
        .map(|node| {
            let file = text(node, "file");
            let node_text = text(node, "text");
            let file_resolved = file.as_deref().map(|path| {
                ctx.may(path, AclOp::Read)
                    && ctx.vault().resolve(path).is_ok_and(|file| file.exists())
            });
            NodeView {
                id: id(node).to_owned(),
                kind: text(node, "type").unwrap_or_default(),
                x: number(node, "x").unwrap_or(0.0),
                y: number(node, "y").unwrap_or(0.0),
                width: number(node, "width").unwrap_or(0.0),
                height: number(node, "height").unwrap_or(0.0),
                color: text(node, "color"),
                flags: node_text
                    .as_deref()
                    .map(ContentFlags::of)
                    .unwrap_or_default(),
                text: node_text,
                subpath: text(node, "subpath"),
                file,
                file_resolved,
                url: text(node, "url"),
                label: text(node, "label"),
                groups: groups_of(canvas, node),
                extra: extra(node, &TYPED_NODE_KEYS),
            }
        })
        .collect()
}

/// The typed view of every edge.
pub(super) fn edge_views(canvas: &Canvas) -> Vec<EdgeView> {
    canvas
        .edges
        .iter()
        .map(|edge| EdgeView {
            id: id(edge).to_owned(),
            from_node: text(edge, "fromNode").unwrap_or_default(),
            from_side: text(edge, "fromSide"),
            from_end: text(edge, "fromEnd"),
            to_node: text(edge, "toNode").unwrap_or_default(),
            to_side: text(edge, "toSide"),
            to_end: text(edge, "toEnd"),
            color: text(edge, "color"),
            label: text(edge, "label"),
            extra: extra(edge, &TYPED_EDGE_KEYS),
        })
        .collect()
}
