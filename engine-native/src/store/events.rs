//! The event log: one audit row per tool call, written by dispatch on success and on error.

use rusqlite::params;
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
    /// Extra structured facts (result size, paths touched, …).
    pub details: Value,
}

/// An [`Event`] read back with its row id (ascending in insertion order).
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedEvent {
    /// The row id.
    pub id: i64,
    /// The event.
    pub event: Event,
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

    /// Appends `event`; returns its row id.
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
            Ok(tx.last_insert_rowid())
        })
    }

    /// The newest `limit` events (1..=1000), newest first, of one vault or of all.
    pub fn recent(&self, vault: Option<&str>, limit: u32) -> Result<Vec<LoggedEvent>, StoreError> {
        check_limit(limit)?;
        self.store.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT id, vault_id, ts, tool, caller, code, duration_ms, args_hash, details_json
                 FROM event_log WHERE (?1 IS NULL OR vault_id = ?1)
                 ORDER BY id DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![vault, limit], |r| {
                let code: Option<String> = r.get(5)?;
                Ok((
                    r.get::<_, i64>(0)?,
                    Event {
                        vault_id: r.get(1)?,
                        ts: r.get(2)?,
                        tool: r.get(3)?,
                        caller: r.get(4)?,
                        outcome: code.map_or(Outcome::Ok, |code| Outcome::Error { code }),
                        duration_ms: r.get(6)?,
                        args_hash: r.get(7)?,
                        details: Value::Null,
                    },
                    r.get::<_, String>(8)?,
                ))
            })?;
            let mut events = Vec::new();
            for row in rows {
                let (id, mut event, details) = row?;
                event.details = serde_json::from_str(&details)?;
                events.push(LoggedEvent { id, event });
            }
            Ok(events)
        })
    }
}
