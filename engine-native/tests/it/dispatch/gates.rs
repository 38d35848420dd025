//! Gates 1-6 through real tools: lookup and visibility, validation, scopes, vault binding,
//! the read-only kill switch; plus the registry's derived annotations and schemas.

mod codes;
mod concurrency;
mod crash;
mod paths;

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::runtime::Visibility;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, assert_known_keywords, caller, claimless_token_caller};

#[test]
fn unknown_hidden_and_disabled_tools_all_answer_not_found() {
    let fx = Fixture::new(json!({
        "toolVisibility": {"hide": ["list_vaults"], "disable": ["get_vault"]}
    }));
    let unknown = fx.err("no_such_tool", json!({}), ErrorCode::NotFound);
    let hidden = fx.err("list_vaults", json!({}), ErrorCode::NotFound);
    let disabled = fx.err("get_vault", json!({}), ErrorCode::NotFound);
    assert_eq!(unknown.message, "no tool named 'no_such_tool'");
    assert_eq!(hidden.message, "no tool named 'list_vaults'");
    assert_eq!(disabled.details, json!({"name": "get_vault"}));
    let listed: Vec<&str> = fx
        .server
        .runtime()
        .registry()
        .visible_tools(&Caller::stdio())
        .iter()
        .map(|tool| tool.name())
        .collect();
    assert!(!listed.contains(&"list_vaults") && !listed.contains(&"get_vault"));
    assert!(listed.contains(&"read_note"));
}

#[test]
fn read_only_profile_and_allow_list_remove_tools() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "toolVisibility": {"profile": "readOnly", "allow": ["read_note", "delete_note", "inspect_visibility"]}
    }));
    fx.err("delete_note", json!({"path": "a.md"}), ErrorCode::NotFound);
    fx.err("server_health", json!({}), ErrorCode::NotFound);
    let report = |name: &str| fx.ok("inspect_visibility", json!({"name": name}));
    assert_eq!(report("read_note")["status"], "listed");
    assert_eq!(report("delete_note")["status"], "disabled");
    assert_eq!(report("server_health")["status"], "hidden");
    assert_eq!(report("nope")["status"], "unregistered");
}

#[test]
fn scope_denied_tools_are_unlisted_but_answer_forbidden_with_required() {
    let fx = Fixture::new(json!({}));
    let reader = caller("alice", &["read:notes"], None);
    assert_eq!(
        fx.server
            .runtime()
            .registry()
            .visibility("delete_note", &reader),
        Visibility::ScopeDenied {
            missing: vec![engine_core::acl::Scope::parse("delete:notes").unwrap()]
        }
    );
    let error = fx.err_as(
        &reader,
        "delete_note",
        json!({"path": "a.md"}),
        ErrorCode::Forbidden,
    );
    assert_eq!(error.details["required"], json!(["delete:notes"]));
    assert_eq!(error.details["missing"], json!(["delete:notes"]));
}

#[test]
fn validation_lists_every_issue_with_its_path() {
    let fx = Fixture::new(json!({}));
    let error = fx.err(
        "read_note",
        json!({"paht": "a.md"}),
        ErrorCode::ValidationError,
    );
    let paths: Vec<&str> = error.details["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|issue| issue["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["path", "paht"], "{error}");
    let error = fx.err(
        "read_note",
        json!({"path": 7, "vault": ""}),
        ErrorCode::ValidationError,
    );
    let issues = error.details["issues"].as_array().unwrap();
    assert_eq!(issues.len(), 2, "{error}");
    assert_eq!(issues[0]["path"], "path");
    assert_eq!(issues[0]["message"], "expected string, found integer 7");
    assert_eq!(issues[1]["pointer"], "/vault");
    fx.err("read_note", json!([1]), ErrorCode::ValidationError);
    fx.err(
        "delete_note",
        json!({"path": "a.md", "expected_sha256": "short"}),
        ErrorCode::ValidationError,
    );
}

#[test]
fn vault_binding_and_unknown_vaults() {
    let fx = Fixture::new(json!({}));
    fx.write("main", "a.md", "in main");
    fx.write("other", "a.md", "in other");
    let bound = caller("bob", &["read:notes", "read:vault"], Some("other"));
    let error = fx.err_as(
        &bound,
        "read_note",
        json!({"path": "a.md", "vault": "main"}),
        ErrorCode::Forbidden,
    );
    assert_eq!(
        error.details,
        json!({"bound_vault": "other", "vault": "main"})
    );
    // Without a vault argument, a bound caller lands in its own vault.
    let read = fx.call(&bound, "read_note", json!({"path": "a.md"}));
    assert_eq!(read.result.unwrap()["content"], "in other");
    assert_eq!(read.vault.as_deref(), Some("other"));
    // Unbound callers default to the first vault.
    assert_eq!(
        fx.ok("read_note", json!({"path": "a.md"}))["content"],
        "in main"
    );
    fx.err(
        "read_note",
        json!({"path": "a.md", "vault": "nope"}),
        ErrorCode::NotFound,
    );
    // A bound caller naming a vault that does not exist learns nothing about it.
    fx.err_as(
        &bound,
        "read_note",
        json!({"path": "a.md", "vault": "nope"}),
        ErrorCode::Forbidden,
    );
}

/// Vaults `main` and `other` (with `extra` in the config), each with an `a.md` naming it.
fn two_vaults(extra: Value) -> Fixture {
    let fx = Fixture::new(extra);
    fx.write("main", "a.md", "in main");
    fx.write("other", "a.md", "in other");
    fx
}

/// What `read_note` of `a.md` answers `who` (in `vault`, or the one it lands in).
fn read_a(fx: &Fixture, who: &Caller, vault: Option<&str>) -> Result<Value, ErrorCode> {
    let mut args = json!({"path": "a.md"});
    if let Some(vault) = vault {
        args["vault"] = json!(vault);
    }
    match fx.call(who, "read_note", args).result {
        Ok(read) => Ok(read["content"].clone()),
        Err(error) => Err(error.code),
    }
}

/// The ids `list_vaults` shows `who`.
fn vault_ids(fx: &Fixture, who: &Caller) -> Vec<Value> {
    let listed = fx
        .call(who, "list_vaults", json!({}))
        .result
        .expect("list_vaults");
    listed["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|vault| vault["id"].clone())
        .collect()
}

#[test]
fn a_token_without_a_vault_claim_is_bound_to_the_default_vault() {
    let claimless = claimless_token_caller("carol", &["read:notes", "read:vault"]);
    let stdio = Caller::stdio();
    // The default vault is the first one; stdio is not bound.
    let fx = two_vaults(json!({}));
    let outcome = fx.call(
        &claimless,
        "read_note",
        json!({"path": "a.md", "vault": "other"}),
    );
    let details = outcome.result.expect_err("refused").details;
    assert_eq!(details, json!({"bound_vault": "main", "vault": "other"}));
    assert_eq!(read_a(&fx, &claimless, None), Ok(json!("in main")));
    assert_eq!(vault_ids(&fx, &claimless), [json!("main")]);
    assert_eq!(read_a(&fx, &stdio, Some("other")), Ok(json!("in other")));
    assert_eq!(vault_ids(&fx, &stdio).len(), 2);
    // `defaultVault` (OBSIDIAN_TC_DEFAULT_VAULT) names another one: every default follows.
    let fx = two_vaults(json!({"defaultVault": "other"}));
    assert_eq!(
        read_a(&fx, &claimless, Some("main")),
        Err(ErrorCode::Forbidden)
    );
    assert_eq!(read_a(&fx, &claimless, None), Ok(json!("in other")));
    assert_eq!(read_a(&fx, &stdio, None), Ok(json!("in other")));
    assert_eq!(vault_ids(&fx, &claimless), [json!("other")]);
    // It is ignored when it names no vault.
    let fx = two_vaults(json!({"defaultVault": "nope"}));
    assert_eq!(read_a(&fx, &claimless, None), Ok(json!("in main")));
    assert_eq!(vault_ids(&fx, &claimless), [json!("main")]);
}

#[test]
fn unbound_tokens_all_vaults_restores_every_vault_to_a_claimless_token() {
    let fx = two_vaults(json!({"auth": {"unboundTokensAllVaults": true}}));
    let claimless = claimless_token_caller("carol", &["read:notes", "read:vault"]);
    assert_eq!(
        read_a(&fx, &claimless, Some("other")),
        Ok(json!("in other"))
    );
    assert_eq!(vault_ids(&fx, &claimless).len(), 2);
    // A claim still binds.
    let bound = caller("bob", &["read:notes"], Some("main"));
    assert_eq!(
        read_a(&fx, &bound, Some("other")),
        Err(ErrorCode::Forbidden)
    );
}

#[test]
fn read_only_vault_refuses_mutating_tools_before_anything_else() {
    let fx = Fixture::new(json!({"acl": {"readOnly": true}}));
    fx.write("main", "a.md", "keep");
    let error = fx.err(
        "delete_note",
        json!({"path": "a.md"}),
        ErrorCode::ReadOnlyMode,
    );
    assert_eq!(error.details["vault"], "main");
    assert!(fx.pending_elicits(None).is_empty());
    assert!(fx.exists("main", "a.md"));
    assert_eq!(
        fx.ok("read_note", json!({"path": "a.md"}))["content"],
        "keep"
    );
}

#[test]
fn annotations_follow_the_gate_predicates() {
    let fx = Fixture::new(json!({}));
    let registry = fx.server.runtime().registry();
    let hints = |name: &str| registry.get(name).unwrap().annotations();
    assert!(hints("read_note").read_only_hint && !hints("read_note").destructive_hint);
    assert!(!hints("delete_note").read_only_hint && hints("delete_note").destructive_hint);
    assert!(registry.get("delete_note").unwrap().needs_confirmation());
    assert!(!registry.get("read_note").unwrap().needs_confirmation());
    assert!(
        registry
            .tools()
            .all(|tool| !tool.annotations().open_world_hint)
    );
}

#[test]
fn every_tool_schema_is_a_closed_object_the_validator_understands() {
    let fx = Fixture::new(json!({}));
    for tool in fx.server.runtime().registry().tools() {
        let schema = &tool.def.input_schema;
        assert_eq!(schema["type"], "object", "{}", tool.name());
        assert_eq!(schema["additionalProperties"], false, "{}", tool.name());
        assert_known_keywords(schema);
        let has_vault = schema["properties"].get("vault").is_some();
        assert_eq!(has_vault, tool.def.vault_arg, "{}", tool.name());
    }
}
