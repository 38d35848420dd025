//! Finding the fields of a task's text: each as a [`FieldSpan`] (what and where), so the
//! same scan serves reading ([`TaskFields`]) and editing ([`super::edit`]).

use std::ops::Range;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::calendar::Date;

/// A dated field of a task.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum DateField {
    /// 📅 / `due::`.
    Due,
    /// ⏳ / `scheduled::`.
    Scheduled,
    /// 🛫 / `start::`.
    Start,
    /// ✅ / `completion::`.
    Done,
    /// ➕ / `created::`.
    Created,
    /// ❌ / `cancelled::`.
    Cancelled,
}

impl DateField {
    /// Every dated field.
    pub const ALL: [DateField; 6] = [
        DateField::Due,
        DateField::Scheduled,
        DateField::Start,
        DateField::Done,
        DateField::Created,
        DateField::Cancelled,
    ];

    /// The Tasks plugin's emoji for this field (the first one is what edits write).
    fn emojis(self) -> &'static [char] {
        match self {
            DateField::Due => &['📅', '📆', '🗓'],
            DateField::Scheduled => &['⏳', '⌛'],
            DateField::Start => &['🛫'],
            DateField::Done => &['✅'],
            DateField::Created => &['➕'],
            DateField::Cancelled => &['❌'],
        }
    }

    /// The emoji an edit writes.
    pub fn emoji(self) -> char {
        self.emojis()[0]
    }

    /// Dataview's field name.
    pub fn dataview_key(self) -> &'static str {
        match self {
            DateField::Due => "due",
            DateField::Scheduled => "scheduled",
            DateField::Start => "start",
            DateField::Done => "completion",
            DateField::Created => "created",
            DateField::Cancelled => "cancelled",
        }
    }

    fn of_emoji(c: char) -> Option<DateField> {
        DateField::ALL.into_iter().find(|f| f.emojis().contains(&c))
    }

    fn of_dataview_key(key: &str) -> Option<DateField> {
        DateField::ALL
            .into_iter()
            .find(|f| f.dataview_key() == key)
            .or((key == "done").then_some(DateField::Done))
    }
}

/// A task's priority, highest first (the Tasks plugin's order).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// 🔺.
    Highest,
    /// ⏫.
    High,
    /// 🔼.
    Medium,
    /// No priority marker.
    None,
    /// 🔽.
    Low,
    /// ⏬.
    Lowest,
}

impl Priority {
    /// The emoji of this priority (`None` has none).
    pub fn emoji(self) -> Option<char> {
        match self {
            Priority::Highest => Some('🔺'),
            Priority::High => Some('⏫'),
            Priority::Medium => Some('🔼'),
            Priority::None => None,
            Priority::Low => Some('🔽'),
            Priority::Lowest => Some('⏬'),
        }
    }

    fn of_emoji(c: char) -> Option<Priority> {
        [
            Priority::Highest,
            Priority::High,
            Priority::Medium,
            Priority::Low,
            Priority::Lowest,
        ]
        .into_iter()
        .find(|p| p.emoji() == Some(c))
    }

    fn of_word(word: &str) -> Option<Priority> {
        match word.trim().to_lowercase().as_str() {
            "highest" => Some(Priority::Highest),
            "high" => Some(Priority::High),
            "medium" => Some(Priority::Medium),
            "none" | "normal" => Some(Priority::None),
            "low" => Some(Priority::Low),
            "lowest" => Some(Priority::Lowest),
            _ => None,
        }
    }
}

/// What one field of a task's text is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldKind {
    /// A date field and its value.
    Date(DateField, Date),
    /// A priority.
    Priority(Priority),
    /// 🔁 / `repeat::` and its rule as written.
    Recurrence(String),
}

/// One field found in a task's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldSpan {
    /// What it says.
    pub kind: FieldKind,
    /// Its bytes in the text, with the one space before it (so removing it leaves no gap).
    pub range: Range<usize>,
    /// Written as a Dataview inline field rather than an emoji.
    pub dataview: bool,
}

/// Every field of the Tasks plugin or Dataview in `text`, in order. A marker without a
/// valid value (`📅 soon`) is not a field and stays part of the description.
pub fn spans(text: &str) -> Vec<FieldSpan> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(c) = text[at..].chars().next() {
        let next = at + c.len_utf8();
        let field = if let Some(field) = DateField::of_emoji(c) {
            emoji_date(text, next).map(|(date, end)| (FieldKind::Date(field, date), end, false))
        } else if let Some(priority) = Priority::of_emoji(c) {
            Some((
                FieldKind::Priority(priority),
                skip_variation(text, next),
                false,
            ))
        } else if c == '🔁' {
            recurrence(text, next).map(|(rule, end)| (FieldKind::Recurrence(rule), end, false))
        } else if c == '[' || c == '(' {
            dataview_field(text, at, c).map(|(kind, end)| (kind, end, true))
        } else {
            None
        };
        match field {
            Some((kind, end, dataview)) => {
                let start = if text[..at].ends_with(' ') {
                    at - 1
                } else {
                    at
                };
                found.push(FieldSpan {
                    kind,
                    range: start..end,
                    dataview,
                });
                at = end;
            }
            None => at = next,
        }
    }
    found
}

/// Past a U+FE0F variation selector at `at`, if there is one.
fn skip_variation(text: &str, at: usize) -> usize {
    if text[at..].starts_with('\u{FE0F}') {
        at + '\u{FE0F}'.len_utf8()
    } else {
        at
    }
}

/// The `YYYY-MM-DD` after an emoji ending at `at` (spaces allowed between) and its end.
fn emoji_date(text: &str, at: usize) -> Option<(Date, usize)> {
    let after = skip_variation(text, at);
    let rest = &text[after..];
    let start = after + (rest.len() - rest.trim_start_matches(' ').len());
    let date = Date::parse_iso(text.get(start..start + 10)?)?;
    Some((date, start + 10))
}

/// The recurrence rule after 🔁: the text up to the next field emoji or the end.
fn recurrence(text: &str, at: usize) -> Option<(String, usize)> {
    let after = skip_variation(text, at);
    let end = text[after..]
        .char_indices()
        .find(|&(_, c)| {
            DateField::of_emoji(c).is_some() || Priority::of_emoji(c).is_some() || c == '🔁'
        })
        .map_or(text.len(), |(i, _)| after + i);
    let body = &text[after..end];
    let rule = body.trim();
    if rule.is_empty() {
        return None;
    }
    let trailing = body.len() - body.trim_end().len();
    Some((rule.to_owned(), end - trailing))
}

/// A Dataview inline field `[key:: value]` or `(key:: value)` opening at `at`, when its key
/// is one tasks know.
fn dataview_field(text: &str, at: usize, open: char) -> Option<(FieldKind, usize)> {
    let close = if open == '[' { ']' } else { ')' };
    let inner_start = at + 1;
    let inner_len = text[inner_start..].find(close)?;
    let inner = &text[inner_start..inner_start + inner_len];
    let (key, value) = inner.split_once("::")?;
    let key = key.trim().to_lowercase();
    let value = value.trim();
    let kind = if let Some(field) = DateField::of_dataview_key(&key) {
        FieldKind::Date(field, Date::parse_iso(value.get(..10)?)?)
    } else if key == "priority" {
        FieldKind::Priority(Priority::of_word(value)?)
    } else if key == "repeat" && !value.is_empty() {
        FieldKind::Recurrence(value.to_owned())
    } else {
        return None;
    };
    Some((kind, inner_start + inner_len + 1))
}

/// The fields of one task, read from its text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TaskFields {
    /// The dates, one per field (the first written wins).
    pub dates: Vec<(DateField, Date)>,
    /// The priority ([`Priority::None`] without a marker).
    pub priority: Option<Priority>,
    /// The recurrence rule.
    pub recurrence: Option<String>,
    /// The text without the fields, spaces collapsed at the cuts.
    pub description: String,
}

impl TaskFields {
    /// Reads the fields of `text` (a task's text after its checkbox).
    pub fn read(text: &str) -> TaskFields {
        let mut fields = TaskFields::default();
        let mut description = String::new();
        let mut kept = 0;
        for span in spans(text) {
            description.push_str(&text[kept..span.range.start]);
            kept = span.range.end;
            match span.kind {
                FieldKind::Date(field, date) => {
                    if fields.date(field).is_none() {
                        fields.dates.push((field, date));
                    }
                }
                FieldKind::Priority(priority) => {
                    fields.priority.get_or_insert(priority);
                }
                FieldKind::Recurrence(rule) => {
                    fields.recurrence.get_or_insert(rule);
                }
            }
        }
        description.push_str(&text[kept..]);
        fields.description = description.trim().to_owned();
        fields
    }

    /// The value of the dated field `field`.
    pub fn date(&self, field: DateField) -> Option<Date> {
        self.dates
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, date)| *date)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Date {
        Date::parse_iso(text).expect("date")
    }

    #[test]
    fn reads_emoji_and_dataview_fields() {
        let fields = TaskFields::read(
            "Pay rent ⏫ 🔁 every month 📅 2024-02-01 ⏳2024-01-28 #home ✅ 2024-01-30",
        );
        assert_eq!(fields.priority, Some(Priority::High));
        assert_eq!(fields.recurrence.as_deref(), Some("every month"));
        assert_eq!(fields.date(DateField::Due), Some(d("2024-02-01")));
        assert_eq!(fields.date(DateField::Scheduled), Some(d("2024-01-28")));
        assert_eq!(fields.date(DateField::Done), Some(d("2024-01-30")));
        assert_eq!(fields.description, "Pay rent #home");

        let fields = TaskFields::read("Call [due:: 2024-03-05] (priority:: low) [other:: x]");
        assert_eq!(fields.date(DateField::Due), Some(d("2024-03-05")));
        assert_eq!(fields.priority, Some(Priority::Low));
        assert_eq!(fields.description, "Call [other:: x]");
    }

    #[test]
    fn a_marker_without_a_value_is_text() {
        let fields = TaskFields::read("📅 soon, 🔼️ maybe");
        assert_eq!(fields.dates, []);
        assert_eq!(fields.priority, Some(Priority::Medium));
        assert_eq!(fields.description, "📅 soon, maybe");
    }
}
