//! The arguments of the Bases tools.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

/// `read_base` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ReadBase {
    /// The `.base` file.
    pub path: String,
}

/// `query_base` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct QueryBase {
    /// The `.base` file.
    pub path: String,
    /// The view's name, or its 0-based index as text (default: the first view; a base
    /// without views is queried with its filters alone).
    pub view: Option<String>,
    /// The file `this` refers to (the note embedding the base); default: the base itself.
    pub this_path: Option<String>,
}

/// `create_base` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct CreateBase {
    /// The new `.base` file.
    pub path: String,
    /// Top-level filters: a statement (`file.hasTag("book")`) or `{and|or|not: [...]}`.
    pub filters: Option<Value>,
    /// Formulas, name → expression (`price * 2`).
    pub formulas: Option<Map<String, Value>>,
    /// Property configuration, property id → `{displayName: ...}`.
    pub properties: Option<Map<String, Value>>,
    /// Views, each `{type: table|cards|list|map, name, order?, sort?, limit?, groupBy?,
    /// filters?}`.
    pub views: Option<Vec<Value>>,
    /// Replace an existing file (asks the user first).
    #[serde(default)]
    pub overwrite: bool,
}

/// What to do with one view of `update_base`.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(super) enum ViewOp {
    /// Append a new view (its name must be new).
    Add,
    /// Replace the view of that name.
    Replace,
    /// Remove the view of that name.
    Remove,
}

/// One view change of `update_base`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ViewPatch {
    /// add, replace or remove.
    pub op: ViewOp,
    /// The view's name.
    pub name: String,
    /// The view (add and replace): `{type, order?, sort?, limit?, groupBy?, filters?}`; its
    /// `name` is set to `name`.
    pub view: Option<Map<String, Value>>,
}

/// `update_base` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct UpdateBase {
    /// The `.base` file.
    pub path: String,
    /// New top-level filters (asks the user first when they change).
    pub filters: Option<Value>,
    /// Remove the top-level filters (asks the user first).
    #[serde(default)]
    pub clear_filters: bool,
    /// Formulas to set, name → expression; `null` removes one.
    pub formulas: Option<Map<String, Value>>,
    /// Property configuration to set, property id → `{displayName: ...}`; `null` removes one.
    pub properties: Option<Map<String, Value>>,
    /// View changes, applied in order.
    #[serde(default)]
    pub views: Vec<ViewPatch>,
    /// The SHA-256 last read (read_base): a different current file is
    /// `concurrent_modification`.
    pub expected_sha256: Option<String>,
}
