//! The published schema is the one the Rust types generate, and the validator understands it.

use std::path::PathBuf;

use obsidian_tc::config::{SCHEMA_FILE, config_schema, config_schema_text};

use crate::support::dispatch::assert_known_keywords;

fn published() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(SCHEMA_FILE)
}

#[test]
fn committed_schema_is_current() {
    let generated = config_schema_text();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(published(), &generated).expect("write the schema file");
    }
    let committed = std::fs::read_to_string(published()).unwrap_or_default();
    assert!(
        committed == generated,
        "{SCHEMA_FILE} is stale: run `BLESS=1 cargo test -p obsidian-tc --test it config::schema`"
    );
}

#[test]
fn schema_is_2020_12_with_the_original_key_names() {
    let schema = config_schema();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let keys: Vec<&str> = schema["properties"]
        .as_object()
        .expect("root properties")
        .keys()
        .map(String::as_str)
        .collect();
    for key in [
        "vaults",
        "acl",
        "auth",
        "transports",
        "governor",
        "toolVisibility",
        "toolFacade",
        "throttle",
        "idempotencyTtlSeconds",
        "idempotencyReclaimSeconds",
        "elicitTtlSeconds",
        "cacheDir",
        "embeddings",
    ] {
        assert!(keys.contains(&key), "{key} missing from {keys:?}");
    }
}

#[test]
fn validator_knows_every_keyword_the_schema_uses() {
    assert_known_keywords(&config_schema());
}

#[test]
fn acl_schema_lists_exactly_the_fields_of_acl_config() {
    use engine_core::acl::{AclConfig, AclRule};
    let full = AclConfig {
        read_only: true,
        read_paths: Some(vec!["a/**".into()]),
        write_paths: Some(vec![]),
        delete_paths: Some(vec![]),
        strict_read_default: true,
        default_scopes: vec!["read:notes".into()],
        rules: vec![AclRule {
            glob: "b/**".into(),
            scopes: vec![],
        }],
    };
    let serialized = serde_json::to_value(&full).expect("serialize");
    let schema = config_schema();
    let acl = &schema["$defs"]["AclConfig"];
    let mut from_serde: Vec<&String> = serialized.as_object().expect("object").keys().collect();
    let mut from_schema: Vec<&String> = acl["properties"]
        .as_object()
        .expect("props")
        .keys()
        .collect();
    from_serde.sort();
    from_schema.sort();
    assert_eq!(from_serde, from_schema);
    assert_eq!(acl["additionalProperties"], false);
    let rule = serde_json::to_value(&full.rules[0]).expect("rule");
    let mut rule_keys: Vec<&String> = rule.as_object().expect("rule").keys().collect();
    rule_keys.sort();
    let rule_schema: Vec<&String> = acl["properties"]["rules"]["items"]["properties"]
        .as_object()
        .expect("rule props")
        .keys()
        .collect();
    assert_eq!(rule_keys, rule_schema);
}
