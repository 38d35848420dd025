//! The results of the task tools.

use schemars::JsonSchema;
use serde::Serialize;

use crate::task_line::{Priority, StatusType};

/// One task.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(super) struct TaskItem {
    /// The note.
    pub path: String,
    /// The 1-based line.
    pub line: usize,
    /// The status character.
    pub status: String,
    /// What the status means.
    pub status_type: StatusType,
    /// The text after the checkbox, as written (pass it as `expected_text` to
    /// `update_task`).
    pub text: String,
    /// The text without the task fields.
    pub description: String,
    /// 📅.
    pub due: Option<String>,
    /// ⏳.
    pub scheduled: Option<String>,
    /// 🛫.
    pub start: Option<String>,
    /// ✅.
    pub done: Option<String>,
    /// ➕.
    pub created: Option<String>,
    /// ❌.
    pub cancelled: Option<String>,
    /// The priority (`none` without a marker).
    pub priority: Priority,
    /// 🔁 rule.
    pub recurrence: Option<String>,
    /// The tags in the task's text (lowercase, no `#`).
    pub tags: Vec<String>,
}

/// `list_tasks`' result.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct TaskList {
    /// This page, by path then line.
    pub tasks: Vec<TaskItem>,
    /// How many tasks match in all.
    pub total: usize,
    /// Pass it as `cursor` for the next page; absent on the last page.
    pub cursor: Option<String>,
}

/// `update_task`'s result.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct TaskUpdated {
    /// The note.
    pub path: String,
    /// The task's line.
    pub line: usize,
    /// Whether the line changed (false when the edit was already in place).
    pub changed: bool,
    /// Whether this was a preview.
    pub dry_run: bool,
    /// The line before.
    pub before: String,
    /// The line after.
    pub after: String,
    /// The task as it is now (or would be).
    pub task: TaskItem,
    /// The note's SHA-256 now (unchanged on a preview).
    pub sha256: String,
}
