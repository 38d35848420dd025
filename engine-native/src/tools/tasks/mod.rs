//! Task tools (Obsidian Tasks plugin emoji format and Dataview inline fields):
//! `list_tasks` (typed filters over the indexed tasks, paged) and `update_task` (status,
//! dates and priority of one task line, refused when the line moved; reopening a task done
//! more than 7 days ago needs the user's confirmation).

mod args;
mod item;
mod list;
mod results;
mod update;

use crate::runtime::ToolDef;
use crate::tools::common::args::{PATH_READ_WRITE, input_schema};
use crate::tools::common::structured::output_schema;

/// The task tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef::new(
("list_tasks", "List tasks", "List the vault's tasks (checkbox items) with typed filters: status (todo, in_progress, done, cancelled, custom, or status symbols), due/scheduled/start/done dates (before/after/on/exists), priority, tags, path_prefix, text. Reads the Tasks plugin's emoji (📅 ⏳ 🛫 ✅ ⏫ 🔁 ...) and Dataview fields ([due:: 2024-01-01]). Paged: limit and cursor. Each task has path, line and text for update_task."),
"tasks",
(input_schema::<args::ListTasks>(), output_schema::<results::TaskList>()),
list::list_tasks,
)
.keywords(&["todo", "checkbox", "due", "overdue", "deadline", "agenda", "open tasks", "tasks plugin", "dataview", "checklist", "to do list", "pending", "unfinished", "tasks"])
.scopes(&["read:tasks"]),
        ToolDef::new(
("update_task", "Update task", "Change one task in place: toggle or set its status, set or clear its dates (due, scheduled, start, done, created, cancelled) and priority. Give path, line and the task's text as list_tasks returned it: a task that moved is refused. Completing adds ✅ today. Reopening a task done more than 7 days ago needs the user's confirmation. dry_run previews."),
"tasks",
(input_schema::<args::UpdateTask>(), output_schema::<results::TaskUpdated>()),
update::update_task,
)
.keywords(&["mark as done", "push", "complete", "check off", "tick", "mark done", "reopen", "reschedule", "postpone", "due date", "priority", "todo", "finished"])
.scopes(&["write:tasks"])
.paths(PATH_READ_WRITE),
    ]
}
