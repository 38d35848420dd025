//! Checking one note's properties: required keys present, each value of the type the vault
//! declares for it, and the safe fix of each problem when there is one.
//!
//! An empty value (`key:`) fits every type, as in Obsidian. Safe fixes never lose
//! information: `"3"` → `3` (number), `"true"` → `true` (checkbox), a single value → a
//! one-item list (multitext, aliases, tags; a tags text is split on commas like Obsidian
//! reads it), numbers and booleans in a list → texts, a date written `2024/1/5` →
//! `2024-01-05`, a date where a datetime is declared → its midnight, a number or boolean
//! where text is declared → its text, a missing required key → an empty value.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use super::declared::DeclaredType;
use crate::frontmatter::PropertyType;

/// What is wrong with a property.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum IssueKind {
    /// A required key is missing.
    MissingRequired,
    /// The value is not of the declared type.
    TypeMismatch,
}

/// One problem of one property.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(super) struct Issue {
    /// The property name.
    pub key: String,
    /// What is wrong.
    pub kind: IssueKind,
    /// The declared type (type mismatches).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<DeclaredType>,
    /// The type of the value found (type mismatches).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found: Option<PropertyType>,
    /// The problem, for a human.
    pub message: String,
    /// The value a safe fix would write (`null`: an empty value); absent when no fix is
    /// safe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<Value>,
}

/// The issues of one note's properties (given in note order by `keys`), required keys first.
pub(super) fn note_issues(
    keys: &[String],
    properties: &Map<String, Value>,
    declared: &BTreeMap<String, DeclaredType>,
    required: &[String],
) -> Vec<Issue> {
    let mut issues: Vec<Issue> = required
        .iter()
        .filter(|key| !properties.contains_key(*key))
        .map(|key| Issue {
            key: key.clone(),
            kind: IssueKind::MissingRequired,
            expected: declared.get(key).copied(),
            found: None,
            message: format!("required property '{key}' is missing"),
            fix: Some(Value::Null),
        })
        .collect();
    for key in keys {
        let (Some(value), Some(&expected)) = (properties.get(key), declared.get(key)) else {
            continue;
        };
        if fits(expected, value) {
            continue;
        }
        let found = PropertyType::of(value);
        let fix = fix(expected, value);
        issues.push(Issue {
            key: key.clone(),
            kind: IssueKind::TypeMismatch,
            message: format!(
                "'{key}' is declared {} in .obsidian/types.json but holds {}{}",
                type_name(&expected),
                type_name(&found),
                if fix.is_some() {
                    ""
                } else {
                    " (no safe fix: edit it by hand)"
                }
            ),
            expected: Some(expected),
            found: Some(found),
            fix,
        });
    }
    issues
}

/// The serialized name of a type (`number`).
fn type_name<T: Serialize>(kind: &T) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Whether `value` is of type `expected`.
fn fits(expected: DeclaredType, value: &Value) -> bool {
    let kind = PropertyType::of(value);
    match expected {
        _ if kind == PropertyType::Empty => true,
        DeclaredType::Text => value.is_string(),
        DeclaredType::Number => kind == PropertyType::Number,
        DeclaredType::Checkbox => kind == PropertyType::Checkbox,
        DeclaredType::Date => kind == PropertyType::Date,
        DeclaredType::Datetime => kind == PropertyType::Datetime,
        DeclaredType::Multitext | DeclaredType::Aliases | DeclaredType::Tags => value
            .as_array()
            .is_some_and(|items| items.iter().all(Value::is_string)),
    }
}

/// The safe fix of a value that does not fit `expected`, when there is one.
fn fix(expected: DeclaredType, value: &Value) -> Option<Value> {
    match (expected, value) {
        (DeclaredType::Text, Value::Number(_) | Value::Bool(_)) => {
            Some(Value::String(value.to_string()))
        }
        (DeclaredType::Number, Value::String(text)) => number(text.trim()),
        (DeclaredType::Checkbox, Value::String(text)) => {
            match text.trim().to_ascii_lowercase().as_str() {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            }
        }
        (DeclaredType::Date, Value::String(text)) => normal_date(text).map(Value::String),
        (DeclaredType::Datetime, Value::String(text)) => {
            normal_date(text).map(|date| Value::String(format!("{date}T00:00")))
        }
        (DeclaredType::Tags, Value::String(text)) => {
            let tags: Vec<Value> = text
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(|t| Value::String(t.to_owned()))
                .collect();
            (!tags.is_empty()).then_some(Value::Array(tags))
        }
        (list, Value::String(_) | Value::Number(_) | Value::Bool(_)) if list.is_list() => {
            Some(Value::Array(vec![Value::String(scalar_text(value)?)]))
        }
        (list, Value::Array(items)) if list.is_list() => items
            .iter()
            .map(|item| scalar_text(item).map(Value::String))
            .collect::<Option<Vec<Value>>>()
            .map(Value::Array),
        _ => None,
    }
}

/// The text of a string, number or boolean.
fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(_) | Value::Bool(_) => Some(value.to_string()),
        _ => None,
    }
}

/// A number written as text (`"3"`, `"-2.5"`), exactly as YAML would read it unquoted.
fn number(text: &str) -> Option<Value> {
    if let Ok(int) = text.parse::<i64>() {
        return Some(Value::from(int));
    }
    let float: f64 = text.parse().ok()?;
    let plain = text
        .bytes()
        .all(|b| b.is_ascii_digit() || b"+-.".contains(&b));
    (float.is_finite() && plain)
        .then(|| serde_json::Number::from_f64(float).map(Value::Number))
        .flatten()
}

/// `YYYY-MM-DD` for a date written with `-`, `/` or `.` and one- or two-digit month and day
/// (`2024/1/5`); `None` for anything else.
fn normal_date(text: &str) -> Option<String> {
    let parts: Vec<&str> = text.trim().split(['-', '/', '.']).collect();
    let [year, month, day] = parts.as_slice() else {
        return None;
    };
    let digits = |s: &str, len: std::ops::RangeInclusive<usize>| {
        len.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
    };
    if !(digits(year, 4..=4) && digits(month, 1..=2) && digits(day, 1..=2)) {
        return None;
    }
    let date = format!("{year}-{month:0>2}-{day:0>2}");
    (PropertyType::of(&Value::String(date.clone())) == PropertyType::Date).then_some(date)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn safe_fixes() {
        let cases = [
            (DeclaredType::Number, json!("3"), Some(json!(3))),
            (DeclaredType::Number, json!("2.5"), Some(json!(2.5))),
            (DeclaredType::Number, json!("three"), None),
            (DeclaredType::Number, json!("inf"), None),
            (DeclaredType::Checkbox, json!("True"), Some(json!(true))),
            (DeclaredType::Multitext, json!("one"), Some(json!(["one"]))),
            (
                DeclaredType::Multitext,
                json!([1, "a"]),
                Some(json!(["1", "a"])),
            ),
            (DeclaredType::Tags, json!("a, b"), Some(json!(["a", "b"]))),
            (
                DeclaredType::Date,
                json!("2024/1/5"),
                Some(json!("2024-01-05")),
            ),
            (DeclaredType::Date, json!("2024-13-05"), None),
            (
                DeclaredType::Datetime,
                json!("2024-01-05"),
                Some(json!("2024-01-05T00:00")),
            ),
            (DeclaredType::Text, json!(12), Some(json!("12"))),
            (DeclaredType::Text, json!(["a"]), None),
        ];
        for (declared, value, expected) in cases {
            assert!(!fits(declared, &value), "{value}");
            assert_eq!(fix(declared, &value), expected, "{declared:?} {value}");
        }
        assert!(fits(DeclaredType::Number, &json!(null)));
        assert!(fits(DeclaredType::Date, &json!("2024-01-05")));
        assert!(fits(DeclaredType::Tags, &json!(["a"])));
    }
}
