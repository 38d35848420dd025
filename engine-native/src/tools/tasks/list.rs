//! `list_tasks`: the indexed tasks of the notes the caller may read, filtered and paged.
//!
//! The tasks come from the index's `tasks` rows (status character and the item's first
//! line), so a call reads no note: the index is kept fresh by the watcher and by every
//! write through obsidian-tc. A note the caller may not read is skipped before anything
//! is counted.

use std::collections::HashMap;

use engine_core::acl::AclOp;
use serde_json::Value;

use super::args::{DEFAULT_LIMIT, ListTasks, MAX_LIMIT};
use super::item::{TaskFilter, task_item};
use super::results::TaskList;
use crate::dispatch::ToolContext;
use crate::errors::ToolError;
use crate::store::StoreError;
use crate::tools::args::parse;
use crate::tools::search::{cursor_offset, index_fault};
use crate::tools::structured::structured;

/// One `tasks` row: path, line, status character, text.
type TaskRow = (String, usize, char, String);

/// Lists the tasks matching the filters (see the module docs).
pub(super) fn list_tasks(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ListTasks = parse(args)?;
    let filter = TaskFilter::parse(&args)?;
    let offset = cursor_offset(args.cursor.as_deref())?;
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
    let prefix = args.path_prefix.as_deref().unwrap_or("");
    let rows = task_rows(ctx, prefix).map_err(index_fault)?;
    let mut readable: HashMap<String, bool> = HashMap::new();
    let mut matching = Vec::new();
    for (path, line, symbol, text) in rows {
        if !filter.may_pass(symbol, &text) {
            continue;
        }
        let allowed = match readable.get(&path) {
            Some(allowed) => *allowed,
            None => {
                let allowed = ctx.may(&path, AclOp::Read);
                readable.insert(path.clone(), allowed);
                allowed
            }
        };
        if !allowed {
            continue;
        }
        let item = task_item(&path, line, symbol, &text);
        if filter.passes(&item) {
            matching.push(item);
        }
    }
    let total = matching.len();
    let tasks: Vec<_> = matching.into_iter().skip(offset).take(limit).collect();
    let next = offset + tasks.len();
    structured(&TaskList {
        cursor: (next < total).then(|| next.to_string()),
        tasks,
        total,
    })
}

/// The `tasks` rows of the call's vault under `prefix`, by path then line.
fn task_rows(ctx: &ToolContext<'_>, prefix: &str) -> Result<Vec<TaskRow>, StoreError> {
    ctx.store().read(|conn| {
        let mut stmt = conn.prepare_cached(
            "SELECT path, line, status, text FROM tasks
             WHERE vault_id = ?1 AND substr(path, 1, length(?2)) = ?2
             ORDER BY path, line",
        )?;
        let rows = stmt.query_map(rusqlite::params![ctx.vault_id(), prefix], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (path, line, status, text) = row?;
            out.push((
                path,
                usize::try_from(line).unwrap_or(0),
                status.chars().next().unwrap_or(' '),
                text,
            ));
        }
        Ok(out)
    })
}
