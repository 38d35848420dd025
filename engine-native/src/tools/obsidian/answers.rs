//! The typed answers of the Remotely Save, Datacore and Metadata Menu tools: TC Bridge's
//! answer is read into its type (the tool's output schema), and every note path in it passes
//! the caller's folder ACL here, on top of TC Bridge's own folder access.

use std::collections::BTreeMap;

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;

use super::args::{ObsidianCall, QueryDatacore, ReadMetadataFields};
use super::forward::send;

/// The most rows `query_datacore` returns.
pub(crate) const MAX_DATACORE_ROWS: u32 = 500;

/// `remotely_save_status`'s answer.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub(crate) struct SyncStatus {
    /// Remotely Save's state (`idle`, `syncing`, ...; `unknown` when its version does not say).
    pub sync_status: String,
    /// When the last sync succeeded, in ms since the epoch (null before the first).
    pub last_success_sync: Option<i64>,
}

/// `remotely_save_trigger`'s answer.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub(crate) struct SyncTriggered {
    /// Always true: the sync run was started.
    pub triggered: bool,
    /// When it was started, in ms since the epoch: poll remotely_save_status until
    /// `last_success_sync` reaches it.
    pub fired_at: i64,
}

/// One row of `query_datacore`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub(crate) struct DatacoreItem {
    /// The note the row is or belongs to (null for a row of no note).
    pub path: Option<String>,
    /// Its name (a page's title, a section's heading).
    pub name: Option<String>,
    /// Its tags.
    pub tags: Vec<String>,
    /// Its Datacore types (`page`, `section`, `task`, ...).
    pub types: Vec<String>,
    /// Its frontmatter values as JSON (links as `{type: "link", path, ...}`).
    pub fields: BTreeMap<String, Value>,
}

/// `query_datacore`'s answer.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub(crate) struct DatacoreRows {
    /// The rows the caller may read, at most `limit`.
    pub items: Vec<DatacoreItem>,
    /// How many rows the caller may read match (counted among the first 500 matches when
    /// the caller may not read every note).
    pub total: u64,
    /// The query as run.
    pub query: String,
}

/// One field of `read_metadata_fields`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub(crate) struct MetadataField {
    /// Its value in the note.
    pub value: Value,
    /// Its Metadata Menu type (`Input`, `Select`, `Date`, ...).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Whether the value is valid for the type.
    pub is_valid: Option<bool>,
    /// Where the field is defined: `fileClass` or `settings`.
    pub source_type: Option<String>,
    /// The fileClass defining it, when one does.
    pub file_class: Option<String>,
}

/// `read_metadata_fields`' answer.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub(crate) struct MetadataFields {
    /// The note.
    pub path: String,
    /// Its fields by name (dotted for nested fields).
    pub fields: BTreeMap<String, MetadataField>,
    /// How many fields.
    pub total: u64,
}

/// TC Bridge's answer to `args`, read as `O`.
fn answer<T: ObsidianCall, O: DeserializeOwned>(
    ctx: &ToolContext<'_>,
    args: &T,
) -> Result<O, ToolError> {
    let value = send(ctx, args)?;
    serde_json::from_value(value).map_err(|error| {
        ToolError::internal(format!(
            "TC Bridge's answer to {} is not shaped as expected: {error}",
            ctx.tool().name()
        ))
    })
}

/// The handler of a tool with arguments `T` whose answer `O` names no note.
pub(crate) fn answered<T: ObsidianCall, O: DeserializeOwned + Serialize>(
    ctx: &ToolContext<'_>,
    args: Value,
) -> Result<Value, ToolError> {
    let typed: T = parse(args)?;
    structured(&answer::<T, O>(ctx, &typed)?)
}

/// `read_metadata_fields`: the note TC Bridge resolved (`.md` added) must be readable too.
pub(crate) fn read_metadata_fields(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let typed: ReadMetadataFields = parse(args)?;
    let fields: MetadataFields = answer(ctx, &typed)?;
    ctx.check_path(&fields.path, AclOp::Read)?;
    structured(&fields)
}

/// `query_datacore`: only rows whose note, and every note their fields link to, the caller
/// may read; a row of no note only when the caller may read every note. Then TC Bridge is
/// asked for every row up to 500, so hidden rows neither show nor shorten the page, and
/// `total` counts what the caller may see.
pub(crate) fn query_datacore(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let typed: QueryDatacore = parse(args)?;
    let limit = typed.limit.unwrap_or(MAX_DATACORE_ROWS) as usize;
    let everything = ctx.reads_everything();
    let asked = QueryDatacore {
        limit: if everything {
            typed.limit
        } else {
            Some(MAX_DATACORE_ROWS)
        },
        ..typed
    };
    let rows: DatacoreRows = answer(ctx, &asked)?;
    let returned = rows.items.len();
    let mut items: Vec<DatacoreItem> = rows
        .items
        .into_iter()
        .filter(|item| readable(ctx, item, everything))
        .collect();
    let total = if everything {
        rows.total.saturating_sub((returned - items.len()) as u64)
    } else {
        items.len() as u64
    };
    items.truncate(limit);
    structured(&DatacoreRows {
        items,
        total,
        query: rows.query,
    })
}

/// Whether the caller may see `item`.
fn readable(ctx: &ToolContext<'_>, item: &DatacoreItem, everything: bool) -> bool {
    let own = item
        .path
        .as_deref()
        .map_or(everything, |path| ctx.may_list(path));
    own && item
        .fields
        .values()
        .all(|value| linked_paths(value).all(|path| ctx.may(path, AclOp::Read)))
}

/// Every note path `value` names: the string `path` of any object in it (links).
fn linked_paths(value: &Value) -> Box<dyn Iterator<Item = &str> + '_> {
    match value {
        Value::Array(values) => Box::new(values.iter().flat_map(linked_paths)),
        Value::Object(map) => Box::new(map.iter().flat_map(|(key, value)| match value {
            Value::String(path) if key == "path" => Box::new(std::iter::once(path.as_str())),
            other => linked_paths(other),
        })),
        _ => Box::new(std::iter::empty()),
    }
}
