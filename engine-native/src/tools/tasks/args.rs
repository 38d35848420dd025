//! The arguments of the task tools.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::task_line::{DateField, Priority, StatusType};
use crate::tools::common::paging::{CursorLength, PageArgs, Paging};

/// A filter on one dated field; every given bound must hold. Dates are `YYYY-MM-DD`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct DateFilter {
    /// Strictly before this date.
    pub before: Option<String>,
    /// Strictly after this date.
    pub after: Option<String>,
    /// On this date.
    pub on: Option<String>,
    /// `true`: the task has this date; `false`: it has none.
    pub exists: Option<bool>,
}

/// `list_tasks` arguments. Every given filter must hold.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ListTasks {
    /// Status types to keep: `todo` `[ ]`, `in_progress` `[/]`, `done` `[x]`, `cancelled`
    /// `[-]`, `custom` (any other character).
    #[serde(default)]
    pub status: Vec<StatusType>,
    /// Status characters to keep (`"?"`, `">"`, `" "`), for custom statuses.
    #[serde(default)]
    pub status_symbols: Vec<String>,
    /// Due date (📅, `[due:: ]`).
    pub due: Option<DateFilter>,
    /// Scheduled date (⏳, `[scheduled:: ]`).
    pub scheduled: Option<DateFilter>,
    /// Start date (🛫, `[start:: ]`).
    pub start: Option<DateFilter>,
    /// Done date (✅, `[completion:: ]`).
    pub done: Option<DateFilter>,
    /// Priorities to keep (`none`: no marker).
    #[serde(default)]
    pub priority: Vec<Priority>,
    /// Tags the task's own text must all carry (`#work` or `work`; nested tags match
    /// their parents: `work` matches `#work/urgent`).
    #[serde(default)]
    pub tags: Vec<String>,
    /// Only notes whose path starts with this (a folder: `Projects/`).
    pub path_prefix: Option<String>,
    /// Only tasks whose text contains this (case-insensitive).
    pub text_contains: Option<String>,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    pub page: PageArgs<TaskPaging>,
}

/// `list_tasks` pages by 100 tasks (at most 1000); `limit` may be `null`.
pub(super) struct TaskPaging;

impl Paging for TaskPaging {
    const ITEMS: &'static str = "tasks";
    const CURSOR: CursorLength = CursorLength::ANY;
    const NULLABLE_LIMIT: bool = true;
    const NULL_DEFAULTS: bool = false;
}

/// Dates to set, `YYYY-MM-DD` each.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct DateValues {
    /// Due date (📅).
    pub due: Option<String>,
    /// Scheduled date (⏳).
    pub scheduled: Option<String>,
    /// Start date (🛫).
    pub start: Option<String>,
    /// Done date (✅).
    pub done: Option<String>,
    /// Created date (➕).
    pub created: Option<String>,
    /// Cancelled date (❌).
    pub cancelled: Option<String>,
}

impl DateValues {
    /// The given dates, with their field.
    pub fn given(&self) -> Vec<(DateField, &str)> {
        [
            (DateField::Due, &self.due),
            (DateField::Scheduled, &self.scheduled),
            (DateField::Start, &self.start),
            (DateField::Done, &self.done),
            (DateField::Created, &self.created),
            (DateField::Cancelled, &self.cancelled),
        ]
        .into_iter()
        .filter_map(|(field, value)| Some((field, value.as_deref()?)))
        .collect()
    }
}

/// `update_task` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct UpdateTask {
    /// The note.
    pub path: String,
    /// The task's 1-based line (as `list_tasks` gives it).
    #[schemars(range(min = 1))]
    pub line: usize,
    /// The task's text as `list_tasks` gave it: if the line no longer holds it (the note
    /// changed), nothing is written.
    pub expected_text: String,
    /// The new status character (`"x"`, `" "`, `"/"`, `"-"`, or a custom one).
    pub status: Option<String>,
    /// Flip done and not done (`[x]` → `[ ]`, anything else → `[x]`).
    #[serde(default)]
    pub toggle: bool,
    /// Dates to set.
    pub set_dates: Option<DateValues>,
    /// Dates to remove.
    #[serde(default)]
    pub clear_dates: Vec<DateField>,
    /// The new priority (`none` removes it).
    pub priority: Option<Priority>,
    /// The SHA-256 the caller last read; a note changed since is refused.
    pub expected_sha256: Option<String>,
    /// Show the new line and change nothing.
    #[serde(default)]
    pub dry_run: bool,
}
