//! `query_canvas`: nodes matching criteria across canvases. Without `paths` every `.canvas`
//! file the caller may read is searched (hidden folders left out); a canvas the caller may
//! not read is dropped before it is opened, so it is never read, counted or named.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::args::QueryCanvas;
use super::load::{load_canvas, require_canvas_path};
use super::view::{NodeView, node_views};
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::paging::cursor_offset;
use crate::tools::common::structured::structured;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::EntryKind;

/// One matching node.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct NodeMatch {
    /// The canvas it is on.
    pub path: String,
    /// The node.
    pub node: NodeView,
}

/// A canvas left out because it is not a valid canvas.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct SkippedCanvas {
    /// Its path.
    pub path: String,
    /// Why.
    pub reason: String,
}

/// One page of matches.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct CanvasMatches {
    /// The matches, by canvas path then node order.
    pub matches: Vec<NodeMatch>,
    /// All matches across pages.
    pub total: usize,
    /// Canvases searched.
    pub canvases_searched: usize,
    /// Canvases that could not be parsed.
    pub skipped: Vec<SkippedCanvas>,
    /// The next page's cursor, if there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// Queries canvases (see the module docs).
pub(super) fn query_canvas(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: QueryCanvas = parse(args)?;
    let offset = cursor_offset(args.page.cursor())?;
    let limit = args.page.limit();
    let paths = canvases(ctx, args.paths.as_deref())?;
    let mut matching = Vec::new();
    let mut skipped = Vec::new();
    for path in &paths {
        let file = match load_canvas(ctx, path, None) {
            Ok(file) => file,
            Err(error) if args.paths.is_none() => {
                skipped.push(SkippedCanvas {
                    path: path.clone(),
                    reason: error.message,
                });
                continue;
            }
            Err(error) => return Err(error),
        };
        let views = node_views(ctx, &file.canvas);
        let groups: Vec<(String, Option<String>)> = views
            .iter()
            .filter(|n| n.kind == "group")
            .map(|n| (n.id.clone(), n.label.clone()))
            .collect();
        matching.extend(
            views
                .into_iter()
                .filter(|node| matches(&args, node, &groups))
                .map(|node| NodeMatch {
                    path: file.path.clone(),
                    node,
                }),
        );
    }
    let total = matching.len();
    let page: Vec<_> = matching.into_iter().skip(offset).take(limit).collect();
    let next = offset + page.len();
    structured(&CanvasMatches {
        matches: page,
        total,
        canvases_searched: paths.len() - skipped.len(),
        skipped,
        cursor: (next < total).then(|| next.to_string()),
    })
}

/// The canvases to search: the given ones (each checked against the ACL), or every
/// readable `.canvas` file of the vault.
fn canvases(ctx: &ToolContext<'_>, given: Option<&[String]>) -> Result<Vec<String>, ToolError> {
    if let Some(given) = given {
        for path in given {
            require_canvas_path(path)?;
            ctx.check_path(path, AclOp::Read)?;
        }
        return Ok(given.to_vec());
    }
    let entries = ctx
        .vault()
        .list(None)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    Ok(entries
        .into_iter()
        .filter(|e| e.kind == EntryKind::File && e.path.to_lowercase().ends_with(".canvas"))
        .filter(|e| !e.path.split('/').any(|part| part.starts_with('.')))
        .filter(|e| ctx.may_list(&e.path))
        .map(|e| e.path)
        .collect())
}

/// Whether `node` meets every criterion of `args`; `groups` are the canvas's groups (id,
/// label).
fn matches(args: &QueryCanvas, node: &NodeView, groups: &[(String, Option<String>)]) -> bool {
    let lower = |s: &str| s.to_lowercase();
    let kind_ok = args.kind.as_deref().is_none_or(|k| node.kind == k);
    let color_ok = args.color.as_deref().is_none_or(|c| {
        node.color
            .as_deref()
            .is_some_and(|own| lower(own) == lower(c))
    });
    let file_ok = args.target.as_deref().is_none_or(|f| {
        node.file
            .as_deref()
            .is_some_and(|own| lower(own) == lower(f))
    });
    let text_ok = args.contains.as_deref().is_none_or(|needle| {
        let needle = lower(needle);
        [&node.text, &node.label, &node.url, &node.file]
            .into_iter()
            .flatten()
            .any(|hay| lower(hay).contains(&needle))
    });
    let group_ok = args.group.as_deref().is_none_or(|wanted| {
        node.groups.iter().any(|group| {
            group == wanted
                || groups
                    .iter()
                    .any(|(id, label)| id == group && label.as_deref() == Some(wanted))
        })
    });
    kind_ok && color_ok && file_ok && text_ok && group_ok
}
