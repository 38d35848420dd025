//! `gap_report` as the reader may see it: before any pass it is empty; a title query of a
//! note the reader may not read is not shown (nor counted), and a nearest note it may not
//! read is left out.

use serde_json::json;

use super::gap_pass::{queries, zebra_vault};
use crate::support::dispatch::caller;

#[test]
fn title_queries_and_nearest_notes_follow_the_readers_acl() {
    let fx = zebra_vault();
    let agent = caller("agent", &["read:notes"], None);
    let empty = fx
        .call(&agent, "gap_report", json!({}))
        .result
        .expect("report");
    assert_eq!(
        (&empty["available"], &empty["total"]),
        (&json!(false), &json!(0))
    );
    let admin = caller("admin", &["read:notes", "read:secret", "admin:vault"], None);
    let pass = fx
        .call(&admin, "run_gap_pass", json!({"threshold": 0.1}))
        .result
        .expect("pass");
    assert_eq!(
        (pass["source"].as_str(), pass["total"].as_u64()),
        (Some("titles"), Some(3))
    );
    let all = fx
        .call(&admin, "gap_report", json!({}))
        .result
        .expect("report");
    assert_eq!(queries(&all), ["Savanna", "Plans", "Zebra"]);
    let seen = fx
        .call(&agent, "gap_report", json!({}))
        .result
        .expect("report");
    assert_eq!(queries(&seen), ["Savanna", "Zebra"], "{seen}");
    assert_eq!(seen["total"], 2);
    let text = seen.to_string();
    assert!(!text.contains("Secret/"), "{text}");
    assert!(all.to_string().contains("Secret/Plans.md"));
}
