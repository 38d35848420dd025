//! The arguments of the Bases tools.

use schemars::JsonSchema;
use serde::Deserialize;

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
