//! JavaScript's type coercions on JSON values, as json-logic-js relies on them: `ToNumber`,
//! `ToString`, `parseFloat`, loose (`==`) and strict (`===`) equality and the relational
//! comparison behind `<`.
//!
//! Two deliberate departures from JavaScript, because JSON data has no object identity and
//! no non-finite numbers:
//! - arrays and objects compare *structurally* under `==` and `===` (JavaScript compares
//!   references, so `[1] == [1]` is false there and true here);
//! - a result that would be `NaN` or `±Infinity` becomes `null` ([`number_value`]).
//!
//! Strings are measured and indexed in Unicode scalar values (Rust `char`s), not UTF-16
//! code units; the two differ only for characters outside the Basic Multilingual Plane.

use alloc::string::String;
use core::cmp::Ordering;

use serde_json::{Number, Value};

use crate::hash::write_double;

/// The largest integer every double below it represents exactly (2^53).
const MAX_SAFE: f64 = 9_007_199_254_740_992.0;

/// The number a finite double becomes in JSON: integral values within ±2^53 as integers
/// (so `1 + 2` is `3`, not `3.0`, and `-0` is `0`, as `JSON.stringify` prints them),
/// others as floats, and `NaN`/`±Infinity` as `null`.
pub(crate) fn number_value(x: f64) -> Value {
    if !x.is_finite() {
        return Value::Null;
    }
    if x == libm::trunc(x) && libm::fabs(x) <= MAX_SAFE {
        return Value::Number(Number::from(x as i64));
    }
    Number::from_f64(x).map_or(Value::Null, Value::Number)
}

/// The double JavaScript holds for a JSON number.
pub(crate) fn as_f64(n: &Number) -> f64 {
    n.as_f64().unwrap_or(f64::NAN)
}

/// JavaScript `ToNumber`: `null` → 0, booleans → 0/1, strings by [`string_to_number`],
/// arrays through their string form (`[5]` → 5, `[]` → 0), objects → NaN.
pub(crate) fn to_number(value: &Value) -> f64 {
    match value {
        Value::Null => 0.0,
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Number(n) => as_f64(n),
        Value::String(s) => string_to_number(s),
        Value::Array(_) => string_to_number(&to_js_string(value)),
        Value::Object(_) => f64::NAN,
    }
}

/// JavaScript whitespace and line terminators, which `Number()` and `parseFloat` skip.
fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}' | '\u{a}' | '\u{b}' | '\u{c}' | '\u{d}' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// JavaScript `Number(string)`: surrounding whitespace ignored, `""` → 0, decimal literals
/// (`"1."`, `".5"`, `"1e3"`), `Infinity` with a sign, `0x`/`0o`/`0b` integers; anything
/// else (`"12px"`, `"1_000"`) is NaN.
pub(crate) fn string_to_number(s: &str) -> f64 {
    let t = s.trim_matches(is_js_space);
    if t.is_empty() {
        return 0.0;
    }
    for (prefix, radix) in [
        ("0x", 16),
        ("0X", 16),
        ("0o", 8),
        ("0O", 8),
        ("0b", 2),
        ("0B", 2),
    ] {
        if let Some(digits) = t.strip_prefix(prefix) {
            return radix_integer(digits, radix);
        }
    }
    let (sign, unsigned) = split_sign(t);
    if unsigned == "Infinity" {
        return sign * f64::INFINITY;
    }
    match decimal_prefix_len(unsigned) {
        Some(len) if len == unsigned.len() => sign * parse_decimal(unsigned),
        _ => f64::NAN,
    }
}

/// JavaScript `parseFloat(ToString(value))`: the longest decimal prefix after leading
/// whitespace (`"12px"` → 12), `Infinity` with a sign, NaN when there is none (`""`).
pub(crate) fn parse_float(value: &Value) -> f64 {
    let text = match value {
        Value::Number(n) => return as_f64(n),
        Value::String(s) => s.trim_start_matches(is_js_space),
        _ => return parse_float(&Value::String(to_js_string(value))),
    };
    let (sign, unsigned) = split_sign(text);
    if unsigned.starts_with("Infinity") {
        return sign * f64::INFINITY;
    }
    match decimal_prefix_len(unsigned) {
        Some(len) => sign * parse_decimal(&unsigned[..len]),
        None => f64::NAN,
    }
}

/// The sign (`±1.0`) and the rest of `text`.
fn split_sign(text: &str) -> (f64, &str) {
    if let Some(rest) = text.strip_prefix('-') {
        (-1.0, rest)
    } else {
        (1.0, text.strip_prefix('+').unwrap_or(text))
    }
}

/// Length of the longest prefix of `text` that is an unsigned decimal literal
/// (`digits [. digits] [e [±] digits]`, at least one digit before the exponent), if any.
fn decimal_prefix_len(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let digits_from = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let int_end = digits_from(0);
    let mut end = int_end;
    let mut mantissa_digits = int_end;
    if bytes.get(end) == Some(&b'.') {
        let frac_end = digits_from(end + 1);
        mantissa_digits += frac_end - end - 1;
        end = frac_end;
    }
    if mantissa_digits == 0 {
        return None;
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let mut exp = end + 1;
        if matches!(bytes.get(exp), Some(b'+' | b'-')) {
            exp += 1;
        }
        let exp_end = digits_from(exp);
        if exp_end > exp {
            end = exp_end;
        }
    }
    Some(end)
}

/// A validated unsigned decimal literal as a double (`"1."` and `".5"` included).
fn parse_decimal(literal: &str) -> f64 {
    literal.parse::<f64>().unwrap_or(f64::NAN)
}

/// An unsigned integer in `radix`, NaN if empty or not all digits.
fn radix_integer(digits: &str, radix: u32) -> f64 {
    if digits.is_empty() {
        return f64::NAN;
    }
    let mut value = 0.0;
    for c in digits.chars() {
        match c.to_digit(radix) {
            Some(d) => value = value * f64::from(radix) + f64::from(d),
            None => return f64::NAN,
        }
    }
    value
}

/// JavaScript `ToString`: `null` → `"null"`, numbers as `Number::toString` prints them,
/// arrays joined with `,` (their `null` elements as empty strings), objects as
/// `"[object Object]"`.
pub(crate) fn to_js_string(value: &Value) -> String {
    let mut out = String::new();
    write_js_string(value, &mut out);
    out
}

/// Appends [`to_js_string`] of `value` to `out`.
pub(crate) fn write_js_string(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_double(as_f64(n), out),
        Value::String(s) => out.push_str(s),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !item.is_null() {
                    write_js_string(item, out);
                }
            }
        }
        Value::Object(_) => out.push_str("[object Object]"),
    }
}

/// JavaScript `===`, except that arrays and objects compare structurally.
pub(crate) fn strict_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => as_f64(x) == as_f64(y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| strict_eq(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| strict_eq(v, w)))
        }
        _ => a == b,
    }
}

/// JavaScript `==` (the abstract equality algorithm), except that arrays and objects
/// compare structurally with each other: `1 == "1"`, `0 == false`, `null == null` but
/// `null != 0`, `[1] == 1` (through the string `"1"`), `[] == false`.
pub(crate) fn loose_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Null, _) | (_, Value::Null) => false,
        (Value::Bool(_), _) => loose_eq(&number_of(a), b),
        (_, Value::Bool(_)) => loose_eq(a, &number_of(b)),
        (Value::Number(x), Value::String(s)) | (Value::String(s), Value::Number(x)) => {
            as_f64(x) == string_to_number(s)
        }
        (Value::Array(_) | Value::Object(_), Value::Number(_) | Value::String(_)) => {
            loose_eq(&Value::String(to_js_string(a)), b)
        }
        (Value::Number(_) | Value::String(_), Value::Array(_) | Value::Object(_)) => {
            loose_eq(a, &Value::String(to_js_string(b)))
        }
        _ => strict_eq(a, b),
    }
}

/// `ToNumber(value)` as a JSON number value (`NaN` as `null` is never needed here: only
/// booleans go through it).
fn number_of(value: &Value) -> Value {
    Value::Number(Number::from(i64::from(u8::from(to_number(value) != 0.0))))
}

/// JavaScript's abstract relational comparison, as `<`, `<=`, `>`, `>=` use it: arrays and
/// objects become strings first; two strings compare by UTF-16 code units; anything else
/// compares as numbers. `None` when a number is NaN (every comparison is then false).
pub(crate) fn js_compare(a: &Value, b: &Value) -> Option<Ordering> {
    let a = primitive(a);
    let b = primitive(b);
    if let (Value::String(x), Value::String(y)) = (&a, &b) {
        return Some(x.encode_utf16().cmp(y.encode_utf16()));
    }
    to_number(&a).partial_cmp(&to_number(&b))
}

/// JavaScript `ToPrimitive` on JSON: arrays and objects become their string form.
fn primitive(value: &Value) -> Value {
    match value {
        Value::Array(_) | Value::Object(_) => Value::String(to_js_string(value)),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn to_number_follows_javascript() {
        assert_eq!(string_to_number(" 12 "), 12.0);
        assert_eq!(string_to_number(""), 0.0);
        assert_eq!(string_to_number("1."), 1.0);
        assert_eq!(string_to_number(".5"), 0.5);
        assert_eq!(string_to_number("-1e3"), -1000.0);
        assert_eq!(string_to_number("0x1f"), 31.0);
        assert_eq!(string_to_number("-Infinity"), f64::NEG_INFINITY);
        assert!(string_to_number("12px").is_nan());
        assert!(string_to_number("inf").is_nan());
        assert!(string_to_number("nan").is_nan());
        assert!(string_to_number(".").is_nan());
        assert!(string_to_number("-0x1").is_nan());
        assert_eq!(to_number(&json!([5])), 5.0);
        assert_eq!(to_number(&json!([])), 0.0);
        assert!(to_number(&json!({})).is_nan());
    }

    #[test]
    fn parse_float_takes_the_longest_prefix() {
        assert_eq!(parse_float(&json!("12px")), 12.0);
        assert_eq!(parse_float(&json!("  -3.5e2x")), -350.0);
        assert_eq!(parse_float(&json!("1e")), 1.0);
        assert!(parse_float(&json!("")).is_nan());
        assert!(parse_float(&json!(null)).is_nan());
        assert_eq!(parse_float(&json!([7, 8])), 7.0);
    }

    #[test]
    fn strings_and_equality() {
        assert_eq!(to_js_string(&json!([1, null, [2, 3], "a"])), "1,,2,3,a");
        assert_eq!(to_js_string(&json!(1e21)), "1e+21");
        assert_eq!(to_js_string(&json!(0.1)), "0.1");
        assert!(loose_eq(&json!(1), &json!("1")));
        assert!(loose_eq(&json!(0), &json!(false)));
        assert!(loose_eq(&json!([]), &json!(false)));
        assert!(loose_eq(&json!([1]), &json!(1)));
        assert!(!loose_eq(&json!(null), &json!(0)));
        assert!(!loose_eq(&json!(null), &json!(false)));
        assert!(strict_eq(&json!(1), &json!(1.0)));
        assert!(!strict_eq(&json!(1), &json!("1")));
        assert_eq!(js_compare(&json!("10"), &json!("9")), Some(Ordering::Less));
        assert_eq!(js_compare(&json!("10"), &json!(9)), Some(Ordering::Greater));
        assert_eq!(js_compare(&json!("a"), &json!(1)), None);
        assert_eq!(number_value(3.0), json!(3));
        assert_eq!(number_value(-0.0), json!(0));
        assert_eq!(number_value(f64::NAN), json!(null));
    }
}
