//! Gate 10 and the admin tools: the byte governor, one audit row and one metric per call
//! (failures included), and tenant isolation of the admin tools.

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::store::Outcome;
use serde_json::json;

use crate::support::dispatch::{Fixture, caller};

#[test]
fn a_response_over_the_limit_is_refused_with_overflow() {
    let fx = Fixture::new(json!({"governor": {"maxResponseBytes": 400}}));
    fx.write("main", "small.md", "tiny");
    fx.write("main", "big.md", &"x".repeat(500));
    fx.ok("read_note", json!({"path": "small.md"}));
    let error = fx.err("read_note", json!({"path": "big.md"}), ErrorCode::Overflow);
    assert_eq!(error.details["limit"], 400);
    assert!(error.details["size"].as_u64().unwrap() > 500);
}

#[test]
fn every_call_leaves_an_audit_row_and_a_counter() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write("main", "a.md", "x");
    let stdio = Caller::stdio();
    let ok = fx.call(&stdio, "read_note", json!({"path": "a.md"}));
    fx.clock.advance(2_000);
    let missing = fx.call(&stdio, "no_such_tool", json!({"a": 1}));
    let invalid = fx.call(&stdio, "read_note", json!({}));
    let denied = fx.call(&stdio, "read_note", json!({"path": ".obsidian/app.json"}));
    let gated = fx.call(&stdio, "delete_note", json!({"path": "a.md"}));
    let events = fx.events();
    let rows: Vec<(&str, Option<&str>, &str, &str)> = events
        .iter()
        .map(|logged| {
            let event = &logged.event;
            let code = match &event.outcome {
                Outcome::Ok => None,
                Outcome::Error { code } => Some(code.as_str()),
            };
            (
                event.tool.as_str(),
                code,
                event.vault_id.as_str(),
                event.args_hash.as_str(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("read_note", None, "main", ok.args_hash.as_str()),
            (
                "no_such_tool",
                Some("not_found"),
                "",
                missing.args_hash.as_str()
            ),
            (
                "read_note",
                Some("validation_error"),
                "",
                invalid.args_hash.as_str()
            ),
            (
                "read_note",
                Some("acl_denied"),
                "main",
                denied.args_hash.as_str()
            ),
            (
                "delete_note",
                Some("elicit_required"),
                "main",
                gated.args_hash.as_str()
            ),
        ]
    );
    assert!(events.iter().all(|logged| logged.event.caller == "stdio"));
    assert_eq!(events[0].event.ts, fx.now_s() - 2);
    assert!(rows.iter().all(|row| row.3.len() == 32));

    let metrics = fx.ok("get_metrics", json!({}));
    let calls = metrics["calls"].as_array().unwrap();
    let count = |tool: &str, code: &str| {
        calls
            .iter()
            .filter(|c| c["tool"] == tool && c["code"] == code)
            .map(|c| c["count"].as_u64().unwrap())
            .sum::<u64>()
    };
    assert_eq!(count("read_note", "ok"), 1);
    assert_eq!(count("(unregistered)", "not_found"), 1);
    assert_eq!(count("read_note", "acl_denied"), 1);
    assert_eq!(count("delete_note", "elicit_required"), 1);
    assert_eq!(metrics["bookkeeping_faults"], 0);
}

#[test]
fn admin_tools_show_a_bound_caller_only_its_vault() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "auth": {"jwtSecret": "0123456789abcdef0123456789abcdef-secret"}
    }));
    let admin = ["read:vault", "admin:config", "admin:metrics", "read:notes"];
    let bound = caller("tenant", &admin, Some("other"));
    let call = |who: &Caller, tool: &str| fx.call(who, tool, json!({})).result.unwrap();

    let all = fx.ok("list_vaults", json!({}));
    assert_eq!(all["total_count"], 2);
    assert_eq!(
        all["items"][0],
        json!({"id": "main", "default": true, "acl": false, "read_only": false})
    );
    let own = call(&bound, "list_vaults");
    assert_eq!(own["total_count"], 1);
    assert_eq!(own["items"][0]["id"], "other");

    assert_eq!(call(&bound, "get_vault")["id"], "other");
    assert_eq!(fx.ok("get_vault", json!({"vault": "other"}))["id"], "other");

    let config = call(&bound, "get_server_config");
    assert_eq!(config["vaults"].as_array().unwrap().len(), 1);
    assert_eq!(config["auth"]["jwtSecret"], "[redacted]");
    assert!(!config.to_string().contains("0123456789abcdef"));

    fx.write("main", "a.md", "x");
    fx.ok("read_note", json!({"path": "a.md"}));
    let metrics = call(&bound, "get_metrics");
    assert!(
        metrics["calls"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["vault"] == "other")
    );

    let health = call(&bound, "server_health");
    assert_eq!(health["vaults"], 1);
    assert_eq!(health["store"]["ok"], true);
    assert_eq!(health["version"], env!("CARGO_PKG_VERSION"));
    fx.clock.advance(5_000);
    assert_eq!(fx.ok("server_health", json!({}))["uptime_seconds"], 5);
}
