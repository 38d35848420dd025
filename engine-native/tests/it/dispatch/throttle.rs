//! Gate 7b: the throttle per caller, class and vault, under the injected clock; a throttled
//! call does not reach the HITL gate.

use obsidian_tc::errors::ErrorCode;
use serde_json::json;

use crate::support::dispatch::{Fixture, caller};

#[test]
fn calls_past_the_burst_are_throttled_until_the_bucket_refills() {
    let fx = Fixture::new(json!({
        "throttle": {"tiers": {"read": {"perMinute": 60, "burst": 2}}}
    }));
    fx.write("main", "a.md", "x");
    let args = json!({"path": "a.md"});
    fx.ok("read_note", args.clone());
    fx.ok("read_note", args.clone());
    let error = fx.err("read_note", args.clone(), ErrorCode::Throttled);
    assert_eq!(error.details["scope_class"], "read");
    assert_eq!(error.details["retry_after_seconds"], 1);
    assert_eq!(error.details["current_burst"], 2);
    assert!(error.retryable);
    // Other callers and other vaults have their own buckets.
    let alice = caller("alice", &["read:notes"], None);
    assert!(fx.call(&alice, "read_note", args.clone()).result.is_ok());
    fx.write("other", "a.md", "y");
    fx.ok("read_note", json!({"path": "a.md", "vault": "other"}));
    fx.clock.advance(1_000);
    fx.ok("read_note", args);
}

#[test]
fn admin_tools_have_the_admin_tier_and_a_throttled_delete_records_no_request() {
    let fx = Fixture::new(json!({
        "throttle": {"tiers": {"delete": {"perMinute": 1, "burst": 1}}}
    }));
    fx.ok("get_metrics", json!({}));
    let error = fx.err("get_metrics", json!({}), ErrorCode::Throttled);
    assert_eq!(error.details["scope_class"], "admin");
    assert_eq!(error.details["retry_after_seconds"], 12);
    fx.write("main", "a.md", "x");
    fx.err(
        "delete_note",
        json!({"path": "a.md"}),
        ErrorCode::ElicitRequired,
    );
    fx.err("delete_note", json!({"path": "b.md"}), ErrorCode::Throttled);
    let pending = fx.pending_elicits(None);
    assert_eq!(pending.len(), 1);
}
