//! The vault registry tools over a real dispatcher: `reload_vault` re-reads the config file and
//! swaps vaults, ACLs and tool visibility for later calls (a broken config changes nothing);
//! `reset_vault_cache` is HITL-gated and drops exactly one vault's cache rows; every admin and
//! vault tool's result fits its declared output schema.

use std::sync::Arc;

use obsidian_tc::auth::Caller;
use obsidian_tc::config::{ConfigOrigin, LoadInput, load};
use obsidian_tc::dispatch::Dispatcher;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::runtime::ManualClock;
use obsidian_tc::schema::validate::schema_problems;
use serde_json::{Value, json};

use crate::support::cache_home::cache_env;
use crate::support::dispatch::{Fixture, START_MS, caller};
use crate::support::store::{seed_vault_rows, vault_rows};

/// Vaults `main` and `other`, throttle off (admin calls have a burst of one).
fn fixture() -> Fixture {
    Fixture::new(json!({"throttle": {"enabled": false}}))
}

/// Rewrites the fixture's config file with `config` (throttle and embeddings off, as the
/// fixture's own).
fn write_config(fx: &Fixture, mut config: Value) {
    config["throttle"] = json!({"enabled": false});
    config["embeddings"] = json!({"provider": "none"});
    std::fs::write(fx.dir.path().join("config.json"), config.to_string()).expect("config file");
}

fn ids(value: &Value) -> Vec<&str> {
    value["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["id"].as_str().expect("id"))
        .collect()
}

#[test]
fn reload_adds_removes_and_changes_vaults_for_the_next_call() {
    let fx = fixture();
    std::fs::create_dir_all(fx.dir.path().join("third")).expect("vault folder");
    fx.write("main", "a.md", "alpha\n");
    write_config(
        &fx,
        json!({
            "vaults": [
                {"id": "main", "path": "main", "acl": {"readOnly": true}},
                {"id": "third", "path": "third"}
            ]
        }),
    );
    let before = fx.server.runtime().served();

    let report = fx.ok("reload_vault", json!({}));
    assert_eq!(report["added"], json!(["third"]));
    assert_eq!(report["removed"], json!(["other"]));
    assert_eq!(report["changed"], json!(["main"]));
    assert_eq!(report["zero_config"], json!(false));
    assert_eq!(report["tool_visibility_changed"], json!(false));
    assert_eq!(report["restart_required"], json!([]));

    assert_eq!(ids(&fx.ok("list_vaults", json!({}))), ["main", "third"]);
    fx.err("get_vault", json!({"vault": "other"}), ErrorCode::NotFound);
    let main = fx.ok("get_vault", json!({"vault": "main"}));
    assert_eq!(main["read_only"], json!(true));
    fx.err(
        "delete_note",
        json!({"path": "a.md"}),
        ErrorCode::ReadOnlyMode,
    );
    assert!(fx.exists("main", "a.md"));
    // What a call took before the reload stays as it was.
    assert_eq!(
        before
            .vaults()
            .iter()
            .map(|v| v.id.as_str())
            .collect::<Vec<_>>(),
        ["main", "other"]
    );
    assert!(!before.vault("main").expect("main").read_only);
}

#[test]
fn reload_applies_tool_visibility_and_moves_the_tool_list_generation() {
    let fx = fixture();
    let mut generations = fx.server.runtime().watch_tool_list();
    write_config(
        &fx,
        json!({
            "vaults": [{"id": "main", "path": "main"}, {"id": "other", "path": "other"}],
            "toolVisibility": {"hide": ["get_metrics"]}
        }),
    );
    let report = fx.ok("reload_vault", json!({}));
    assert_eq!(report["tool_visibility_changed"], json!(true));
    assert!(generations.has_changed().expect("sender alive"));
    assert_eq!(*generations.borrow_and_update(), 1);
    fx.err("get_metrics", json!({}), ErrorCode::NotFound);

    // Reloading the same file again changes nothing and leaves the generation alone.
    let again = fx.ok("reload_vault", json!({}));
    assert_eq!(again["tool_visibility_changed"], json!(false));
    assert_eq!(again["changed"], json!([]));
    assert!(!generations.has_changed().expect("sender alive"));
}

#[test]
fn reload_reports_keys_that_need_a_restart() {
    let fx = fixture();
    write_config(
        &fx,
        json!({
            "vaults": [{"id": "main", "path": "main"}, {"id": "other", "path": "other"}],
            "idempotencyTtlSeconds": 60,
            "elicitTtlSeconds": 30
        }),
    );
    let report = fx.ok("reload_vault", json!({}));
    assert_eq!(report["restart_required"], json!(["idempotencyTtlSeconds"]));
    assert_eq!(fx.server.runtime().config().config.elicit_ttl_seconds, 30);
}

#[test]
fn a_broken_config_changes_nothing_and_names_the_path() {
    let fx = fixture();
    write_config(
        &fx,
        json!({
            "vaults": [{"id": "main", "path": "main"}, {"id": "bad id!", "path": "other"}],
            "toolVisibility": {"hide": ["get_metrics"]}
        }),
    );
    let error = fx.err("reload_vault", json!({}), ErrorCode::ValidationError);
    assert!(error.message.contains("vaults[1].id"), "{}", error.message);
    assert_eq!(error.details["paths"], json!(["vaults[1].id"]));
    assert_eq!(ids(&fx.ok("list_vaults", json!({}))), ["main", "other"]);
    fx.ok("get_metrics", json!({}));

    std::fs::write(fx.dir.path().join("config.json"), "{ not json").expect("write");
    let error = fx.err("reload_vault", json!({}), ErrorCode::ValidationError);
    assert!(
        error.message.contains("not valid JSON"),
        "{}",
        error.message
    );

    // A vault folder that does not exist: refused at its path, nothing changes.
    write_config(
        &fx,
        json!({"vaults": [{"id": "main", "path": "main"}, {"id": "gone", "path": "gone"}]}),
    );
    let error = fx.err("reload_vault", json!({}), ErrorCode::ValidationError);
    assert_eq!(error.details["paths"], json!(["vaults[1].path"]));
    assert_eq!(ids(&fx.ok("list_vaults", json!({}))), ["main", "other"]);
}

#[test]
fn a_vault_bound_caller_cannot_reload_and_scopes_apply() {
    let fx = fixture();
    let bound = caller("alice", &["admin:vault"], Some("main"));
    fx.err_as(&bound, "reload_vault", json!({}), ErrorCode::Forbidden);
    let reader = caller("bob", &["read:vault"], None);
    fx.err_as(&reader, "reload_vault", json!({}), ErrorCode::Forbidden);
}

/// A server started on the bare folder `vault` (no config file), its cache under `cache`.
fn zero_config_server(vault: &std::path::Path, cache: &std::path::Path) -> Dispatcher {
    let loaded = load(&LoadInput {
        origin: ConfigOrigin::VaultFolder(vault.to_path_buf()),
        env: cache_env(cache),
        overrides: Vec::new(),
    })
    .expect("zero-config");
    Dispatcher::new(loaded, Arc::new(ManualClock::new(START_MS))).expect("dispatcher")
}

#[test]
fn a_zero_config_server_reopens_its_vault_folder() {
    let vault = tempfile::tempdir().expect("vault");
    let cache = tempfile::tempdir().expect("cache home");
    let server = zero_config_server(vault.path(), cache.path());
    let report = server
        .call(&Caller::stdio(), "reload_vault", json!({}))
        .result
        .expect("reloaded");
    assert_eq!(report["zero_config"], json!(true));
    assert!(
        report["message"]
            .as_str()
            .expect("message")
            .contains("re-opened")
    );
    assert_eq!(report["added"], json!([]));
}

#[test]
fn reset_vault_cache_needs_a_human_then_drops_only_that_vaults_rows() {
    let fx = fixture();
    fx.write("main", "kept.md", "still here\n");
    seed_vault_rows(fx.server.runtime().store(), "main", fx.now_s());
    seed_vault_rows(fx.server.runtime().store(), "other", fx.now_s());
    let args = json!({"vault": "main"});
    let gated = fx.call(&Caller::stdio(), "reset_vault_cache", args.clone());
    let error = gated.result.expect_err("destructive: HITL");
    assert_eq!(error.code, ErrorCode::ElicitRequired);
    let (other_events, _) = vault_rows(fx.server.runtime().store(), "other", fx.now_s());

    fx.approve(&gated.args_hash);
    let result = fx.ok("reset_vault_cache", args);
    assert_eq!(result["vault"], json!("main"));
    let deleted = &result["deleted"];
    assert_eq!(deleted["idempotency_keys"], json!(1));
    // The seeded pending request, the gate's own request (approved and consumed) .
    assert_eq!(deleted["elicit_tokens"], json!(2));
    // The seeded event and the audit row of the gated call.
    assert_eq!(deleted["event_log"], json!(2));
    assert_eq!(deleted["notes"], json!(0));

    // The other vault keeps its rows; the vault's files are untouched.
    let store = fx.server.runtime().store();
    assert_eq!(vault_rows(store, "other", fx.now_s()), (other_events, 1));
    assert!(fx.exists("main", "kept.md"));
    // Only the reset call's own audit row is left for main.
    let main_events = store.events().recent(Some("main"), 100).expect("events");
    assert_eq!(main_events.len(), 1);
    assert_eq!(main_events[0].event.tool, "reset_vault_cache");
}

#[test]
fn every_admin_and_vault_result_fits_its_output_schema() {
    let fx = Fixture::new(json!({"acl": {"readPaths": ["**"]}, "throttle": {"enabled": false}}));
    let registry = fx.server.runtime().registry();
    let calls = [
        ("server_health", json!({})),
        ("list_vaults", json!({})),
        ("get_vault", json!({"vault": "other"})),
        ("get_server_config", json!({})),
        ("inspect_acl", json!({"path": "a.md", "op": "write"})),
        ("inspect_visibility", json!({"name": "delete_note"})),
        ("inspect_visibility", json!({"name": "no_such_tool"})),
        ("get_metrics", json!({})),
        ("reload_vault", json!({})),
    ];
    let narrow = caller("carol", &["read:vault", "admin:acl"], None);
    for (name, args) in calls {
        let schema = registry
            .get(name)
            .and_then(|tool| tool.def.output_schema.clone())
            .unwrap_or_else(|| panic!("{name} declares an output schema"));
        assert_eq!(schema["type"], json!("object"), "{name}");
        let trusted = fx.ok(name, args.clone());
        let problems = schema_problems(&trusted, &schema);
        assert!(problems.is_empty(), "{name}: {problems:?}\n{trusted}");
        match fx.call(&narrow, name, args).result {
            Ok(result) => {
                let problems = schema_problems(&result, &schema);
                assert!(problems.is_empty(), "{name}: {problems:?}\n{result}");
            }
            Err(error) => assert_eq!(error.code, ErrorCode::Forbidden, "{name}: {error}"),
        }
    }
    let reset = registry.get("reset_vault_cache").expect("registered");
    assert!(reset.def.output_schema.is_some());
    assert!(reset.annotations().destructive_hint);
    assert!(reset.needs_confirmation());
    let reload = registry.get("reload_vault").expect("registered");
    assert!(!reload.annotations().destructive_hint);
}

#[test]
fn a_reload_with_another_acl_ranks_with_the_new_view_at_once() {
    let fx = fixture();
    fx.write("main", "Public/a.md", "the merger of two clubs\n");
    for i in 0..20 {
        fx.write("main", &format!("Secret/{i}.md"), "merger plans\n");
    }
    fx.ok("index_vault", json!({}));
    let score = |fx: &Fixture| {
        let found = fx.ok(
            "search_vault",
            json!({"query": "merger", "mode": "lexical", "limit": 50}),
        );
        let results = found["results"].as_array().expect("results").clone();
        let public = results
            .iter()
            .find(|hit| hit["path"] == "Public/a.md")
            .and_then(|hit| hit["score"].as_f64())
            .expect("the public note");
        (public, results.len(), found["coverage"]["chunks"].clone())
    };
    let (open, shown, chunks) = score(&fx);
    assert_eq!((shown, chunks), (21, json!(21)));
    write_config(
        &fx,
        json!({
            "vaults": [{"id": "main", "path": "main", "acl": {"readPaths": ["Public/**"]}},
                       {"id": "other", "path": "other"}]
        }),
    );
    fx.ok("reload_vault", json!({}));
    let (narrowed, shown, chunks) = score(&fx);
    assert_eq!((shown, chunks), (1, json!(1)));
    assert!(
        narrowed > open,
        "the kept view of the old ACL was not reused"
    );
}

mod add;
