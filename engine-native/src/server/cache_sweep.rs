//! [`Server::sweep_cache`]: one maintenance sweep of the cache database at the
//! server's clock, with the retention of the configuration in force.

use crate::server::state::Server;
use crate::store::{Retention, StoreError, SweepCounts};

/// Seconds in a day.
const DAY_SECONDS: i64 = 86_400;

impl Server {
    /// Deletes expired idempotency keys and elicit tokens, events older than
    /// `maintenance.eventLogRetentionDays` and snapshots older than
    /// `maintenance.snapshotRetentionDays`, as of the server's clock.
    pub fn sweep_cache(&self) -> Result<SweepCounts, StoreError> {
        let maintenance = &self.config().config.maintenance;
        let retention = Retention {
            event_log_seconds: days(maintenance.event_log_retention_days),
            snapshot_seconds: days(maintenance.snapshot_retention_days),
        };
        self.store.sweep(self.clock.now_seconds(), retention)
    }
}

/// `n` days in seconds, saturating.
fn days(n: u64) -> i64 {
    i64::try_from(n)
        .unwrap_or(i64::MAX)
        .saturating_mul(DAY_SECONDS)
}
