//! `list_tasks`: the indexed tasks of the notes the caller may read, filtered and paged.
//!
//! The tasks come from the index's `tasks` rows, parsed once per index generation
//! ([`crate::index::task_table::TaskTables`]), so a call reads no note and parses no task: the
//! index is kept fresh by the watcher and by every write through obsidian-tc. A note the
//! caller may not read is skipped before anything is counted.

use std::collections::HashMap;

use serde_json::Value;

use super::args::ListTasks;
use super::item::{TaskFilter, read_item};
use super::results::TaskList;
use crate::errors::ToolError;
use crate::index::task_table::IndexedTask;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::index::index_fault;
use crate::tools::common::paging::cursor_offset;
use crate::tools::common::structured::structured;

/// Lists the tasks matching the filters (see the module docs).
pub(super) fn list_tasks(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ListTasks = parse(args)?;
    let filter = TaskFilter::parse(&args)?;
    let offset = cursor_offset(args.page.cursor())?;
    let limit = args.page.limit();
    let prefix = args.path_prefix.as_deref().unwrap_or("");
    let table = ctx
        .runtime()
        .indexes()
        .tasks()
        .get(ctx.store(), ctx.vault_id())
        .map_err(index_fault)?;
    let mut readable: HashMap<&str, bool> = HashMap::new();
    let mut matching: Vec<&IndexedTask> = Vec::new();
    for task in table.under(prefix) {
        if !filter.may_pass(task.symbol, &task.text) {
            continue;
        }
        let allowed = *readable
            .entry(task.path.as_str())
            .or_insert_with(|| ctx.may_list(&task.path));
        if allowed && filter.passes(&task.fields, &task.tags) {
            matching.push(task);
        }
    }
    let total = matching.len();
    // Only the page's tasks are turned into items.
    let tasks: Vec<_> = matching
        .into_iter()
        .skip(offset)
        .take(limit)
        .map(|task| {
            read_item(
                &task.path,
                task.line,
                task.symbol,
                &task.text,
                task.fields.clone(),
                task.tags.clone(),
            )
        })
        .collect();
    let next = offset + tasks.len();
    structured(&TaskList {
        cursor: (next < total).then(|| next.to_string()),
        tasks,
        total,
    })
}
