//! [`Dispatcher::sweep_cache`]: one maintenance sweep of the cache database at the
//! dispatcher's clock, with the retention of the configuration in force.

use crate::dispatch::dispatcher::Dispatcher;
use crate::store::{Retention, StoreError, SweepCounts};

/// Seconds in a day.
const DAY_SECONDS: i64 = 86_400;

impl Dispatcher {
    /// Deletes expired idempotency keys and elicit tokens, and events older than
    /// `maintenance.eventLogRetentionDays`, as of the dispatcher's clock.
    pub fn sweep_cache(&self) -> Result<SweepCounts, StoreError> {
        let days = self.config().config.maintenance.event_log_retention_days;
        let retention = Retention {
            event_log_seconds: i64::try_from(days)
                .unwrap_or(i64::MAX)
                .saturating_mul(DAY_SECONDS),
        };
        self.store.sweep(self.clock.now_seconds(), retention)
    }
}
