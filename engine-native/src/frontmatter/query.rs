//! Per-note property predicates, the building block of finding notes by property.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::read::read;

/// A condition on one property of a note.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum PropertyQuery {
    /// The note has the property (with any value, even empty).
    Exists {
        /// Property name.
        key: String,
    },
    /// The property's value is exactly `value` (same JSON type and content).
    Equals {
        /// Property name.
        key: String,
        /// The value to compare with.
        value: Value,
    },
    /// The property is a list with an element equal to `value`, or a single value equal to
    /// it (Obsidian treats `tags: a` like `tags: [a]`).
    Contains {
        /// Property name.
        key: String,
        /// The element to look for.
        value: Value,
    },
}

impl PropertyQuery {
    /// Whether properties (as [`read`] returns them) satisfy the condition.
    pub fn matches_properties(&self, properties: &Map<String, Value>) -> bool {
        match self {
            PropertyQuery::Exists { key } => properties.contains_key(key),
            PropertyQuery::Equals { key, value } => properties.get(key) == Some(value),
            PropertyQuery::Contains { key, value } => match properties.get(key) {
                Some(Value::Array(items)) => items.contains(value),
                Some(single) => single == value,
                None => false,
            },
        }
    }
}

/// Whether a note satisfies the condition; a note whose frontmatter cannot be read matches
/// nothing (reading it with [`read`] reports why).
pub fn matches(text: &str, query: &PropertyQuery) -> bool {
    read(text).is_ok_and(|fm| query.matches_properties(&fm.properties))
}
