//! A task's fields read into the item the tools return, and the filters over it.

use super::args::{DateFilter, ListTasks};
use super::results::TaskItem;
use crate::calendar::Date;
use crate::errors::{ErrorCode, ToolError};
use crate::task_line::{DateField, Priority, StatusType, TaskFields, task_tags};

/// The item of the task on `line` of `path` with status `symbol` and text `text`.
pub(super) fn task_item(path: &str, line: usize, symbol: char, text: &str) -> TaskItem {
    read_item(
        path,
        line,
        symbol,
        text,
        TaskFields::read(text),
        task_tags(text),
    )
}

/// [`task_item`] for a task whose `fields` and `tags` are already read.
pub(super) fn read_item(
    path: &str,
    line: usize,
    symbol: char,
    text: &str,
    fields: TaskFields,
    tags: Vec<String>,
) -> TaskItem {
    let date = |field| fields.date(field).map(|d: Date| d.to_string());
    TaskItem {
        path: path.to_owned(),
        line,
        status: symbol.to_string(),
        status_type: StatusType::of(symbol),
        text: text.to_owned(),
        due: date(DateField::Due),
        scheduled: date(DateField::Scheduled),
        start: date(DateField::Start),
        done: date(DateField::Done),
        created: date(DateField::Created),
        cancelled: date(DateField::Cancelled),
        priority: fields.priority.unwrap_or(Priority::None),
        recurrence: fields.recurrence,
        tags,
        description: fields.description,
    }
}

/// A parsed `YYYY-MM-DD` argument, or `invalid_input` naming it.
pub(super) fn date_arg(name: &str, value: &str) -> Result<Date, ToolError> {
    Date::parse_iso(value).ok_or_else(|| {
        ToolError::new(
            ErrorCode::InvalidInput,
            format!("'{name}' is '{value}', not a date: write it as YYYY-MM-DD (e.g. 2024-01-31)"),
        )
    })
}

/// One date filter with its bounds parsed.
struct DateBounds {
    field: DateField,
    before: Option<Date>,
    after: Option<Date>,
    on: Option<Date>,
    exists: Option<bool>,
}

impl DateBounds {
    fn parse(name: &str, field: DateField, filter: &DateFilter) -> Result<DateBounds, ToolError> {
        let bound = |which: &str, value: &Option<String>| {
            value
                .as_deref()
                .map(|v| date_arg(&format!("{name}.{which}"), v))
                .transpose()
        };
        Ok(DateBounds {
            field,
            before: bound("before", &filter.before)?,
            after: bound("after", &filter.after)?,
            on: bound("on", &filter.on)?,
            exists: filter.exists,
        })
    }

    fn holds(&self, value: Option<Date>) -> bool {
        if self.exists.is_some_and(|exists| exists != value.is_some()) {
            return false;
        }
        let bounded = self.before.is_some() || self.after.is_some() || self.on.is_some();
        match value {
            None => !bounded,
            Some(date) => {
                self.before.is_none_or(|b| date < b)
                    && self.after.is_none_or(|a| date > a)
                    && self.on.is_none_or(|o| date == o)
            }
        }
    }
}

/// The filters of a `list_tasks` call, parsed once.
pub(super) struct TaskFilter {
    statuses: Vec<StatusType>,
    symbols: Vec<char>,
    dates: Vec<DateBounds>,
    priorities: Vec<Priority>,
    tags: Vec<String>,
    text: Option<String>,
}

impl TaskFilter {
    /// The filters of `args`; a malformed date or status symbol is `invalid_input`.
    pub fn parse(args: &ListTasks) -> Result<TaskFilter, ToolError> {
        let symbols = args
            .status_symbols
            .iter()
            .map(|s| {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Ok(c),
                    _ => Err(ToolError::new(
                        ErrorCode::InvalidInput,
                        format!("status symbol '{s}' is not one character: pass the character between the brackets, e.g. \"?\" for [?]"),
                    )),
                }
            })
            .collect::<Result<_, _>>()?;
        let mut dates = Vec::new();
        for (name, field, filter) in [
            ("due", DateField::Due, &args.due),
            ("scheduled", DateField::Scheduled, &args.scheduled),
            ("start", DateField::Start, &args.start),
            ("done", DateField::Done, &args.done),
        ] {
            if let Some(filter) = filter {
                dates.push(DateBounds::parse(name, field, filter)?);
            }
        }
        Ok(TaskFilter {
            statuses: args.status.clone(),
            symbols,
            dates,
            priorities: args.priority.clone(),
            tags: args
                .tags
                .iter()
                .map(|t| t.trim_start_matches('#').to_lowercase())
                .collect(),
            text: args.text_contains.as_ref().map(|t| t.to_lowercase()),
        })
    }

    /// Whether a task with status `symbol` and text `text` may pass, judged on what is
    /// cheap to check before its fields are read.
    pub fn may_pass(&self, symbol: char, text: &str) -> bool {
        let status_ok = (self.statuses.is_empty() && self.symbols.is_empty())
            || self.statuses.contains(&StatusType::of(symbol))
            || self.symbols.contains(&symbol);
        status_ok
            && self
                .text
                .as_deref()
                .is_none_or(|t| text.to_lowercase().contains(t))
            && (self.tags.is_empty() || text.contains('#'))
    }

    /// Whether the task with read `fields` and `tags` passes every filter.
    pub fn passes(&self, fields: &TaskFields, tags: &[String]) -> bool {
        let priority = fields.priority.unwrap_or(Priority::None);
        if !(self.dates.iter().all(|d| d.holds(fields.date(d.field)))
            && (self.priorities.is_empty() || self.priorities.contains(&priority)))
        {
            return false;
        }
        self.tags.iter().all(|wanted| {
            tags.iter().any(|tag| {
                tag == wanted
                    || tag
                        .strip_prefix(wanted.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            })
        })
    }
}
