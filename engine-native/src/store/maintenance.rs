//! Maintenance: the periodic sweep of expired and old rows.

use rusqlite::params;

use super::{Store, StoreError};

/// How long rows without their own expiry are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Events older than this many seconds are deleted.
    pub event_log_seconds: i64,
}

impl Default for Retention {
    /// The design default: 30 days of events.
    fn default() -> Self {
        Self {
            event_log_seconds: 30 * 86_400,
        }
    }
}

/// How many rows a sweep deleted, per table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepCounts {
    /// Expired idempotency keys (any state).
    pub idempotency_keys: usize,
    /// Expired elicit requests and tokens (used or not).
    pub elicit_tokens: usize,
    /// Events past the retention.
    pub events: usize,
}

impl Store {
    /// Deletes expired idempotency keys and elicit tokens and events older than `retention`,
    /// in one transaction, then lets SQLite refresh its query statistics (`PRAGMA optimize`).
    ///
    /// Stale in-flight idempotency rows that have not expired are kept: a new claim takes them
    /// over (`Claim::Reclaimed`), and until then they still refuse a duplicate call.
    pub fn sweep(&self, now: i64, retention: Retention) -> Result<SweepCounts, StoreError> {
        let cutoff = now.saturating_sub(retention.event_log_seconds);
        let counts = self.write(|tx| {
            Ok::<_, StoreError>(SweepCounts {
                idempotency_keys: tx.execute(
                    "DELETE FROM idempotency_keys WHERE expires_at <= ?1",
                    params![now],
                )?,
                elicit_tokens: tx.execute(
                    "DELETE FROM elicit_tokens WHERE expires_at <= ?1",
                    params![now],
                )?,
                events: tx.execute("DELETE FROM event_log WHERE ts < ?1", params![cutoff])?,
            })
        })?;
        super::lock(&self.writer).execute_batch("PRAGMA optimize")?;
        Ok(counts)
    }
}
