//! `query_base`: one view run over the vault's files the caller may read.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use super::args::QueryBase;
use super::load::{load_base, unsupported, vault_files};
use crate::bases::eval::Universe;
use crate::bases::model::View;
use crate::bases::query::run_view;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;

/// A column of the result.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct ColumnOut {
    /// The property id as the view writes it.
    pub id: String,
    /// Its display name.
    pub display_name: String,
}

/// One row.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct RowOut {
    /// The file.
    pub path: String,
    /// Column id → value.
    pub values: Map<String, Value>,
    /// The group key, when the view groups.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<Value>,
}

/// `query_base`'s result.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct BaseRows {
    /// The base.
    pub path: String,
    /// The view run.
    pub view: String,
    /// The view's type (`table`, `cards`, ...).
    pub view_type: String,
    /// The columns.
    pub columns: Vec<ColumnOut>,
    /// The rows, sorted, at most the view's limit.
    pub rows: Vec<RowOut>,
    /// How many files pass the filters (before the limit).
    pub matched: usize,
}

/// Runs a view (see the module docs).
pub(super) fn query_base(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: QueryBase = parse(args)?;
    let file = load_base(ctx, &args.path)?;
    let (index, view) = pick_view(&file.base.views, args.view.as_deref(), &file.path)?;
    let files = vault_files(ctx)?;
    let this_path = args.this_path.as_deref().unwrap_or(&file.path);
    let this = files
        .iter()
        .position(|f| f.path == this_path)
        .ok_or_else(|| {
            ToolError::new(
                ErrorCode::NotFound,
                format!("this_path '{this_path}' is not a file you may read in this vault"),
            )
        })?;
    let now_ms = i64::try_from(ctx.clock().now_ms()).unwrap_or(i64::MAX);
    let universe = Universe::new(files, this, now_ms);
    let location = index.map_or_else(|| "(no view)".to_owned(), |i| format!("views[{i}]"));
    let result = run_view(&file.base, &view, &location, &universe)
        .map_err(|e| unsupported(&file.path, &e))?;
    structured(&BaseRows {
        path: file.path,
        view: view.name.clone(),
        view_type: view.view_type.clone(),
        columns: result
            .columns
            .into_iter()
            .map(|c| ColumnOut {
                id: c.id,
                display_name: c.display_name,
            })
            .collect(),
        rows: result
            .rows
            .into_iter()
            .map(|r| RowOut {
                path: r.path,
                values: r.values,
                group: r.group,
            })
            .collect(),
        matched: result.matched,
    })
}

/// The view named (or numbered) `wanted`, default the first; a base without views runs its
/// filters alone with the file name as the one column.
fn pick_view(
    views: &[View],
    wanted: Option<&str>,
    path: &str,
) -> Result<(Option<usize>, View), ToolError> {
    let Some(wanted) = wanted else {
        return Ok(match views.first() {
            Some(view) => (Some(0), view.clone()),
            None => (
                None,
                View {
                    view_type: "table".to_owned(),
                    name: String::new(),
                    filters: None,
                    order: vec!["file.name".to_owned()],
                    sort: Vec::new(),
                    limit: None,
                    group_by: None,
                },
            ),
        });
    };
    views
        .iter()
        .position(|v| v.name == wanted)
        .or_else(|| wanted.parse::<usize>().ok().filter(|i| *i < views.len()))
        .map(|i| (Some(i), views[i].clone()))
        .ok_or_else(|| {
            let names: Vec<&str> = views.iter().map(|v| v.name.as_str()).collect();
            ToolError::new(
                ErrorCode::NotFound,
                format!("{path} has no view '{wanted}'; its views are {names:?}"),
            )
        })
}
