//! A JSON Canvas 1.0 document: parsing, validation and the typed view of its nodes and
//! edges. Every object keeps all its keys in order (see [`super::json`]).

use std::collections::HashSet;

use serde_json::json;

use super::json::{Json, write_canvas};
use crate::errors::{ErrorCode, ToolError};

/// The node types of JSON Canvas 1.0.
const NODE_TYPES: [&str; 4] = ["text", "file", "link", "group"];
/// The sides an edge may attach to.
const SIDES: [&str; 4] = ["top", "right", "bottom", "left"];
/// The shapes of an edge's ends.
const ENDS: [&str; 2] = ["none", "arrow"];
/// The keys a new node is written with first, in this order (as Obsidian writes them);
/// other keys follow in the order given.
const NODE_KEY_ORDER: [&str; 14] = [
    "id",
    "type",
    "text",
    "file",
    "subpath",
    "url",
    "label",
    "background",
    "backgroundStyle",
    "x",
    "y",
    "width",
    "height",
    "color",
];
/// The keys a new edge is written with first, in this order.
const EDGE_KEY_ORDER: [&str; 9] = [
    "id", "fromNode", "fromSide", "fromEnd", "toNode", "toSide", "toEnd", "color", "label",
];

/// One node or edge: its keys in order.
pub(super) type Item = Vec<(String, Json)>;

/// A parsed canvas.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Canvas {
    /// The top-level keys in order; `nodes` and `edges` are kept out of it (their places
    /// are remembered as [`Json::Null`] placeholders so the order survives).
    pub root: Vec<(String, Json)>,
    /// The nodes.
    pub nodes: Vec<Item>,
    /// The edges.
    pub edges: Vec<Item>,
}

/// `invalid_input` naming the canvas problem.
pub(super) fn invalid(message: impl Into<String>) -> ToolError {
    ToolError::new(ErrorCode::InvalidInput, message)
}

/// The string value of `key` in `item`.
pub(super) fn field<'a>(item: &'a Item, key: &str) -> Option<&'a str> {
    item.iter()
        .find(|(k, _)| k == key)
        .and_then(|(_, v)| v.as_str())
}

/// The number value of `key` in `item`.
pub(super) fn number(item: &Item, key: &str) -> Option<f64> {
    item.iter()
        .find(|(k, _)| k == key)
        .and_then(|(_, v)| v.as_f64())
}

/// The item's `id` (empty when it has none: validation refuses that).
pub(super) fn id(item: &Item) -> &str {
    field(item, "id").unwrap_or("")
}

impl Canvas {
    /// Parses canvas text (an empty file is an empty canvas, as Obsidian treats it).
    pub fn parse(text: &str, path: &str) -> Result<Canvas, ToolError> {
        if text.trim().is_empty() {
            return Ok(Canvas::new());
        }
        let root: Json = serde_json::from_str(text)
            .map_err(|error| invalid(format!("'{path}' is not a valid canvas (JSON): {error}")))?;
        let Json::Object(pairs) = root else {
            return Err(invalid(format!(
                "'{path}' is not a valid canvas: the top level is not a JSON object"
            )));
        };
        let mut canvas = Canvas {
            root: Vec::new(),
            nodes: Vec::new(),
            edges: Vec::new(),
        };
        for (key, value) in pairs {
            match key.as_str() {
                "nodes" | "edges" => {
                    let items = objects(value, &key, path)?;
                    if key == "nodes" {
                        canvas.nodes = items;
                    } else {
                        canvas.edges = items;
                    }
                    canvas.root.push((key, Json::Null));
                }
                _ => canvas.root.push((key, value)),
            }
        }
        Ok(canvas)
    }

    /// An empty canvas (`nodes` then `edges`).
    pub fn new() -> Canvas {
        Canvas {
            root: vec![
                ("nodes".to_owned(), Json::Null),
                ("edges".to_owned(), Json::Null),
            ],
            nodes: Vec::new(),
            edges: Vec::new(),
        }
    }

    /// The canvas as Obsidian writes it.
    pub fn to_text(&self) -> String {
        let mut root = self.root.clone();
        for (key, value) in &mut root {
            let items = match key.as_str() {
                "nodes" => &self.nodes,
                "edges" => &self.edges,
                _ => continue,
            };
            *value = Json::Array(items.iter().cloned().map(Json::Object).collect());
        }
        for (key, items) in [("nodes", &self.nodes), ("edges", &self.edges)] {
            if !items.is_empty() && !root.iter().any(|(k, _)| k == key) {
                let items = items.iter().cloned().map(Json::Object).collect();
                root.push((key.to_owned(), Json::Array(items)));
            }
        }
        write_canvas(&root)
    }

    /// Checks the whole canvas: ids present and unique, node types and their required
    /// fields, positions numeric, edges pointing at existing nodes, sides and ends valid.
    pub fn validate(&self) -> Result<(), ToolError> {
        let mut seen = HashSet::new();
        for node in &self.nodes {
            let node_id = require_id(node, "node", &mut seen)?;
            let kind = field(node, "type").unwrap_or("");
            let required = match kind {
                "text" => Some("text"),
                "file" => Some("file"),
                "link" => Some("url"),
                "group" => None,
                _ => {
                    return Err(invalid(format!(
                        "node '{node_id}' has type '{kind}': give one of {}",
                        NODE_TYPES.join(", ")
                    ))
                    .with_details(json!({"node": node_id})));
                }
            };
            if let Some(key) = required
                && field(node, key).is_none()
            {
                return Err(
                    invalid(format!("{kind} node '{node_id}' needs a string '{key}'"))
                        .with_details(json!({"node": node_id})),
                );
            }
            for key in ["x", "y", "width", "height"] {
                if number(node, key).is_none() {
                    return Err(invalid(format!("node '{node_id}' needs a number '{key}'"))
                        .with_details(json!({"node": node_id})));
                }
            }
        }
        let node_ids: HashSet<&str> = self.nodes.iter().map(id).collect();
        for edge in &self.edges {
            let edge_id = require_id(edge, "edge", &mut seen)?;
            for key in ["fromNode", "toNode"] {
                let target = field(edge, key).unwrap_or("");
                if !node_ids.contains(target) {
                    return Err(invalid(format!(
                        "edge '{edge_id}' has {key} '{target}', which is no node of the canvas: add the node or point the edge at an existing one"
                    ))
                    .with_details(json!({"edge": edge_id, "key": key, "target": target})));
                }
            }
            for (key, allowed) in [
                ("fromSide", &SIDES[..]),
                ("toSide", &SIDES[..]),
                ("fromEnd", &ENDS[..]),
                ("toEnd", &ENDS[..]),
            ] {
                let Some((_, value)) = edge.iter().find(|(k, _)| k == key) else {
                    continue;
                };
                if !value.as_str().is_some_and(|v| allowed.contains(&v)) {
                    return Err(invalid(format!(
                        "edge '{edge_id}' has {key} {}: give one of {}",
                        value.to_value(),
                        allowed.join(", ")
                    ))
                    .with_details(json!({"edge": edge_id, "key": key})));
                }
            }
        }
        Ok(())
    }
}

/// The id of `item`, which must be a non-empty string not seen before.
fn require_id<'a>(
    item: &'a Item,
    what: &str,
    seen: &mut HashSet<&'a str>,
) -> Result<&'a str, ToolError> {
    let item_id = id(item);
    if item_id.is_empty() {
        return Err(invalid(format!(
            "a {what} has no string 'id': give every {what} one"
        )));
    }
    if !seen.insert(item_id) {
        return Err(invalid(format!(
            "the id '{item_id}' is used twice: node and edge ids must be unique in a canvas"
        ))
        .with_details(json!({"id": item_id})));
    }
    Ok(item_id)
}

/// The items of a `nodes` / `edges` array, each an object.
fn objects(value: Json, key: &str, path: &str) -> Result<Vec<Item>, ToolError> {
    let Json::Array(items) = value else {
        return Err(invalid(format!(
            "'{path}' is not a valid canvas: '{key}' is not an array"
        )));
    };
    items
        .into_iter()
        .map(|item| match item {
            Json::Object(pairs) => Ok(pairs),
            _ => Err(invalid(format!(
                "'{path}' is not a valid canvas: an entry of '{key}' is not an object"
            ))),
        })
        .collect()
}

/// A new node or edge from the caller's JSON object, keys in Obsidian's order.
pub(super) fn new_item(value: &serde_json::Value, is_node: bool) -> Result<Item, ToolError> {
    let what = if is_node { "node" } else { "edge" };
    let serde_json::Value::Object(map) = value else {
        return Err(invalid(format!("each {what} must be a JSON object")));
    };
    let order: &[&str] = if is_node {
        &NODE_KEY_ORDER
    } else {
        &EDGE_KEY_ORDER
    };
    let mut item: Item = order
        .iter()
        .filter_map(|key| {
            map.get(*key)
                .map(|v| ((*key).to_owned(), Json::from_value(v)))
        })
        .collect();
    item.extend(
        map.iter()
            .filter(|(key, _)| !order.contains(&key.as_str()))
            .map(|(key, v)| (key.clone(), Json::from_value(v))),
    );
    Ok(item)
}

/// Sets `changes` on `item`: an existing key keeps its place, a new key is appended,
/// `null` removes the key. The id cannot change.
pub(super) fn patch_item(
    item: &mut Item,
    changes: &serde_json::Map<String, serde_json::Value>,
) -> Result<(), ToolError> {
    if let Some(new_id) = changes.get("id")
        && new_id.as_str() != Some(id(item))
    {
        return Err(invalid(format!(
            "'{}' cannot change its id: remove it and add a new one",
            id(item)
        )));
    }
    for (key, value) in changes {
        let position = item.iter().position(|(k, _)| k == key);
        match (position, value.is_null()) {
            (Some(at), true) => {
                item.remove(at);
            }
            (Some(at), false) => item[at].1 = Json::from_value(value),
            (None, true) => {}
            (None, false) => item.push((key.clone(), Json::from_value(value))),
        }
    }
    Ok(())
}
