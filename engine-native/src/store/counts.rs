//! Aggregates for the Prometheus metrics: the size of each vault's index, and the tool calls
//! of the event log grouped by what the call counters count.

use std::collections::BTreeMap;

use rusqlite::Connection;

use super::{Store, StoreError};

/// The stored index of one vault, in numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IndexCounts {
    /// Notes.
    pub notes: u64,
    /// Chunks.
    pub chunks: u64,
    /// Chunks with a vector, by embedding set (its fingerprint).
    pub embedded: BTreeMap<String, u64>,
}

/// Event-log rows with the same vault, tool, code and duration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedCalls {
    /// The vault the calls were bound to (`""` before vault binding).
    pub vault: String,
    /// The tool name as logged.
    pub tool: String,
    /// The error code, `None` for calls that succeeded.
    pub code: Option<String>,
    /// How long each took, milliseconds.
    pub duration_ms: u64,
    /// How many calls.
    pub count: u64,
}

/// The aggregates of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct Counts<'s> {
    store: &'s Store,
}

impl<'s> Counts<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// The index of every vault that has rows, by vault id.
    pub fn index(&self) -> Result<BTreeMap<String, IndexCounts>, StoreError> {
        self.store.read(|conn| {
            let mut vaults: BTreeMap<String, IndexCounts> = BTreeMap::new();
            for (vault, count) in grouped(conn, "SELECT vault_id, count(*) FROM notes GROUP BY 1")?
            {
                vaults.entry(vault).or_default().notes = count;
            }
            for (vault, count) in grouped(conn, "SELECT vault_id, count(*) FROM chunks GROUP BY 1")?
            {
                vaults.entry(vault).or_default().chunks = count;
            }
            let mut embedded = conn.prepare(
                "SELECT c.vault_id, s.fingerprint, count(*)
                 FROM embedding_chunks c JOIN embedding_sets s ON s.set_id = c.set_id
                 GROUP BY c.set_id, c.vault_id",
            )?;
            let rows = embedded.query_map([], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, i64>(2)?,
                ))
            })?;
            for row in rows {
                let (vault, set, count) = row?;
                vaults
                    .entry(vault)
                    .or_default()
                    .embedded
                    .insert(set, u64::try_from(count).unwrap_or(0));
            }
            Ok(vaults)
        })
    }

    /// Every call of the event log, grouped by vault, tool, code and duration.
    pub fn logged_calls(&self) -> Result<Vec<LoggedCalls>, StoreError> {
        self.store.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT vault_id, tool, code, duration_ms, count(*) FROM event_log
                 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4",
            )?;
            let rows = stmt.query_map([], |row| {
                Ok(LoggedCalls {
                    vault: row.get(0)?,
                    tool: row.get(1)?,
                    code: row.get(2)?,
                    duration_ms: u64::try_from(row.get::<_, i64>(3)?).unwrap_or(0),
                    count: u64::try_from(row.get::<_, i64>(4)?).unwrap_or(0),
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }
}

/// The `(vault_id, count)` rows of `sql`.
fn grouped(conn: &Connection, sql: &str) -> Result<Vec<(String, u64)>, StoreError> {
    let mut stmt = conn.prepare(sql)?;
    let rows = stmt.query_map([], |row| {
        Ok((
            row.get::<_, String>(0)?,
            u64::try_from(row.get::<_, i64>(1)?).unwrap_or(0),
        ))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
