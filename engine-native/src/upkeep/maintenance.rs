//! The maintenance task of a running server: the work-memory evaluator
//! ([`crate::store::Episodes::evaluate`]), [`crate::runtime::Runtime::sweep_cache`],
//! [`crate::runtime::Runtime::sweep_traces`] and the goals' deadline sweep (`expire_goals`,
//! called through the dispatcher as [`MAINTENANCE_CALLER_ID`] on every vault that has a goals
//! folder, so its writes take the governed path: write queue, snapshots, reindex, audit row)
//! one interval after start and every interval after, until shutdown; the counts go to the
//! log (stderr).

use std::sync::Arc;
use std::time::Duration;

use engine_core::acl::Scope;
use serde_json::json;
use tokio::time::{Instant, MissedTickBehavior, interval_at};
use tokio_util::sync::CancellationToken;

use crate::auth::Caller;
use crate::config::MaintenanceConfig;
use crate::dispatch::Dispatcher;
use crate::tools::goals::{EXPIRE_GOALS, goals_folder_of};

/// The caller the maintenance task calls tools as (every scope; the folder ACL applies).
pub const MAINTENANCE_CALLER_ID: &str = "maintenance";

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
            let swept = (server.sweep_cache(), server.sweep_traces());
            expire_goals(&dispatcher);
            swept
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

/// Runs `expire_goals` on every served vault that has a goals folder, as the maintenance
/// caller; a vault that refuses (read-only, its ACL) is left to `list_goals`, which applies
/// the deadline rule on read.
pub fn expire_goals(dispatcher: &Dispatcher) {
    let caller = Caller {
        id: MAINTENANCE_CALLER_ID.to_owned(),
        scopes: vec![Scope::everything()],
        vault_binding: None,
        token_without_vault: false,
    };
    let served = dispatcher.runtime().served();
    for entry in served.vaults() {
        let config = served
            .config()
            .config
            .vaults
            .iter()
            .find(|v| v.id == entry.id);
        if !entry.vault.root().join(goals_folder_of(config)).is_dir() {
            continue;
        }
        match dispatcher
            .call(&caller, EXPIRE_GOALS, json!({ "vault": entry.id }))
            .result
        {
            Ok(answer) => match answer["expired"].as_array().map_or(0, Vec::len) {
                0 => {}
                expired => tracing::info!(
                    vault = entry.id,
                    "maintenance sweep: {expired} goals expired"
                ),
            },
            Err(error) => tracing::debug!(
                vault = entry.id,
                "maintenance sweep: goals not expired ({})",
                error.message
            ),
        }
    }
}
