//! The arguments of the frontmatter tools, as typed structs (their input schemas are
//! generated from them).

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::tools::common::paging::{PageArgs, Paging};

/// The arguments of `read_frontmatter`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct NotePath {
    /// The vault-relative path of the note, e.g. `Projects/alpha.md`.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
}

/// The arguments of `read_property`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct NoteProperty {
    /// The vault-relative path of the note.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// The property name, e.g. `status`.
    #[schemars(length(min = 1, max = 256))]
    pub key: String,
}

/// How `update_frontmatter` changes the properties.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(super) enum Mode {
    /// Set one property (`key`, `value`); only its lines change.
    Set,
    /// Remove one property (`key`); only its lines change.
    Remove,
    /// Set several properties (`properties`); lists are merged as a union.
    Merge,
    /// Rewrite the whole block from `properties`. Needs the user's confirmation.
    Replace,
}

/// The arguments of `update_frontmatter`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct UpdateFrontmatter {
    /// The vault-relative path of the note.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// `set`, `remove`, `merge` or `replace`.
    pub mode: Mode,
    /// The property name (modes `set` and `remove`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 256))]
    pub key: Option<String>,
    /// The new value (mode `set`; `null` leaves the property empty).
    #[serde(default, deserialize_with = "present")]
    pub value: Option<Value>,
    /// Property name to value (modes `merge` and `replace`).
    #[serde(default)]
    pub properties: Option<Map<String, Value>>,
    /// Refuse (`concurrent_modification`) unless the note still has this SHA-256 (from
    /// `read_frontmatter` or `read_note`).
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    pub expected_sha256: Option<String>,
    /// Only show what would change (a diff preview); change nothing.
    #[serde(default)]
    pub dry_run: bool,
    /// Create the note (holding only the frontmatter) when it does not exist; without it a
    /// missing note is `not_found`.
    #[serde(default)]
    pub create: bool,
}

/// The arguments of `list_properties`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ListProperties {
    /// Only notes under this vault-relative folder (the whole vault without it).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    pub folder: Option<String>,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    pub page: PageArgs<PropertyPaging>,
}

/// `list_properties` pages by 100 property names (at most 1000); `limit` may be `null`.
pub(super) struct PropertyPaging;

impl Paging for PropertyPaging {
    const ITEMS: &'static str = "property names";
    const NULLABLE_LIMIT: bool = true;
}

/// The condition of `find_notes_by_property`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(super) enum QueryOp {
    /// The note has the property, with any value.
    Exists,
    /// The property's value is exactly `value`.
    Equals,
    /// The property is a list holding `value`, or a single value equal to it.
    Contains,
}

/// The arguments of `find_notes_by_property`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct FindNotesByProperty {
    /// The property name.
    #[schemars(length(min = 1, max = 256))]
    pub key: String,
    /// `exists`, `equals` or `contains`.
    pub op: QueryOp,
    /// The value to compare with (`equals`, `contains`).
    #[serde(default, deserialize_with = "present")]
    pub value: Option<Value>,
    /// Only notes under this vault-relative folder (the whole vault without it).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    pub folder: Option<String>,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    pub page: PageArgs<NotePaging>,
}

/// `find_notes_by_property` pages by 100 notes (at most 1000); `limit` may be `null`.
pub(super) struct NotePaging;

impl Paging for NotePaging {
    const ITEMS: &'static str = "notes";
    const NULLABLE_LIMIT: bool = true;
}

/// A value that is present, `null` included (a missing one stays `None` by `default`).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}
