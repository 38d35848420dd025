//! RFC 8785 JSON Canonicalization Scheme (JCS) and the `args_hash` built on it.

use alloc::string::String;

use serde_json::Value;

use super::HashError;
use super::json_text::{write_string, write_value};
use super::key_order::KeyOrder;
use super::sha256::to_hex;

use sha2::{Digest, Sha256};

/// Hex characters kept of the SHA-256 in [`args_hash`] (128 bits).
const ARGS_HASH_HEX_LEN: usize = 32;

/// The RFC 8785 canonical form of `value`: no insignificant whitespace, object members sorted
/// by the UTF-16 code units of their names, strings escaped as ECMAScript `JSON.stringify`
/// does, numbers printed as ECMAScript `Number::toString`.
///
/// Numbers are IEEE-754 doubles, as in JavaScript: an integer beyond ±2^53 is written as the
/// nearest double (`9007199254740993` becomes `9007199254740992`, `u64::MAX` becomes
/// `18446744073709552000`), and `-0` as `0`.
pub fn canonical_json(value: &Value) -> Result<String, HashError> {
    let mut out = String::new();
    write_value(value, KeyOrder::Rfc8785, &mut out)?;
    Ok(out)
}

/// The hash that binds idempotency keys, elicit tokens and log rows to one tool call: the
/// first 32 lowercase hex characters of the SHA-256 of the canonical JSON (RFC 8785, see
/// [`canonical_json`]) of the two-element array `[tool_name, args]`.
///
/// Framing the pair as a JSON array keeps it unambiguous: no choice of name and arguments can
/// produce the bytes of another pair.
pub fn args_hash(tool_name: &str, args: &Value) -> Result<String, HashError> {
    let mut text = String::from("[");
    write_string(tool_name, &mut text);
    text.push(',');
    write_value(args, KeyOrder::Rfc8785, &mut text)?;
    text.push(']');
    let digest = Sha256::digest(text.as_bytes());
    let mut hex = to_hex(&digest);
    hex.truncate(ARGS_HASH_HEX_LEN);
    Ok(hex)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rfc8785_section_3_2_2_example() {
        let value: Value = serde_json::from_str(
            r#"{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/","literals":[null,true,false]}"#,
        )
        .unwrap();
        assert_eq!(
            canonical_json(&value).unwrap(),
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
    }

    #[test]
    fn args_hash_is_the_prefix_of_the_framed_sha256() {
        let args = json!({"path": "a.md"});
        let framed = super::super::sha256::sha256_hex(br#"["read_note",{"path":"a.md"}]"#);
        assert_eq!(args_hash("read_note", &args).unwrap(), framed[..32]);
    }

    #[test]
    fn framing_separates_name_and_args() {
        assert_ne!(
            args_hash("a", &json!("b")),
            args_hash("a\",\"b", &Value::Null)
        );
        assert_ne!(
            args_hash("read_note", &json!({})),
            args_hash("read_note", &Value::Null)
        );
    }
}
