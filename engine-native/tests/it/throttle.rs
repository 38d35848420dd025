//! The throttle: bucket math under an injected clock, independence of buckets, eviction and
//! concurrency.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use engine_core::acl::{Scope, ScopeFamily};
use obsidian_tc::errors::{ErrorCode, ToolError};
use obsidian_tc::throttle::{
    Throttle, ThrottleConfig, ThrottleTier, ThrottleTiers, TierError, rate_class,
};
use serde_json::json;

/// Takes until refused at `now_ms`; returns how many were granted and the refusal.
fn drain(
    throttle: &Throttle,
    caller: &str,
    class: ScopeFamily,
    vault: &str,
    now_ms: u64,
) -> (u32, ToolError) {
    let mut granted = 0;
    loop {
        match throttle.check(caller, class, vault, now_ms) {
            Ok(()) => granted += 1,
            Err(refusal) => return (granted, refusal),
        }
        assert!(granted <= 10_000, "never refused");
    }
}

#[test]
fn shipped_tiers_allow_their_burst_then_refuse() {
    let throttle = Throttle::default();
    for (class, burst, rate) in [
        (ScopeFamily::Read, 100, 600),
        (ScopeFamily::Write, 20, 60),
        (ScopeFamily::Delete, 20, 60),
        (ScopeFamily::Bulk, 3, 10),
        (ScopeFamily::Execute, 1, 5),
        (ScopeFamily::Admin, 1, 5),
    ] {
        let (granted, refusal) = drain(&throttle, "agent", class, "main", 1_000);
        assert_eq!(granted, burst, "{class:?}");
        assert_eq!(refusal.code, ErrorCode::Throttled);
        assert_eq!(refusal.details["scope_class"], json!(class));
        assert_eq!(refusal.details["current_burst"], burst);
        assert_eq!(refusal.details["current_rate"], rate);
    }
}

#[test]
fn retry_after_is_exact_from_the_deficit() {
    let throttle = Throttle::default();
    // write: 60 per minute, one token per 1000 ms.
    let (_, refusal) = drain(&throttle, "a", ScopeFamily::Write, "main", 0);
    assert_eq!(refusal.details["retry_after_ms"], 1000);
    assert_eq!(refusal.details["retry_after_seconds"], 1);
    // 400 ms later the deficit is 600 ms of refill.
    let later = throttle
        .check("a", ScopeFamily::Write, "main", 400)
        .unwrap_err();
    assert_eq!(later.details["retry_after_ms"], 600);
    assert_eq!(later.details["retry_after_seconds"], 1);
    // bulk: 10 per minute, one token per 6000 ms.
    let (_, bulk) = drain(&throttle, "a", ScopeFamily::Bulk, "main", 0);
    assert_eq!(bulk.details["retry_after_ms"], 6000);
    assert_eq!(bulk.details["retry_after_seconds"], 6);
    // read: 600 per minute, one token per 100 ms; a wait under a second still says 1 s.
    let (_, read) = drain(&throttle, "a", ScopeFamily::Read, "main", 0);
    assert_eq!(read.details["retry_after_ms"], 100);
    assert_eq!(read.details["retry_after_seconds"], 1);
}

#[test]
fn waiting_exactly_retry_after_is_enough_and_one_ms_less_is_not() {
    let throttle = Throttle::default();
    let (_, refusal) = drain(&throttle, "a", ScopeFamily::Execute, "main", 5_000);
    let wait = refusal.details["retry_after_ms"].as_u64().expect("ms");
    assert_eq!(wait, 12_000);
    assert!(
        throttle
            .check("a", ScopeFamily::Execute, "main", 5_000 + wait - 1)
            .is_err()
    );
    assert!(
        throttle
            .check("a", ScopeFamily::Execute, "main", 5_000 + wait)
            .is_ok()
    );
}

#[test]
fn refill_is_continuous_and_capped_at_the_burst() {
    let throttle = Throttle::default();
    drain(&throttle, "a", ScopeFamily::Write, "main", 0);
    // 2.5 s of refill at one token per second: two whole tokens.
    let (granted, _) = drain(&throttle, "a", ScopeFamily::Write, "main", 2_500);
    assert_eq!(granted, 2);
    // The half token left over counts: 500 ms more completes a third.
    assert!(
        throttle
            .check("a", ScopeFamily::Write, "main", 3_000)
            .is_ok()
    );
    // An hour idle refills to the burst, not beyond.
    let (granted, _) = drain(&throttle, "a", ScopeFamily::Write, "main", 3_600_000);
    assert_eq!(granted, 20);
}

#[test]
fn buckets_are_independent_per_caller_class_and_vault() {
    let throttle = Throttle::default();
    drain(&throttle, "alice", ScopeFamily::Write, "main", 0);
    assert!(
        throttle
            .check("alice", ScopeFamily::Write, "main", 0)
            .is_err()
    );
    assert!(throttle.check("bob", ScopeFamily::Write, "main", 0).is_ok());
    assert!(
        throttle
            .check("alice", ScopeFamily::Write, "work", 0)
            .is_ok()
    );
    assert!(
        throttle
            .check("alice", ScopeFamily::Delete, "main", 0)
            .is_ok()
    );
    assert!(
        throttle
            .check("alice", ScopeFamily::Read, "main", 0)
            .is_ok()
    );
    assert!(
        throttle
            .check("alice", ScopeFamily::Write, "main", 0)
            .is_err()
    );
}

#[test]
fn disabled_passes_everything_and_keeps_nothing() {
    let throttle = Throttle::new(ThrottleConfig {
        enabled: false,
        ..ThrottleConfig::default()
    });
    for _ in 0..1_000 {
        assert!(throttle.check("a", ScopeFamily::Execute, "main", 0).is_ok());
    }
    assert_eq!(throttle.bucket_count(), 0);
}

#[test]
fn configured_tiers_replace_the_defaults_per_class() {
    let config: ThrottleConfig = serde_json::from_value(json!({
        "tiers": {"write": {"perMinute": 30, "burst": 2}}
    }))
    .expect("config");
    assert!(config.enabled);
    assert_eq!(config.tiers.write, ThrottleTier::new(30, 2).expect("tier"));
    assert_eq!(config.tiers.read, ThrottleTiers::default().read);
    let throttle = Throttle::new(config);
    let (granted, refusal) = drain(&throttle, "a", ScopeFamily::Write, "main", 0);
    assert_eq!(granted, 2);
    assert_eq!(refusal.details["retry_after_ms"], 2000);
}

#[test]
fn a_tier_that_could_never_pass_is_refused_at_load() {
    assert_eq!(ThrottleTier::new(0, 5), Err(TierError::ZeroRate));
    assert_eq!(ThrottleTier::new(5, 0), Err(TierError::ZeroBurst));
    let zero = serde_json::from_value::<ThrottleConfig>(json!({
        "tiers": {"bulk": {"perMinute": 10, "burst": 0}}
    }));
    let message = zero.expect_err("burst 0").to_string();
    assert!(message.contains("burst must be at least 1"), "{message}");
    assert!(serde_json::from_value::<ThrottleConfig>(json!({"tiers": {"reads": {}}})).is_err());
}

#[test]
fn rate_class_uses_engine_core_precedence() {
    let scopes = |list: &[&str]| -> Vec<Scope> {
        list.iter()
            .map(|s| Scope::parse(s).expect("scope"))
            .collect()
    };
    assert_eq!(rate_class(&[]), ScopeFamily::Read);
    assert_eq!(rate_class(&scopes(&["read:notes"])), ScopeFamily::Read);
    assert_eq!(
        rate_class(&scopes(&["read:notes", "write:notes"])),
        ScopeFamily::Write
    );
    assert_eq!(
        rate_class(&scopes(&["delete:notes", "admin:acl"])),
        ScopeFamily::Admin
    );
    assert_eq!(
        rate_class(&scopes(&["write:notes", "bulk:notes"])),
        ScopeFamily::Bulk
    );
}

#[test]
fn idle_full_buckets_are_evicted_so_memory_stays_bounded() {
    let throttle = Throttle::default();
    for i in 0..10_000 {
        let caller = format!("caller-{i}");
        assert!(
            throttle
                .check(&caller, ScopeFamily::Read, "main", 0)
                .is_ok()
        );
    }
    // Every bucket lacks one token, so each must be remembered.
    assert_eq!(throttle.bucket_count(), 10_000);
    // read refills one token in 100 ms: all full again, all dropped.
    assert_eq!(throttle.evict_idle(100), 0);

    // Without an explicit sweep: a minute later the next call sweeps on its own.
    for i in 0..10_000 {
        let caller = format!("caller-{i}");
        assert!(
            throttle
                .check(&caller, ScopeFamily::Read, "main", 1_000)
                .is_ok()
        );
    }
    assert!(throttle.bucket_count() <= 10_000);
    assert!(
        throttle
            .check("late", ScopeFamily::Read, "main", 61_000)
            .is_ok()
    );
    assert_eq!(throttle.bucket_count(), 1);
}

#[test]
fn a_drained_bucket_survives_eviction_so_limits_cannot_be_reset() {
    let throttle = Throttle::default();
    drain(&throttle, "a", ScopeFamily::Execute, "main", 0);
    // Not yet full at 11 999 ms: kept, still refusing.
    assert_eq!(throttle.evict_idle(11_999), 1);
    assert!(
        throttle
            .check("a", ScopeFamily::Execute, "main", 11_999)
            .is_err()
    );
}

#[test]
fn concurrent_takes_never_exceed_the_burst() {
    let throttle = Arc::new(Throttle::default());
    let granted = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let throttle = Arc::clone(&throttle);
            let granted = Arc::clone(&granted);
            std::thread::spawn(move || {
                for _ in 0..100 {
                    if throttle
                        .check("shared", ScopeFamily::Write, "main", 0)
                        .is_ok()
                    {
                        granted.fetch_add(1, Ordering::SeqCst);
                    }
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("thread");
    }
    assert_eq!(granted.load(Ordering::SeqCst), 20);
}
