//! The wiki's `SCHEMA.md`: its page types with the frontmatter each requires, and the allowed
//! values of controlled properties. The format (documented in docs/guide.md, "The wiki"):
//!
//! ```markdown
//! ## Types
//! ### concept
//! required: title, sources
//! ## Vocabulary
//! status: draft, reviewed
//! ```
//!
//! Under a `## Types` heading each `### <type>` heading names a page type and an optional
//! `required: a, b` line lists its required properties; under `## Vocabulary` each
//! `property: value, value` line (a leading `- ` is allowed) lists a property's allowed
//! values. Headings and lines outside those two sections are prose. A line inside them that
//! is none of these is a warning, never an error: the rest is still read.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

/// The schema file's name inside the wiki folder.
pub(super) const SCHEMA_FILE: &str = "SCHEMA.md";

/// What `SCHEMA.md` says.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct WikiSchema {
    /// Each page type with the properties it requires.
    pub types: BTreeMap<String, Vec<String>>,
    /// Each controlled property with its allowed values.
    pub vocabulary: BTreeMap<String, Vec<String>>,
    /// The lines that did not parse (`line N: ...`), and a missing `## Types` section.
    pub warnings: Vec<String>,
}

/// The section of the schema a line is in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Prose,
    Types,
    Vocabulary,
}

impl WikiSchema {
    /// Parses the text of `SCHEMA.md` (see the module docs).
    pub fn parse(text: &str) -> WikiSchema {
        let mut schema = WikiSchema::default();
        let mut section = Section::Prose;
        let mut current: Option<String> = None;
        let mut saw_types = false;
        for (at, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if let Some(title) = line.strip_prefix("## ") {
                section = match title.trim().to_lowercase().as_str() {
                    "types" => Section::Types,
                    "vocabulary" => Section::Vocabulary,
                    _ => Section::Prose,
                };
                saw_types |= section == Section::Types;
                current = None;
                continue;
            }
            if line.is_empty() || section == Section::Prose || line.starts_with("<!--") {
                continue;
            }
            if let Some(name) = line.strip_prefix("### ") {
                if section == Section::Types {
                    let name = name.trim().to_owned();
                    schema.types.entry(name.clone()).or_default();
                    current = Some(name);
                } else {
                    schema.warn(at, "a ### heading outside ## Types");
                }
                continue;
            }
            let body = line.strip_prefix("- ").unwrap_or(line);
            match (section, body.split_once(':'), &current) {
                (Section::Types, Some((key, values)), Some(name))
                    if key.trim().eq_ignore_ascii_case("required") =>
                {
                    let list = schema.types.entry(name.clone()).or_default();
                    list.extend(split_list(values));
                }
                (Section::Vocabulary, Some((key, values)), _) if !key.trim().is_empty() => {
                    schema
                        .vocabulary
                        .entry(key.trim().to_owned())
                        .or_default()
                        .extend(split_list(values));
                }
                (Section::Types, _, _) => {
                    schema.warn(at, "expected '### <type>' or 'required: a, b' under a type")
                }
                _ => schema.warn(at, "expected 'property: value, value'"),
            }
        }
        if !saw_types {
            schema
                .warnings
                .push("SCHEMA.md has no '## Types' section: no page type is known".to_owned());
        }
        schema
    }

    fn warn(&mut self, at: usize, what: &str) {
        self.warnings.push(format!("line {}: {what}", at + 1));
    }

    /// The problems of a page of type `kind` with `properties` against this schema: an
    /// unknown type, a missing required property, a value outside the vocabulary.
    pub fn problems(
        &self,
        kind: Option<&str>,
        properties: &serde_json::Map<String, serde_json::Value>,
    ) -> Vec<String> {
        let mut problems = Vec::new();
        match kind {
            Some(kind) if !self.types.is_empty() => match self.types.get(kind) {
                Some(required) => problems.extend(
                    required
                        .iter()
                        .filter(|key| !has_value(properties.get(key.as_str())))
                        .map(|key| format!("type {kind} requires the property '{key}'")),
                ),
                None => problems.push(format!("SCHEMA.md defines no page type '{kind}'")),
            },
            None if !self.types.is_empty() => {
                problems.push("the page has no type (SCHEMA.md defines page types)".to_owned());
            }
            _ => {}
        }
        for (key, allowed) in &self.vocabulary {
            for value in values_of(properties.get(key)) {
                if !allowed.iter().any(|ok| ok.eq_ignore_ascii_case(&value)) {
                    problems.push(format!(
                        "'{value}' is not an allowed value of '{key}' ({})",
                        allowed.join(", ")
                    ));
                }
            }
        }
        problems
    }
}

/// The comma-separated items of `values`, trimmed, without empties.
fn split_list(values: &str) -> impl Iterator<Item = String> + '_ {
    values
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(str::to_owned)
}

/// Whether a property value says something (not null, not an empty string or list).
pub(super) fn has_value(value: Option<&serde_json::Value>) -> bool {
    match value {
        None | Some(serde_json::Value::Null) => false,
        Some(serde_json::Value::String(text)) => !text.trim().is_empty(),
        Some(serde_json::Value::Array(items)) => !items.is_empty(),
        Some(_) => true,
    }
}

/// The scalar values of a property (each item of a list).
fn values_of(value: Option<&serde_json::Value>) -> Vec<String> {
    let scalar = |value: &serde_json::Value| match value {
        serde_json::Value::String(text) => Some(text.clone()),
        serde_json::Value::Number(number) => Some(number.to_string()),
        serde_json::Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    };
    match value {
        Some(serde_json::Value::Array(items)) => items.iter().filter_map(scalar).collect(),
        Some(other) => scalar(other).into_iter().collect(),
        None => Vec::new(),
    }
}
