//! [`Runtime::sweep_cache`]: one maintenance sweep of the cache database at the
//! server's clock, with the retention of the configuration in force; [`Runtime::sweep_traces`]
//! the same for session traces.

use crate::calendar::rfc3339_utc;
use crate::runtime::state::Runtime;
use crate::store::{Retention, StoreError, SweepCounts};

/// Seconds in a day.
const DAY_SECONDS: i64 = 86_400;

impl Runtime {
    /// Deletes expired idempotency keys and elicit tokens, events older than
    /// `maintenance.eventLogRetentionDays` and snapshots older than
    /// `maintenance.snapshotRetentionDays`, episodes older than `work.retentionDays` or beyond
    /// `work.maxEpisodes`, as of the server's clock.
    pub fn sweep_cache(&self) -> Result<SweepCounts, StoreError> {
        let maintenance = &self.config().config.maintenance;
        let retention = Retention {
            event_log_seconds: days(maintenance.event_log_retention_days),
            snapshot_seconds: days(maintenance.snapshot_retention_days),
            episode_seconds: days(self.config().config.work.retention_days),
            max_episodes: self.config().config.work.max_episodes,
        };
        self.store.sweep(self.clock.now_seconds(), retention)
    }

    /// The time before which a session's last record makes it old enough to delete
    /// (`traces.retentionDays` before now), as records write time.
    pub fn trace_retention_cutoff(&self) -> String {
        let retention = days(self.config().config.traces.retention_days);
        rfc3339_utc(self.clock.now_seconds().saturating_sub(retention))
    }

    /// The time before which an episode is past `work.retentionDays` (never shown, even
    /// before the sweep deletes it), Unix seconds.
    pub fn episode_cutoff(&self) -> i64 {
        let retention = days(self.config().config.work.retention_days);
        self.clock.now_seconds().saturating_sub(retention)
    }

    /// Deletes the sessions of every vault whose last record is older than
    /// `traces.retentionDays`; returns how many.
    pub fn sweep_traces(&self) -> std::io::Result<usize> {
        self.sessions.prune_all(&self.trace_retention_cutoff())
    }
}

/// `n` days in seconds, saturating.
fn days(n: u64) -> i64 {
    i64::try_from(n)
        .unwrap_or(i64::MAX)
        .saturating_mul(DAY_SECONDS)
}
