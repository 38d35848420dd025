//! Writes made through obsidian-tc reach the search index at once: after a mutating tool
//! runs, every file it changed (recorded by the vault's journal, even when the call failed
//! part-way), the notes it named (its path arguments) and the `path` / `from` / `to` of its
//! result are re-read into the index before the call returns. A failure to index never
//! fails the call (the change is on disk; the watcher or the next scan picks it up).

use serde_json::Value;

use crate::dispatch::dispatcher::Dispatcher;
use crate::runtime::context::ToolContext;
use crate::telemetry::spans;
use crate::vault::journal::Before;

/// The result fields that name a note a call wrote, moved or removed.
const RESULT_PATH_FIELDS: [&str; 3] = ["path", "from", "to"];

impl Dispatcher {
    /// Refreshes the index for the notes the mutating call in `ctx` touched: `changed`
    /// (recorded by the journal), its path arguments and, when it succeeded, its `result`'s.
    pub(crate) fn refresh_touched(
        &self,
        ctx: &ToolContext<'_>,
        args: &Value,
        result: Option<&Value>,
        changed: &[Before],
    ) {
        let named_args = ctx.tool().def.path_args.iter().map(|arg| arg.name);
        let mut paths: Vec<String> = named_args
            .filter_map(|name| args.get(name).and_then(Value::as_str))
            .chain(result.into_iter().flat_map(|result| {
                RESULT_PATH_FIELDS
                    .iter()
                    .filter_map(|field| result.get(*field).and_then(Value::as_str))
            }))
            .map(str::to_owned)
            .chain(changed.iter().map(|before| before.path.clone()))
            .collect();
        paths.sort();
        paths.dedup();
        if paths.is_empty() {
            return;
        }
        let now = self.runtime.clock.now_seconds();
        let refreshed = spans::refresh_index(paths.len()).in_scope(|| {
            self.runtime.indexes.refresh(
                &self.runtime.store,
                ctx.vault_id(),
                ctx.vault(),
                &paths,
                now,
            )
        });
        if let Err(error) = refreshed {
            tracing::warn!(
                vault = ctx.vault_id(),
                "the search index missed this write ({error}); the next scan takes it"
            );
        }
    }
}
