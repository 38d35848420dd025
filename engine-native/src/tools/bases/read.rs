//! `read_base`: a base's sections as JSON.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::args::ReadBase;
use super::load::load_base;
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;

/// `read_base`'s result.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct BaseRead {
    /// The base's path.
    pub path: String,
    /// The top-level filters (`null` without).
    pub filters: Value,
    /// Formulas, name → expression.
    pub formulas: Value,
    /// Property configuration (display names).
    pub properties: Value,
    /// Custom summaries.
    pub summaries: Value,
    /// The views as written.
    pub views: Value,
    /// The view names, in order.
    pub view_names: Vec<String>,
    /// The file's SHA-256.
    pub sha256: String,
}

/// Reads a base (see the module docs).
pub(super) fn read_base(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ReadBase = parse(args)?;
    let file = load_base(ctx, &args.path)?;
    let section = |key: &str| file.json.get(key).cloned().unwrap_or(Value::Null);
    structured(&BaseRead {
        filters: section("filters"),
        formulas: section("formulas"),
        properties: section("properties"),
        summaries: section("summaries"),
        views: section("views"),
        view_names: file.base.views.iter().map(|v| v.name.clone()).collect(),
        path: file.path,
        sha256: file.sha256,
    })
}
