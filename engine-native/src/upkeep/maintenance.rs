//! The maintenance task of a running server: the work-memory evaluator
//! ([`crate::store::Episodes::evaluate`]), [`crate::runtime::Runtime::sweep_cache`],
//! [`crate::runtime::Runtime::sweep_traces`] and the goals' deadline sweep (`expire_goals`,
//! called through the dispatcher as [`MAINTENANCE_CALLER_ID`] on every vault that has a goals
//! folder, so its writes take the governed path: write queue, snapshots, reindex, audit row)
//! and, when a model judges contradictions, one bounded run of the contradiction detector
//! per vault (`detect_contradictions`, for the server itself), one interval after start and every
//! interval after, until shutdown; the counts go to the log (stderr).

use std::sync::Arc;
use std::time::Duration;

use engine_core::acl::Scope;
use serde_json::json;
use tokio::time::{Instant, MissedTickBehavior, interval_at};
use tokio_util::sync::CancellationToken;

use crate::auth::Caller;
use crate::config::MaintenanceConfig;
use crate::dispatch::Dispatcher;
use crate::index::contradictions::Budget;
use crate::runtime::passes::Detection;
use crate::tools::goals::{EXPIRE_GOALS, goals_folder_of};

/// The caller the maintenance task calls tools as (every scope; the folder ACL applies).
pub const MAINTENANCE_CALLER_ID: &str = "maintenance";

/// The most pairs the maintenance run of the contradiction detector judges per vault.
pub const MAINTENANCE_PAIRS: usize = 200;
/// How long the maintenance run of the contradiction detector may take per vault.
pub const MAINTENANCE_BUDGET: Duration = Duration::from_secs(60);

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
            detect_contradictions(&dispatcher);
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
    let caller = maintenance_caller();
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

/// The caller the maintenance task calls tools as.
fn maintenance_caller() -> Caller {
    Caller {
        id: MAINTENANCE_CALLER_ID.to_owned(),
        scopes: vec![Scope::everything()],
        vault_binding: None,
        token_without_vault: false,
    }
}

/// Runs the contradiction detector on every served vault (at most [`MAINTENANCE_PAIRS`]
/// pairs and [`MAINTENANCE_BUDGET`] each) when a model judges contradictions
/// ([`crate::runtime::Runtime::judges_contradictions`]); without one it does nothing. It runs
/// for the server itself, over every note whatever the folder ACL (what it stores is shown
/// to a caller only when both sides are readable).
pub fn detect_contradictions(dispatcher: &Dispatcher) {
    let server = dispatcher.runtime();
    if !server.judges_contradictions() {
        return;
    }
    for entry in server.served().vaults() {
        let budget = Budget {
            max_pairs: MAINTENANCE_PAIRS,
            deadline: std::time::Instant::now() + MAINTENANCE_BUDGET,
        };
        match server.detect_contradictions(&entry.id, "maintenance", budget, &mut |_, _| {}) {
            Ok(Detection::Ran { report, .. }) => tracing::info!(
                vault = entry.id,
                "maintenance: contradiction detector judged {} pairs ({} contradictions, {} tensions, {} retired as stale)",
                report.pairs_judged,
                report.contradictions,
                report.tensions,
                report.stale
            ),
            Ok(_) => {}
            Err(error) => tracing::warn!(
                vault = entry.id,
                "maintenance: the contradiction detector failed: {error}"
            ),
        }
    }
}
