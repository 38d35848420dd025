//! The property types of one note, named like Obsidian's property types; the building block
//! of a vault-wide list of property names with counts and types.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::error::FrontmatterError;
use super::read::read;

/// The type of a property value, as Obsidian's property editor would show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PropertyType {
    /// Text that is not a date.
    Text,
    /// A list of values.
    List,
    /// An integer or a decimal number.
    Number,
    /// `true` or `false`.
    Checkbox,
    /// Text of the form `YYYY-MM-DD`.
    Date,
    /// Text of the form `YYYY-MM-DDTHH:MM`, optionally with seconds and more.
    Datetime,
    /// A nested mapping (Obsidian shows it as unknown; some plugins use it).
    Object,
    /// No value (`key:` alone or `null`).
    Empty,
}

impl PropertyType {
    /// The type of one value.
    pub fn of(value: &Value) -> PropertyType {
        match value {
            Value::Null => PropertyType::Empty,
            Value::Bool(_) => PropertyType::Checkbox,
            Value::Number(_) => PropertyType::Number,
            Value::Array(_) => PropertyType::List,
            Value::Object(_) => PropertyType::Object,
            Value::String(s) if is_date(s) => PropertyType::Date,
            Value::String(s) if is_datetime(s) => PropertyType::Datetime,
            Value::String(_) => PropertyType::Text,
        }
    }
}

/// Each property of a note with its type, in the order the note lists them.
pub fn property_types(text: &str) -> Result<Vec<(String, PropertyType)>, FrontmatterError> {
    let fm = read(text)?;
    Ok(fm
        .keys
        .into_iter()
        .map(|k| {
            let kind = fm
                .properties
                .get(&k)
                .map_or(PropertyType::Empty, PropertyType::of);
            (k, kind)
        })
        .collect())
}

/// `YYYY-MM-DD` with a plausible month and day.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10 && date_prefix(b)
}

/// `YYYY-MM-DDTHH:MM` (or a space instead of `T`), then anything (seconds, zone).
fn is_datetime(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 16
        && date_prefix(b)
        && matches!(b[10], b'T' | b' ')
        && number(&b[11..13]).is_some_and(|h| h < 24)
        && b[13] == b':'
        && number(&b[14..16]).is_some_and(|m| m < 60)
}

fn date_prefix(b: &[u8]) -> bool {
    number(&b[0..4]).is_some()
        && b[4] == b'-'
        && number(&b[5..7]).is_some_and(|m| (1..=12).contains(&m))
        && b[7] == b'-'
        && number(&b[8..10]).is_some_and(|d| (1..=31).contains(&d))
}

fn number(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |acc, &d| {
        d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn value_types() {
        let cases = [
            (json!("2024-01-05"), PropertyType::Date),
            (json!("2024-01-05T10:30"), PropertyType::Datetime),
            (json!("2024-01-05 10:30:00Z"), PropertyType::Datetime),
            (json!("2024-13-05"), PropertyType::Text),
            (json!("978-3-16-148410-0"), PropertyType::Text),
            (json!(1234), PropertyType::Number),
            (json!(true), PropertyType::Checkbox),
            (json!(["a"]), PropertyType::List),
            (json!({"a": 1}), PropertyType::Object),
            (json!(null), PropertyType::Empty),
        ];
        for (value, kind) in cases {
            assert_eq!(PropertyType::of(&value), kind, "{value}");
        }
    }
}
