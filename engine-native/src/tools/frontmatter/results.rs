//! The results of the frontmatter tools, as typed structs: each tool's output schema is
//! generated from the struct its handler serializes.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use super::args::Mode;
use crate::frontmatter::PropertyType;
use crate::tools::common::frontmatter::InvalidNote;

/// One property of a note.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct PropertyEntry {
    /// The property name.
    pub key: String,
    /// The value, as JSON.
    pub value: Value,
    /// The value's type, as Obsidian's property editor shows it.
    #[serde(rename = "type")]
    pub kind: PropertyType,
}

/// What `read_frontmatter` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct FrontmatterRead {
    /// The canonical vault-relative path.
    pub path: String,
    /// Whether the note has a frontmatter block.
    pub has_frontmatter: bool,
    /// The properties in the order the note lists them.
    pub properties: Vec<PropertyEntry>,
    /// The SHA-256 of the note's bytes, for `expected_sha256`.
    pub sha256: String,
}

/// What `read_property` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct PropertyRead {
    /// The canonical vault-relative path.
    pub path: String,
    /// The property name asked for.
    pub key: String,
    /// Whether the note has the property.
    pub exists: bool,
    /// The value (`null` when the note does not have the property, or it is empty).
    pub value: Value,
    /// The value's type; `null` when the note does not have the property.
    #[serde(rename = "type")]
    pub kind: Option<PropertyType>,
    /// The SHA-256 of the note's bytes.
    pub sha256: String,
}

/// What `update_frontmatter` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct FrontmatterUpdated {
    /// The canonical vault-relative path.
    pub path: String,
    /// The mode applied.
    pub mode_used: Mode,
    /// Whether this was a preview (nothing was written).
    pub dry_run: bool,
    /// Whether the edit changes the note (for a preview: would change it).
    pub changed: bool,
    /// Whether the note was created by this call.
    pub created: bool,
    /// Previews only: whether writing would create the note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub would_create: Option<bool>,
    /// Previews only: the changed lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// The note's properties after the edit.
    pub properties: Map<String, Value>,
    /// The note's SHA-256 now (after a write: the new one); `null` when it does not exist.
    pub sha256: Option<String>,
    /// After a write to an existing note: its SHA-256 before the write.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_sha256: Option<String>,
}

/// How one property name is used.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct PropertyUsage {
    /// The property name.
    pub name: String,
    /// How many notes have it.
    pub note_count: usize,
    /// The types its values have, sorted.
    pub types: Vec<PropertyType>,
}

/// What `list_properties` returns: a page of property names.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct PropertyList {
    /// The property names of this page, sorted.
    pub items: Vec<PropertyUsage>,
    /// Pass it as `cursor` for the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// How many property names there are in all pages.
    pub total_count: usize,
    /// How many notes were looked at (readable or not).
    pub notes_scanned: usize,
    /// The notes whose properties could not be read (at most 100 named).
    pub invalid: Vec<InvalidNote>,
    /// How many notes could not be read.
    pub invalid_count: usize,
}

/// One note matching a property condition.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct PropertyMatch {
    /// The vault-relative path.
    pub path: String,
    /// The property's value in that note (`null` when it has none).
    pub value: Value,
}

/// What `find_notes_by_property` returns: a page of matching notes.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct PropertyMatches {
    /// The matching notes of this page, by path.
    pub items: Vec<PropertyMatch>,
    /// Pass it as `cursor` for the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// How many notes match in all pages.
    pub total_count: usize,
    /// The notes whose properties could not be read (at most 100 named).
    pub invalid: Vec<InvalidNote>,
    /// How many notes could not be read.
    pub invalid_count: usize,
}
