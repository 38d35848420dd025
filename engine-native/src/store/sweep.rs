//! Maintenance: the periodic sweep of expired and old rows, and the reset of one vault's rows.

use rusqlite::params;

use super::{Store, StoreError};

/// How long rows without their own expiry are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Events, and logged retrievals, older than this many seconds are deleted.
    pub event_log_seconds: i64,
    /// Snapshots older than this many seconds are deleted.
    pub snapshot_seconds: i64,
    /// Work-memory episodes older than this many seconds are deleted.
    pub episode_seconds: i64,
    /// The most episodes kept (over every vault); the oldest beyond it are deleted.
    pub max_episodes: u64,
}

impl Default for Retention {
    /// The design default: 30 days of events, snapshots and episodes; 200,000 episodes.
    fn default() -> Self {
        Self {
            event_log_seconds: 30 * 86_400,
            snapshot_seconds: 30 * 86_400,
            episode_seconds: 30 * 86_400,
            max_episodes: 200_000,
        }
    }
}

/// How many rows a vault reset deleted, per table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VaultRowCounts {
    /// Idempotency keys (any state).
    pub idempotency_keys: usize,
    /// Elicit requests and tokens (used or not).
    pub elicit_tokens: usize,
    /// Event-log rows.
    pub events: usize,
    /// Notes metadata rows.
    pub notes: usize,
    /// Search index rows (chunks, links, tags, tasks, aliases, failures, index state) and
    /// what was derived from them (contradictions, the detector's place, note quality).
    pub index_rows: usize,
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
    /// Snapshots past the retention.
    pub snapshots: usize,
    /// Captures filed longer ago than the snapshot retention (their note is in the vault;
    /// a pending capture is never swept).
    pub committed_captures: usize,
    /// Logged retrievals past the event log's retention (with their hits).
    pub retrievals: usize,
    /// Work-memory episodes past the retention or beyond the cap (with their paths).
    pub episodes: usize,
}

impl Store {
    /// Deletes expired idempotency keys and elicit tokens, and events, logged retrievals,
    /// snapshots, filed captures and episodes older than `retention`, then the oldest
    /// episodes beyond its cap,
    /// in one transaction, then lets SQLite refresh its query statistics (`PRAGMA optimize`).
    ///
    /// Stale in-flight idempotency rows that have not expired are kept: a new claim takes them
    /// over (`Claim::Reclaimed`), and until then they still refuse a duplicate call.
    pub fn sweep(&self, now: i64, retention: Retention) -> Result<SweepCounts, StoreError> {
        let cutoff = now.saturating_sub(retention.event_log_seconds);
        let snapshot_cutoff = now.saturating_sub(retention.snapshot_seconds);
        let episode_cutoff = now.saturating_sub(retention.episode_seconds);
        let max_episodes = i64::try_from(retention.max_episodes).unwrap_or(i64::MAX);
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
                snapshots: tx.execute(
                    "DELETE FROM snapshots WHERE created_at < ?1",
                    params![snapshot_cutoff],
                )?,
                committed_captures: tx.execute(
                    "DELETE FROM capture_queue WHERE committed_at < ?1",
                    params![snapshot_cutoff],
                )?,
                retrievals: tx.execute(
                    "DELETE FROM retrieval_events WHERE ts < ?1",
                    params![cutoff],
                )?,
                episodes: tx.execute(
                    "DELETE FROM episodes WHERE ts < ?1",
                    params![episode_cutoff],
                )? + tx.execute(
                    "DELETE FROM episodes WHERE seq <= (SELECT seq FROM episodes
                             ORDER BY seq DESC LIMIT 1 OFFSET ?1)",
                    params![max_episodes],
                )?,
            })
        })?;
        super::lock(&self.writer).execute_batch("PRAGMA optimize")?;
        Ok(counts)
    }

    /// Deletes every row of vault `vault_id` from every vault-scoped table (idempotency keys,
    /// elicit tokens, events, notes, the search index) in one transaction. Other vaults' rows and the vault's
    /// files are untouched, and so are its snapshots, capture queue, retrieval log and
    /// work-memory episodes: they hold what is not in the vault (earlier versions, text not
    /// filed yet, what was retrieved, what agents did), not a cache.
    pub fn delete_vault_rows(&self, vault_id: &str) -> Result<VaultRowCounts, StoreError> {
        self.write(|tx| {
            let delete = |table: &str| {
                tx.execute(
                    &format!("DELETE FROM {table} WHERE vault_id = ?1"),
                    params![vault_id],
                )
            };
            Ok::<_, StoreError>(VaultRowCounts {
                idempotency_keys: delete("idempotency_keys")?,
                elicit_tokens: delete("elicit_tokens")?,
                events: delete("event_log")?,
                notes: delete("notes")?,
                index_rows: [
                    "chunks",
                    "links",
                    "tags",
                    "tasks",
                    "aliases",
                    "index_failures",
                    "index_state",
                    "contradictions",
                    "contradiction_scan",
                    "note_quality",
                ]
                .into_iter()
                .map(delete)
                .sum::<Result<usize, _>>()?,
            })
        })
    }
}
