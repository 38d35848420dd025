//! The event log: one audit row per tool call, written by dispatch on success and on error,
//! with the vault paths the call named or changed (`event_paths`), read back newest first
//! through an [`EventFilter`].

use rusqlite::{Row, params};
use serde_json::Value;

use super::{Store, StoreError, check_limit};

/// How a tool call ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The call succeeded.
    Ok,
    /// The call failed with this error code (`acl_denied`, `throttled`, …).
    Error {
        /// The tool error's `code`.
        code: String,
    },
}

/// One tool call, as recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// The vault the call was resolved to.
    pub vault_id: String,
    /// When the call finished, Unix seconds.
    pub ts: i64,
    /// The tool's name.
    pub tool: String,
    /// The caller identity.
    pub caller: String,
    /// How it ended.
    pub outcome: Outcome,
    /// How long it took, milliseconds.
    pub duration_ms: i64,
    /// The call's args hash (never the arguments themselves).
    pub args_hash: String,
    /// Extra structured facts (whether the result was replayed, …).
    pub details: Value,
    /// The vault paths the call named in its path arguments or changed, sorted, no repeats.
    pub paths: Vec<String>,
}

/// An [`Event`] read back with its row id (ascending in insertion order).
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedEvent {
    /// The row id.
    pub id: i64,
    /// The event.
    pub event: Event,
}

/// Which events [`EventLog::query`] returns; every `None` matches everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventFilter {
    /// Only this vault's events.
    pub vault: Option<String>,
    /// Only events at or after this time, Unix seconds.
    pub since: Option<i64>,
    /// Only events at or before this time, Unix seconds.
    pub until: Option<i64>,
    /// Only calls of this tool.
    pub tool: Option<String>,
    /// Only calls of this caller.
    pub caller: Option<String>,
    /// `ok`, `error`, or one error code.
    pub outcome: Option<String>,
    /// Only calls that named or changed a path starting with this text.
    pub path_prefix: Option<String>,
    /// Only events older than this row id (the cursor of the next page).
    pub before_id: Option<i64>,
}

/// The event-log repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct EventLog<'s> {
    store: &'s Store,
}

impl<'s> EventLog<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// Appends `event` and its paths; returns its row id.
    pub fn append(&self, event: &Event) -> Result<i64, StoreError> {
        let details = serde_json::to_string(&event.details)?;
        let (outcome, code) = match &event.outcome {
            Outcome::Ok => ("ok", None),
            Outcome::Error { code } => ("error", Some(code.as_str())),
        };
        self.store.write(|tx| {
            tx.execute(
                "INSERT INTO event_log (vault_id, ts, tool, caller, outcome, code, duration_ms,
                                        args_hash, details_json)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    event.vault_id,
                    event.ts,
                    event.tool,
                    event.caller,
                    outcome,
                    code,
                    event.duration_ms,
                    event.args_hash,
                    details
                ],
            )?;
            let id = tx.last_insert_rowid();
            let mut insert = tx.prepare_cached(
                "INSERT OR IGNORE INTO event_paths (event_id, vault_id, path) VALUES (?1, ?2, ?3)",
            )?;
            for path in &event.paths {
                insert.execute(params![id, event.vault_id, path])?;
            }
            Ok(id)
        })
    }

    /// How many events of every vault, at or after `since` (Unix seconds), are of a tool
    /// whose name starts with `prefix` (the model calls' `model.` rows, for their day limit).
    pub fn count_tool_prefix_since(&self, prefix: &str, since: i64) -> Result<u64, StoreError> {
        self.store.read(|conn| {
            let count: i64 = conn.query_row(
                "SELECT count(*) FROM event_log WHERE ts >= ?1 AND substr(tool, 1, length(?2)) = ?2",
                params![since, prefix],
                |row| row.get(0),
            )?;
            Ok(u64::try_from(count).unwrap_or(0))
        })
    }

    /// The newest `limit` events (1..=1000), newest first, of one vault or of all.
    pub fn recent(&self, vault: Option<&str>, limit: u32) -> Result<Vec<LoggedEvent>, StoreError> {
        let filter = EventFilter {
            vault: vault.map(str::to_owned),
            ..EventFilter::default()
        };
        self.query(&filter, limit)
    }

    /// The newest `limit` events (1..=1000) that pass `filter`, newest first.
    pub fn query(&self, filter: &EventFilter, limit: u32) -> Result<Vec<LoggedEvent>, StoreError> {
        check_limit(limit)?;
        self.store.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT e.id, e.vault_id, e.ts, e.tool, e.caller, e.code, e.duration_ms,
                        e.args_hash, e.details_json,
                        (SELECT json_group_array(path) FROM
                            (SELECT path FROM event_paths WHERE event_id = e.id ORDER BY path))
                 FROM event_log e
                 WHERE (?1 IS NULL OR e.vault_id = ?1)
                   AND (?2 IS NULL OR e.ts >= ?2)
                   AND (?3 IS NULL OR e.ts <= ?3)
                   AND (?4 IS NULL OR e.tool = ?4)
                   AND (?5 IS NULL OR e.caller = ?5)
                   AND (?6 IS NULL OR e.outcome = ?6 OR e.code = ?6)
                   AND (?7 IS NULL OR EXISTS (
                        SELECT 1 FROM event_paths p
                        WHERE p.event_id = e.id AND substr(p.path, 1, length(?7)) = ?7))
                   AND (?8 IS NULL OR e.id < ?8)
                 ORDER BY e.id DESC LIMIT ?9",
            )?;
            let rows = stmt.query_map(
                params![
                    filter.vault,
                    filter.since,
                    filter.until,
                    filter.tool,
                    filter.caller,
                    filter.outcome,
                    filter.path_prefix,
                    filter.before_id,
                    limit
                ],
                logged_event,
            )?;
            let mut events = Vec::new();
            for row in rows {
                let (mut event, details, paths) = row?;
                event.event.details = serde_json::from_str(&details)?;
                event.event.paths = serde_json::from_str(&paths)?;
                events.push(event);
            }
            Ok(events)
        })
    }
}

/// One row of [`EventLog::query`], with its details and paths still JSON text.
fn logged_event(r: &Row<'_>) -> rusqlite::Result<(LoggedEvent, String, String)> {
    let code: Option<String> = r.get(5)?;
    let event = Event {
        vault_id: r.get(1)?,
        ts: r.get(2)?,
        tool: r.get(3)?,
        caller: r.get(4)?,
        outcome: code.map_or(Outcome::Ok, |code| Outcome::Error { code }),
        duration_ms: r.get(6)?,
        args_hash: r.get(7)?,
        details: Value::Null,
        paths: Vec::new(),
    };
    Ok((
        LoggedEvent {
            id: r.get(0)?,
            event,
        },
        r.get(8)?,
        r.get(9)?,
    ))
}
