//! The tool error model: wire names, defaults, the wire shape and the gate constructors.

use engine_core::acl::{AclConfig, AclOp, AclPolicy, PathError, Scope, ScopeFamily};
use obsidian_tc::errors::{ErrorCode, ToolError};
use obsidian_tc::throttle::ThrottleTier;
use serde_json::{Value, json};

fn scopes(list: &[&str]) -> Vec<Scope> {
    list.iter()
        .map(|s| Scope::parse(s).expect("scope"))
        .collect()
}

#[test]
fn every_code_has_a_unique_snake_case_wire_name_that_serde_agrees_with() {
    let mut seen = std::collections::HashSet::new();
    for code in ErrorCode::ALL {
        let name = code.as_str();
        assert!(seen.insert(name), "duplicate wire name {name}");
        assert!(name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
        assert_eq!(serde_json::to_value(code).expect("serialize"), json!(name));
        let back: ErrorCode = serde_json::from_value(json!(name)).expect("deserialize");
        assert_eq!(back, code);
        assert_eq!(code.to_string(), name);
        assert!(!code.default_recovery().is_empty());
    }
    for name in [
        "not_found",
        "validation_error",
        "unauthorized",
        "forbidden",
        "read_only_mode",
        "acl_denied",
        "path_invalid",
        "elicit_required",
        "elicit_invalid",
        "aborted",
        "idempotency_in_flight",
        "idempotency_key_mismatch",
        "indeterminate",
        "throttled",
        "overflow",
        "compute_budget_exceeded",
        "concurrent_modification",
        "already_exists",
        "invalid_input",
        "internal",
        "embedding_provider_error",
        "index_busy",
        "plugin_missing",
        "plugin_unreachable",
    ] {
        assert!(seen.contains(name), "missing code {name}");
    }
    assert!(serde_json::from_value::<ErrorCode>(json!("rate_limit")).is_err());
}

#[test]
fn only_waiting_rereading_provider_or_plugin_codes_are_retryable() {
    let retryable: Vec<&str> = ErrorCode::ALL
        .into_iter()
        .filter(|c| c.default_retryable())
        .map(ErrorCode::as_str)
        .collect();
    assert_eq!(
        retryable,
        [
            "idempotency_in_flight",
            "throttled",
            "concurrent_modification",
            "embedding_provider_error",
            "index_busy",
            "file_busy",
            "plugin_unreachable",
            "model_error"
        ]
    );
}

#[test]
fn structured_content_has_exactly_the_wire_shape() {
    let error = ToolError::new(ErrorCode::AlreadyExists, "'Inbox/a.md' already exists");
    let wire = error.to_structured();
    assert_eq!(
        wire,
        json!({
            "code": "already_exists",
            "message": "'Inbox/a.md' already exists",
            "retryable": false,
            "recovery": ErrorCode::AlreadyExists.default_recovery(),
            "details": {},
        })
    );
    let back: ToolError = serde_json::from_value(wire).expect("round trip");
    assert_eq!(back, error);
}

#[test]
fn text_rendering_carries_code_message_recovery_and_details() {
    let plain = ToolError::new(ErrorCode::Internal, "disk on fire");
    assert_eq!(
        plain.to_text(),
        format!(
            "internal: disk on fire\nretryable: false\nrecovery: {}",
            ErrorCode::Internal.default_recovery()
        )
    );
    let detailed = ToolError::acl_denied("Private/x.md", AclOp::Read);
    let text = detailed.to_text();
    assert!(text.starts_with("acl_denied: "), "{text}");
    assert!(
        text.ends_with(r#"details: {"op":"read","path":"Private/x.md"}"#),
        "{text}"
    );
}

#[test]
fn throttled_carries_the_class_the_exact_wait_and_the_tier() {
    let tier = ThrottleTier::new(60, 20).expect("tier");
    let error = ToolError::throttled(ScopeFamily::Write, 1_001, tier);
    assert_eq!(error.code, ErrorCode::Throttled);
    assert!(error.retryable);
    assert_eq!(
        error.details,
        json!({
            "scope_class": "write",
            "retry_after_seconds": 2,
            "retry_after_ms": 1001,
            "current_burst": 20,
            "current_rate": 60,
        })
    );
    assert_eq!(error.recovery, "wait retry_after_seconds (2 s), then retry");
    let exact = ToolError::throttled(ScopeFamily::Write, 3_000, tier);
    assert_eq!(exact.details["retry_after_seconds"], 3);
}

#[test]
fn elicit_required_names_the_hash_to_approve_and_mints_nothing() {
    let hash = "0123456789abcdef0123456789abcdef";
    let change = json!({"path": "a.md", "action": "delete"});
    let error = ToolError::elicit_required(hash, "delete_note", change.clone());
    assert_eq!(error.code, ErrorCode::ElicitRequired);
    assert!(!error.retryable);
    assert_eq!(
        error.details,
        json!({"args_hash": hash, "tool": "delete_note", "proposed_change": change})
    );
    assert_eq!(
        error.recovery,
        format!(
            "ask the user to approve with `obsidian-tc elicit approve {hash}` and call again with the same arguments"
        )
    );
    assert!(error.details.get("token").is_none());
}

#[test]
fn forbidden_lists_required_and_missing_scopes() {
    let required = scopes(&["read:notes", "write:notes"]);
    let error = ToolError::forbidden_scopes(&required, &scopes(&["read"]));
    assert_eq!(error.code, ErrorCode::Forbidden);
    assert_eq!(
        error.details,
        json!({"required": ["read:notes", "write:notes"], "missing": ["write:notes"]})
    );
    assert!(error.message.contains("write:notes"));
    let bound = ToolError::forbidden_vault("work", "home");
    assert_eq!(
        bound.details,
        json!({"bound_vault": "work", "vault": "home"})
    );
}

#[test]
fn overflow_reports_size_limit_and_a_hint() {
    let error = ToolError::overflow(1_000_001, 1_000_000);
    assert_eq!(error.code, ErrorCode::Overflow);
    assert_eq!(error.details["size"], 1_000_001);
    assert_eq!(error.details["limit"], 1_000_000);
    let hint = error.details["hint"].as_str().expect("hint");
    for word in ["narrower range", "smaller limit", "section"] {
        assert!(hint.contains(word), "{hint}");
    }
}

fn denial(config: Value, path: &str, op: AclOp, granted: &[&str]) -> ToolError {
    let config: AclConfig = serde_json::from_value(config).expect("acl config");
    let policy = AclPolicy::compile(&config).expect("policy");
    let decision = policy.evaluate(path, op, &scopes(granted));
    assert!(!decision.allowed);
    ToolError::from_acl_denial(path, &decision)
}

#[test]
fn acl_denials_map_to_the_shipped_codes() {
    let outside = denial(
        json!({"writePaths": ["Inbox/**"]}),
        "Journal/a.md",
        AclOp::Write,
        &["*"],
    );
    assert_eq!(outside.code, ErrorCode::AclDenied);
    assert_eq!(outside.details["path"], "Journal/a.md");
    assert_eq!(outside.details["op"], "write");
    assert_eq!(outside.details["denied_by"], "not_in_write_paths");

    let hard = denial(json!({}), ".obsidian/app.json", AclOp::Read, &["*"]);
    assert_eq!(hard.code, ErrorCode::AclDenied);
    assert_eq!(hard.details["denied_by"], "hard_deny");

    let read_only = denial(json!({"readOnly": true}), "a.md", AclOp::Delete, &["*"]);
    assert_eq!(read_only.code, ErrorCode::ReadOnlyMode);
    assert_eq!(read_only.details, json!({"path": "a.md", "op": "delete"}));

    let escape = denial(json!({}), "../secrets.md", AclOp::Read, &["*"]);
    assert_eq!(escape.code, ErrorCode::PathInvalid);
    assert_eq!(escape.details["path"], "../secrets.md");

    let rule = denial(
        json!({"rules": [{"glob": "Finance/**", "scopes": ["read:finance"]}]}),
        "Finance/q1.md",
        AclOp::Read,
        &["read:notes"],
    );
    assert_eq!(rule.code, ErrorCode::AclDenied);
    assert_eq!(rule.details["missing"], json!(["read:finance"]));
}

#[test]
fn path_invalid_names_the_reason() {
    let error = ToolError::path_invalid("/etc/passwd", PathError::Absolute);
    assert_eq!(error.code, ErrorCode::PathInvalid);
    assert_eq!(error.details["reason"], json!(PathError::Absolute));
}

#[test]
fn builders_override_recovery_and_details() {
    let error = ToolError::new(ErrorCode::ConcurrentModification, "note changed")
        .with_details(json!({"expected_sha256": "aa", "actual_sha256": "bb"}))
        .with_recovery("re-read a.md, then retry");
    assert!(error.retryable);
    assert_eq!(error.recovery, "re-read a.md, then retry");
    assert_eq!(error.to_structured()["details"]["actual_sha256"], "bb");
}
