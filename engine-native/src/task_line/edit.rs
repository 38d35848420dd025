//! Rewriting the fields of one task's text in place. Each edit keeps every byte it does not
//! change; a new field goes at the end of the text (before a trailing `^block-id`), written
//! as Dataview when the task already uses Dataview fields, else as the Tasks plugin's emoji.

use super::fields::{DateField, FieldKind, FieldSpan, Priority, spans};
use crate::calendar::Date;

/// `text` with the dated field `field` set to `date`, or removed with `None`.
pub fn set_date(text: &str, field: DateField, date: Option<Date>) -> String {
    let found = spans(text);
    let of_field: Vec<&FieldSpan> = found
        .iter()
        .filter(|span| matches!(span.kind, FieldKind::Date(f, _) if f == field))
        .collect();
    match (date, of_field.first()) {
        (Some(date), Some(first)) => {
            let written = if first.dataview {
                dataview_text(text, first, field.dataview_key(), &date.to_string())
            } else {
                format!("{}{} {date}", leading_space(text, first), field.emoji())
            };
            replace(text, first, &written)
        }
        (Some(date), None) => {
            let written = if found.iter().any(|span| span.dataview) {
                format!("[{}:: {date}]", field.dataview_key())
            } else {
                format!("{} {date}", field.emoji())
            };
            append(text, &written)
        }
        (None, _) => remove_all(text, &of_field),
    }
}

/// `text` with its priority set to `priority` (every other priority marker removed).
pub fn set_priority(text: &str, priority: Priority) -> String {
    let found = spans(text);
    let uses_dataview = found.iter().any(|span| span.dataview);
    let markers: Vec<&FieldSpan> = found
        .iter()
        .filter(|span| matches!(span.kind, FieldKind::Priority(_)))
        .collect();
    let cleared = remove_all(text, &markers);
    let word = match priority {
        Priority::None => return cleared,
        _ => serde_json::to_value(priority)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default(),
    };
    match priority.emoji() {
        Some(emoji) if !uses_dataview => append(&cleared, &emoji.to_string()),
        _ => append(&cleared, &format!("[priority:: {word}]")),
    }
}

/// `" "` when the span starts with the space before its field, else `""`.
fn leading_space(text: &str, span: &FieldSpan) -> &'static str {
    if text[span.range.clone()].starts_with(' ') {
        " "
    } else {
        ""
    }
}

/// A Dataview field like `span` (same brackets, same leading space) holding `value`.
fn dataview_text(text: &str, span: &FieldSpan, key: &str, value: &str) -> String {
    let space = leading_space(text, span);
    let open = text[span.range.start + space.len()..]
        .chars()
        .next()
        .unwrap_or('[');
    let close = if open == '(' { ')' } else { ']' };
    format!("{space}{open}{key}:: {value}{close}")
}

/// `text` with `span` replaced by `written`.
fn replace(text: &str, span: &FieldSpan, written: &str) -> String {
    format!(
        "{}{written}{}",
        &text[..span.range.start],
        &text[span.range.end..]
    )
}

/// `text` without the fields `remove` (in text order).
fn remove_all(text: &str, remove: &[&FieldSpan]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut kept = 0;
    for span in remove {
        out.push_str(&text[kept..span.range.start]);
        kept = span.range.end;
    }
    out.push_str(&text[kept..]);
    out
}

/// `text` with `field` added at its end, before a trailing `^block-id`.
fn append(text: &str, field: &str) -> String {
    let body = text.trim_end();
    let trailing = &text[body.len()..];
    let block_id = body
        .rsplit_once(' ')
        .filter(|(_, last)| {
            last.len() > 1
                && last.starts_with('^')
                && last[1..]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        .map(|(before, last)| (before.trim_end(), last));
    match block_id {
        Some((before, id)) if !before.is_empty() => format!("{before} {field} {id}{trailing}"),
        _ if body.is_empty() => format!("{field}{trailing}"),
        _ => format!("{body} {field}{trailing}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Option<Date> {
        Date::parse_iso(text)
    }

    #[test]
    fn dates_are_replaced_added_and_removed_in_place() {
        let text = "Pay rent 📅 2024-02-01 #home";
        assert_eq!(
            set_date(text, DateField::Due, d("2024-03-01")),
            "Pay rent 📅 2024-03-01 #home"
        );
        assert_eq!(set_date(text, DateField::Due, None), "Pay rent #home");
        assert_eq!(
            set_date("Task ^abc-1", DateField::Done, d("2024-01-02")),
            "Task ✅ 2024-01-02 ^abc-1"
        );
        assert_eq!(
            set_date("Call (due:: 2024-01-01)", DateField::Due, d("2024-01-09")),
            "Call (due:: 2024-01-09)"
        );
        assert_eq!(
            set_date("Call [due:: 2024-01-01]", DateField::Start, d("2023-12-30")),
            "Call [due:: 2024-01-01] [start:: 2023-12-30]"
        );
    }

    #[test]
    fn priorities_replace_every_marker() {
        assert_eq!(set_priority("A ⏫ b 🔽", Priority::Lowest), "A b ⏬");
        assert_eq!(
            set_priority("A 🔼 📅 2024-01-01", Priority::None),
            "A 📅 2024-01-01"
        );
        assert_eq!(
            set_priority("A [priority:: low]", Priority::High),
            "A [priority:: high]"
        );
    }
}
