//! Templates of new periodic notes, with the placeholders of Obsidian's core Templates and
//! Daily notes: `{{title}}` (the note's name), `{{date}}` (the period's date in the note's
//! format), `{{time}}` (`HH:mm`), `{{date:FORMAT}}` / `{{time:FORMAT}}` (the period's date at
//! the current time in any moment.js format), `{{yesterday}}` and `{{tomorrow}}`. Names are
//! case-insensitive and may be padded with spaces; anything else (Templater's `<% %>`,
//! unknown names, a format with an unsupported token) is left as written.

use super::moment::{MomentFormat, TimeOfDay};
use crate::calendar::Date;

/// What the placeholders stand for.
#[derive(Debug, Clone, Copy)]
pub struct TemplateValues<'a> {
    /// The first day of the note's period.
    pub date: Date,
    /// The current time of day.
    pub time: TimeOfDay,
    /// The note's title (file name without `.md`).
    pub title: &'a str,
    /// The note's name format.
    pub note_format: &'a MomentFormat,
}

/// `template` with its placeholders replaced.
pub fn expand(template: &str, values: &TemplateValues<'_>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        let inner_start = open + 2;
        let Some(close) = rest[inner_start..].find("}}") else {
            break;
        };
        let placeholder = &rest[open..inner_start + close + 2];
        out.push_str(&rest[..open]);
        match replacement(&rest[inner_start..inner_start + close], values) {
            Some(text) => out.push_str(&text),
            None => out.push_str(placeholder),
        }
        rest = &rest[open + placeholder.len()..];
    }
    out.push_str(rest);
    out
}

/// The text of the placeholder `{{inner}}`, when it is one of ours.
fn replacement(inner: &str, values: &TemplateValues<'_>) -> Option<String> {
    let (name, format) = match inner.split_once(':') {
        Some((name, format)) => (name, Some(format.trim())),
        None => (inner, None),
    };
    let name = name.trim().to_ascii_lowercase();
    let note_date = |date: Date| values.note_format.format(date, values.time);
    match (name.as_str(), format) {
        ("title", None) => Some(values.title.to_owned()),
        ("date", None) => Some(note_date(values.date)),
        ("time", None) => Some(format!("{:02}:{:02}", values.time.hour, values.time.minute)),
        ("yesterday", None) => Some(note_date(values.date.add_days(-1))),
        ("tomorrow", None) => Some(note_date(values.date.add_days(1))),
        ("date" | "time", Some(format)) => MomentFormat::new(format)
            .ok()
            .map(|format| format.format(values.date, values.time)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_core_placeholders() {
        let format = MomentFormat::new("YYYY-MM-DD").expect("format");
        let values = TemplateValues {
            date: Date::parse_iso("2026-08-15").expect("date"),
            time: TimeOfDay {
                hour: 9,
                minute: 5,
                second: 0,
            },
            title: "2026-08-15",
            note_format: &format,
        };
        let template = "# {{title}}\n{{ date }} {{TIME}} {{date:dddd, MMMM Do}} {{time:HH[h]mm}}\n<< {{yesterday}} | {{tomorrow}} >>\n{{unknown}} <% tp.date.now() %> {{date:X}} {{";
        assert_eq!(
            expand(template, &values),
            "# 2026-08-15\n2026-08-15 09:05 Saturday, August 15th 09h05\n<< 2026-08-14 | 2026-08-16 >>\n{{unknown}} <% tp.date.now() %> {{date:X}} {{"
        );
    }
}
