//! Compact JSON text in the two dialects of [`KeyOrder`]: no whitespace, strings escaped
//! like ECMAScript's `JSON.stringify`, numbers like `Number::toString`.
//!
//! The writer keeps its own work stack instead of recursing, so arbitrarily deep values
//! (which a `serde_json::Value` built in code can be) cannot overflow the call stack.

use alloc::string::String;
use alloc::vec;

use serde_json::Value;

use super::HashError;
use super::key_order::KeyOrder;
use super::number::write_number;

/// One pending piece of output.
enum Step<'a> {
    Value(&'a Value),
    MemberName(&'a str),
    Text(&'static str),
}

/// Appends the compact JSON text of `value`, ordering object members by `order`.
pub(crate) fn write_value(
    value: &Value,
    order: KeyOrder,
    out: &mut String,
) -> Result<(), HashError> {
    let mut pending = vec![Step::Value(value)];
    while let Some(step) = pending.pop() {
        match step {
            Step::Text(text) => out.push_str(text),
            Step::MemberName(name) => {
                write_string(name, out);
                out.push(':');
            }
            Step::Value(Value::Null) => out.push_str("null"),
            Step::Value(Value::Bool(b)) => out.push_str(if *b { "true" } else { "false" }),
            Step::Value(Value::Number(n)) => write_number(n, out)?,
            Step::Value(Value::String(s)) => write_string(s, out),
            Step::Value(Value::Array(items)) => {
                out.push('[');
                pending.push(Step::Text("]"));
                for (i, item) in items.iter().enumerate().rev() {
                    pending.push(Step::Value(item));
                    if i > 0 {
                        pending.push(Step::Text(","));
                    }
                }
            }
            Step::Value(Value::Object(map)) => {
                out.push('{');
                pending.push(Step::Text("}"));
                for (i, (name, member)) in order.members(map).into_iter().enumerate().rev() {
                    pending.push(Step::Value(member));
                    pending.push(Step::MemberName(name));
                    if i > 0 {
                        pending.push(Step::Text(","));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Appends `s` as a JSON string the way `JSON.stringify` (and RFC 8785 §3.2.2.2) writes it:
/// `\"`, `\\`, the short escapes `\b \f \n \r \t`, other C0 controls as lowercase `\u00xx`,
/// everything else (including U+007F, U+2028, U+2029 and `/`) as itself. A Rust string holds
/// no lone surrogates, so the well-formed-stringify escapes never apply.
pub(crate) fn write_string(s: &str, out: &mut String) {
    out.push('"');
    if !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push_str(s);
    } else {
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if c < ' ' => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    let code = c as usize;
                    out.push_str("\\u00");
                    out.push(char::from(HEX[code >> 4]));
                    out.push(char::from(HEX[code & 0xf]));
                }
                c => out.push(c),
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text(value: &Value, order: KeyOrder) -> String {
        let mut out = String::new();
        write_value(value, order, &mut out).unwrap();
        out
    }

    #[test]
    fn escapes_like_json_stringify() {
        let mut out = String::new();
        write_string(
            "\"\\/\u{8}\u{c}\n\r\t\u{0}\u{1f}\u{7f}\u{2028}é😀",
            &mut out,
        );
        assert_eq!(
            out,
            "\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u001f\u{7f}\u{2028}é😀\""
        );
    }

    #[test]
    fn compact_nesting_and_literals() {
        let value = json!({"b": [1, 2.5, null, true, false, [], {}], "a": {"y": "", "x": -0.0}});
        assert_eq!(
            text(&value, KeyOrder::Rfc8785),
            r#"{"a":{"x":0,"y":""},"b":[1,2.5,null,true,false,[],{}]}"#
        );
    }

    #[test]
    fn js_dialect_orders_indices_first() {
        let value = json!({"b": 1, "10": 2, "2": 3, "__proto__": 4});
        assert_eq!(
            text(&value, KeyOrder::JsDeepSort),
            r#"{"2":3,"10":2,"b":1}"#
        );
        assert_eq!(
            text(&value, KeyOrder::Rfc8785),
            r#"{"10":2,"2":3,"__proto__":4,"b":1}"#
        );
    }

    #[test]
    fn very_deep_values_do_not_recurse() {
        let mut value = json!("leaf");
        for i in 0..100_000 {
            value = if i % 2 == 0 {
                Value::Array(vec![value])
            } else {
                Value::Object(core::iter::once((String::from("k"), value)).collect())
            };
        }
        let out = text(&value, KeyOrder::Rfc8785);
        assert_eq!(out.len(), 50_000 * 2 + 50_000 * 6 + 6);
        // Dropping such a value recurses inside serde_json; unwind it by hand.
        let mut stack = vec![value];
        while let Some(v) = stack.pop() {
            match v {
                Value::Array(items) => stack.extend(items),
                Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
                _ => {}
            }
        }
    }
}
