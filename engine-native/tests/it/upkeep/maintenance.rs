//! Maintenance: one vault's rows dropped by `delete_vault_rows`; the server's sweep at its
//! clock with the configured retention; the serving task that sweeps and stops on cancel.

use std::sync::Arc;
use std::time::Duration;

use obsidian_tc::config::MaintenanceConfig;
use obsidian_tc::store::{NoteMeta, SweepCounts, VaultRowCounts};
use obsidian_tc::upkeep::{run_maintenance, sweep_interval};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::support;
use crate::support::dispatch::Fixture;

const DAY_MS: u64 = 86_400_000;

/// One row of every vault-scoped table for `vault`, at the fixture's clock.
fn seed(fx: &Fixture, vault: &str) {
    let store = fx.server.runtime().store();
    support::store::seed_vault_rows(store, vault, fx.now_s());
    store
        .notes()
        .upsert(
            vault,
            &NoteMeta {
                path: "a.md".into(),
                sha256: "0".repeat(64),
                mtime: 1,
                size: 1,
                frontmatter: json!({}),
            },
        )
        .expect("note");
}

#[test]
fn delete_vault_rows_drops_every_table_of_one_vault_only() {
    let fx = Fixture::new(json!({}));
    seed(&fx, "main");
    seed(&fx, "other");
    let store = fx.server.runtime().store();
    assert_eq!(
        store.delete_vault_rows("main").expect("reset"),
        VaultRowCounts {
            idempotency_keys: 1,
            elicit_tokens: 1,
            events: 1,
            notes: 1,
            index_rows: 0
        }
    );
    assert_eq!(
        store.delete_vault_rows("main").expect("again"),
        VaultRowCounts::default()
    );
    assert_eq!(
        support::store::vault_rows(store, "other", fx.now_s()),
        (1, 1)
    );
    assert!(store.notes().get("other", "a.md").expect("get").is_some());
    assert!(store.notes().get("main", "a.md").expect("get").is_none());
}

#[test]
fn the_sweep_uses_the_clock_and_the_configured_retention() {
    let fx = Fixture::new(json!({"maintenance": {"eventLogRetentionDays": 2}}));
    seed(&fx, "main");
    // A day less a second: the 5-minute approval request has expired, the 24 h key has not.
    fx.clock.advance(DAY_MS - 1000);
    assert_eq!(
        fx.server.runtime().sweep_cache().expect("sweep"),
        SweepCounts {
            idempotency_keys: 0,
            elicit_tokens: 1,
            events: 0,
            snapshots: 0,
            committed_captures: 0,
            retrievals: 0,
            episodes: 0,
        }
    );
    // Two days and a second: the key has expired and the event is past the 2-day retention.
    fx.clock.advance(DAY_MS + 2000);
    assert_eq!(
        fx.server.runtime().sweep_cache().expect("sweep"),
        SweepCounts {
            idempotency_keys: 1,
            elicit_tokens: 0,
            events: 1,
            snapshots: 0,
            committed_captures: 0,
            retrievals: 0,
            episodes: 0,
        }
    );
}

#[test]
fn the_interval_comes_from_the_config() {
    let config = MaintenanceConfig::default();
    assert!(config.enabled);
    assert_eq!(sweep_interval(&config), Some(Duration::from_secs(3600)));
    let off = MaintenanceConfig {
        enabled: false,
        ..config
    };
    assert_eq!(sweep_interval(&off), None);
}

#[tokio::test]
async fn the_task_sweeps_every_interval_and_stops_on_cancel() {
    let fx = Fixture::new(json!({}));
    seed(&fx, "main");
    fx.clock.advance(31 * DAY_MS);
    let server = Arc::new(fx.server);
    let cancel = CancellationToken::new();
    let task = tokio::spawn(run_maintenance(
        Arc::clone(&server),
        Duration::from_millis(20),
        cancel.clone(),
    ));
    let swept = async {
        while !server
            .runtime()
            .store()
            .events()
            .recent(None, 10)
            .expect("events")
            .is_empty()
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), swept)
        .await
        .expect("the task swept the old event");
    assert!(
        server
            .runtime()
            .store()
            .elicit()
            .list(None, 0)
            .expect("list")
            .is_empty()
    );
    cancel.cancel();
    tokio::time::timeout(Duration::from_secs(10), task)
        .await
        .expect("the task stops on cancel")
        .expect("the task did not panic");
}
