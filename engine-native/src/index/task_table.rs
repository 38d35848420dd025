//! The tasks of a vault, read from the index's `tasks` rows and parsed once (status, the
//! Tasks / Dataview fields and the tags of each), sorted by path then line, kept per index generation
//! ([`TaskTables`]). `list_tasks` filters this in memory instead of reading and parsing
//! every row on every call.

use std::sync::Arc;

use super::generations::PerGeneration;
use crate::store::{Store, StoreError};
use crate::task_line::{TaskFields, task_tags};

/// One indexed task, parsed.
#[derive(Debug, Clone)]
pub struct IndexedTask {
    /// The note it is written in.
    pub path: String,
    /// Its 1-based line.
    pub line: usize,
    /// The character between its brackets.
    pub symbol: char,
    /// Its text after the checkbox.
    pub text: String,
    /// Its fields.
    pub fields: TaskFields,
    /// The tags in its text.
    pub tags: Vec<String>,
}

/// Every task of a vault, sorted by path (byte order) then line.
#[derive(Debug, Default)]
pub struct TaskTable {
    tasks: Vec<IndexedTask>,
}

impl TaskTable {
    /// Reads and parses the `tasks` rows of vault `id`.
    pub fn load(store: &Store, id: &str) -> Result<TaskTable, StoreError> {
        let tasks = store.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT path, line, status, text FROM tasks WHERE vault_id = ?1 ORDER BY path, line",
            )?;
            let rows = stmt.query_map([id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?;
            let mut tasks = Vec::new();
            for row in rows {
                let (path, line, status, text) = row?;
                tasks.push(IndexedTask {
                    path,
                    line: usize::try_from(line).unwrap_or(0),
                    symbol: status.chars().next().unwrap_or(' '),
                    fields: TaskFields::read(&text),
                    tags: task_tags(&text),
                    text,
                });
            }
            Ok::<_, StoreError>(tasks)
        })?;
        Ok(TaskTable { tasks })
    }

    /// The tasks of the notes whose path starts with `prefix`, by path then line.
    pub fn under(&self, prefix: &str) -> &[IndexedTask] {
        let start = self
            .tasks
            .partition_point(|task| task.path.as_str() < prefix);
        let len = self.tasks[start..]
            .partition_point(|task| task.path.as_bytes().starts_with(prefix.as_bytes()));
        &self.tasks[start..start + len]
    }
}

/// One [`TaskTable`] per vault, kept per index generation.
#[derive(Debug, Default)]
pub struct TaskTables {
    tables: PerGeneration<TaskTable>,
}

impl TaskTables {
    /// The task table of vault `id` (rebuilt when its index generation has moved on).
    pub fn get(&self, store: &Store, id: &str) -> Result<Arc<TaskTable>, StoreError> {
        self.tables.get(store, id, || TaskTable::load(store, id))
    }

    /// Forgets the kept table of vault `id`.
    pub fn forget(&self, id: &str) {
        self.tables.forget(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(path: &str, line: usize) -> IndexedTask {
        IndexedTask {
            path: path.to_owned(),
            line,
            symbol: ' ',
            text: String::new(),
            fields: TaskFields::default(),
            tags: Vec::new(),
        }
    }

    #[test]
    fn under_a_prefix_is_exactly_the_paths_starting_with_it() {
        let table = TaskTable {
            tasks: vec![
                task("Projects/a.md", 1),
                task("Projects/a.md", 4),
                task("Projects/b.md", 2),
                task("Projects2/c.md", 1),
                task("Z.md", 3),
            ],
        };
        let paths = |prefix| {
            table
                .under(prefix)
                .iter()
                .map(|t| (t.path.as_str(), t.line))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            paths("Projects/"),
            [
                ("Projects/a.md", 1),
                ("Projects/a.md", 4),
                ("Projects/b.md", 2)
            ]
        );
        assert_eq!(paths("").len(), 5);
        assert_eq!(paths("Projects").len(), 4);
        assert!(paths("Q").is_empty());
        assert!(paths("Zz").is_empty());
    }
}
