//! The byte governor: exact serialized sizes, at, below and above the limit.

use obsidian_tc::errors::ErrorCode;
use obsidian_tc::governor::{DEFAULT_MAX_RESPONSE_BYTES, Governor, GovernorConfig, serialized_len};
use serde_json::{Value, json};

fn governor(limit: usize) -> Governor {
    Governor::new(GovernorConfig {
        max_response_bytes: limit,
        ..GovernorConfig::default()
    })
}

/// A JSON string value whose serialization (with its two quotes) is exactly `bytes` long.
fn string_of_len(bytes: usize) -> Value {
    json!("x".repeat(bytes - 2))
}

#[test]
fn the_default_limit_is_one_million_bytes() {
    assert_eq!(DEFAULT_MAX_RESPONSE_BYTES, 1_000_000);
    assert_eq!(Governor::default().limit(), 1_000_000);
    let config: GovernorConfig = serde_json::from_value(json!({})).expect("empty block");
    assert_eq!(config.max_response_bytes, 1_000_000);
    let config: GovernorConfig =
        serde_json::from_value(json!({"maxResponseBytes": 42})).expect("block");
    assert_eq!(governor(config.max_response_bytes).limit(), 42);
}

#[test]
fn at_and_below_the_limit_pass_and_one_byte_over_is_refused() {
    let limit = 1_000_000;
    let g = governor(limit);
    assert!(g.check(&string_of_len(limit - 1)).is_ok());
    assert!(g.check(&string_of_len(limit)).is_ok());
    let refused = g.check(&string_of_len(limit + 1)).unwrap_err();
    assert_eq!(refused.code, ErrorCode::Overflow);
    assert!(!refused.retryable);
    assert_eq!(refused.details["size"], limit + 1);
    assert_eq!(refused.details["limit"], limit);
    assert!(
        refused.details["hint"]
            .as_str()
            .expect("hint")
            .contains("section")
    );
}

#[test]
fn bytes_are_checked_as_given() {
    let g = governor(4);
    assert!(g.check_bytes(b"1234").is_ok());
    assert_eq!(g.check_bytes(b"12345").unwrap_err().details["size"], 5);
    assert!(g.check_bytes(b"").is_ok());
}

#[test]
fn multi_byte_utf8_counts_bytes_not_characters() {
    // "é" is 2 bytes, "€" 3, "😀" 4: 3 characters, 9 bytes, 11 with the quotes.
    let value = json!("é€😀");
    assert_eq!(serialized_len(&value).expect("len"), 11);
    assert!(governor(11).check(&value).is_ok());
    assert_eq!(governor(10).check(&value).unwrap_err().details["size"], 11);
    assert!(governor(10).check_bytes("é€😀".as_bytes()).is_ok());
}

#[test]
fn the_measured_size_is_the_compact_serialization() {
    let value = json!({
        "items": [{"path": "a \"quoted\" note.md", "score": 0.5}, {"path": "b\n.md", "score": 1}],
        "cursor": null,
        "total_count": 2,
    });
    let text = serde_json::to_vec(&value).expect("serialize");
    assert_eq!(serialized_len(&value).expect("len"), text.len());
    let g = governor(text.len());
    assert_eq!(g.serialize(&value).expect("fits").into_bytes(), text);
    let tight = governor(text.len() - 1);
    assert_eq!(
        tight.serialize(&value).unwrap_err().details["size"],
        text.len()
    );
}
