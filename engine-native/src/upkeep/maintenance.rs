//! The maintenance task of a running server: the work-memory evaluator
//! ([`crate::store::Episodes::evaluate`]), [`crate::runtime::Runtime::sweep_cache`] and
//! [`crate::runtime::Runtime::sweep_traces`] one interval after start and every interval
//! after, until shutdown; the counts go to the log (stderr).

use std::sync::Arc;
use std::time::Duration;

use tokio::time::{Instant, MissedTickBehavior, interval_at};
use tokio_util::sync::CancellationToken;

use crate::config::MaintenanceConfig;
use crate::dispatch::Dispatcher;

/// Seconds in a minute.
const MINUTE_SECONDS: u64 = 60;

/// The sweep interval `config` asks for, or `None` when maintenance is off.
pub fn sweep_interval(config: &MaintenanceConfig) -> Option<Duration> {
    config
        .enabled
        .then(|| Duration::from_secs(config.interval_minutes.saturating_mul(MINUTE_SECONDS)))
}

/// Sweeps the cache every `every` (the first sweep one interval after the call) until
/// `cancel` fires; a sweep in progress finishes first.
pub async fn run_maintenance(
    dispatcher: Arc<Dispatcher>,
    every: Duration,
    cancel: CancellationToken,
) {
    let mut ticks = interval_at(Instant::now() + every, every);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = cancel.cancelled() => return,
            _ = ticks.tick() => {}
        }
        let dispatcher = Arc::clone(&dispatcher);
        let sweep = move || {
            let server = dispatcher.runtime();
            if let Err(error) = server.store().episodes().evaluate() {
                tracing::warn!("maintenance: the work-memory evaluator failed: {error}");
            }
            (server.sweep_cache(), server.sweep_traces())
        };
        let (cache, traces) = match tokio::task::spawn_blocking(sweep).await {
            Ok(swept) => swept,
            Err(error) => {
                tracing::warn!("maintenance sweep stopped abnormally: {error}");
                continue;
            }
        };
        match cache {
            Ok(counts) => {
                let deleted = counts.idempotency_keys
                    + counts.elicit_tokens
                    + counts.events
                    + counts.episodes;
                let line = format!(
                    "maintenance sweep: deleted {} idempotency keys, {} elicit tokens, {} events, {} episodes",
                    counts.idempotency_keys, counts.elicit_tokens, counts.events, counts.episodes
                );
                if deleted > 0 {
                    tracing::info!("{line}");
                } else {
                    tracing::debug!("{line}");
                }
            }
            Err(error) => tracing::warn!("maintenance sweep failed: {error}"),
        }
        match traces {
            Ok(0) => {}
            Ok(deleted) => {
                tracing::info!("maintenance sweep: deleted {deleted} old session traces")
            }
            Err(error) => tracing::warn!("maintenance sweep of session traces failed: {error}"),
        }
    }
}
