//! `run_gap_pass`: a query the vault has no note for is a gap, one it answers is not; the
//! budget cuts the set (`complete: false`); the pass is kept and `gap_report` reads it.

use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

/// A vault of zebra notes and one hidden note; `Secret/**` needs `read:secret`.
pub fn zebra_vault() -> Fixture {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"rules": [{"glob": "Secret/**", "scopes": ["read:secret"]}]}
    }));
    for (path, text) in [
        ("Zebra.md", "# Zebra\n\nzebra stripes, zebra herds\n"),
        (
            "Savanna.md",
            "# Savanna\n\nzebra and lions of the savanna\n",
        ),
        (
            "Secret/Plans.md",
            "# Plans\n\nzebra plans nobody may read\n",
        ),
    ] {
        fx.write("main", path, text);
    }
    fx.ok("index_vault", json!({}));
    fx
}

/// The queries of `report`'s items.
pub fn queries(report: &Value) -> Vec<&str> {
    report["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|item| item["query"].as_str())
        .collect()
}

#[test]
fn a_query_without_notes_is_a_gap_and_the_pass_is_kept() {
    let fx = zebra_vault();
    let admin = caller("admin", &["read:notes", "admin:vault"], None);
    let pass = fx
        .call(
            &admin,
            "run_gap_pass",
            json!({"queries": ["zebra", "  ", "quantum chromodynamics"], "threshold": 0.1}),
        )
        .result
        .expect("pass");
    assert_eq!(pass["mode"], "lexical");
    assert_eq!(
        (pass["total"].as_u64(), pass["gaps"].as_u64()),
        (Some(2), Some(1)),
        "{pass}"
    );
    assert_eq!(pass["gap_rate"], 0.5);
    assert_eq!(pass["complete"], true);
    let report = fx.ok("gap_report", json!({}));
    assert_eq!(report["available"], true);
    assert_eq!(queries(&report), ["zebra", "quantum chromodynamics"]);
    let zebra = &report["items"][0];
    assert_eq!(zebra["gap"], false);
    assert_eq!(
        zebra["results"], 2,
        "the two readable zebra notes: {report}"
    );
    assert!(zebra["top_score"].as_f64() >= Some(0.1));
    let none = &report["items"][1];
    assert_eq!(
        (&none["gap"], &none["top_score"]),
        (&json!(true), &Value::Null)
    );
    assert_eq!(none["nearest"], json!([]));
    let gaps = fx.ok("gap_report", json!({"gaps_only": true}));
    assert_eq!(queries(&gaps), ["quantum chromodynamics"]);
    // A budget of one query cuts the set; the newest pass is the one read.
    let cut = fx
        .call(
            &admin,
            "run_gap_pass",
            json!({"queries": ["zebra", "lions"], "max_queries": 1}),
        )
        .result
        .expect("pass");
    assert_eq!(
        (cut["total"].as_u64(), &cut["complete"]),
        (Some(1), &json!(false))
    );
    assert_eq!(queries(&fx.ok("gap_report", json!({}))), ["zebra"]);
    // The pass needs admin:vault.
    let agent = caller("agent", &["read:notes"], None);
    assert!(fx.call(&agent, "run_gap_pass", json!({})).result.is_err());
}
