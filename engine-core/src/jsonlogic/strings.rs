//! `in`, `cat`, `substr`. Strings are counted in characters (Unicode scalar values), where
//! JavaScript counts UTF-16 code units: the results differ only around characters outside
//! the Basic Multilingual Plane (emoji), which JavaScript would split in halves.

use alloc::string::String;

use serde_json::Value;

use super::coerce::{strict_eq, to_js_string, to_number, write_js_string};
use super::eval::arg;
use super::truthy::js_truthy;

/// `in`: `[needle, haystack]`; substring test on a string haystack (the needle in its string
/// form), strict-equality membership on an array haystack, false otherwise.
pub(crate) fn contained_in(values: &[Value]) -> Value {
    let (needle, haystack) = (arg(values, 0), arg(values, 1));
    Value::Bool(
        js_truthy(haystack)
            && match haystack {
                Value::String(s) => s.contains(to_js_string(needle).as_str()),
                Value::Array(items) => items.iter().any(|item| strict_eq(item, needle)),
                _ => false,
            },
    )
}

/// `cat`: the arguments' string forms concatenated; `null` adds nothing
/// (`{"cat":["a",null,1.5]}` is `"a1.5"`).
pub(crate) fn cat(values: &[Value]) -> Value {
    let mut out = String::new();
    for value in values.iter().filter(|v| !v.is_null()) {
        write_js_string(value, &mut out);
    }
    Value::String(out)
}

/// `substr`: `[text, start, length]` as JavaScript's `String.prototype.substr`: a negative
/// start counts from the end; a negative length leaves that many characters off the end.
pub(crate) fn substr(values: &[Value]) -> Value {
    let chars: alloc::vec::Vec<char> = to_js_string(arg(values, 0)).chars().collect();
    let size = chars.len() as f64;
    let start = integer(to_number(arg(values, 1)));
    let from = if start < 0.0 {
        (size + start).max(0.0)
    } else {
        start.min(size)
    };
    let rest = size - from;
    let taken = match values.get(2).map(to_number) {
        None => rest,
        Some(length) if length < 0.0 => (rest + integer(length)).max(0.0),
        Some(length) => integer(length).clamp(0.0, rest),
    };
    let (from, taken) = (from as usize, taken as usize);
    Value::String(chars.iter().skip(from).take(taken).collect())
}

/// JavaScript `ToIntegerOrInfinity`: NaN is 0, fractions truncate toward zero.
fn integer(x: f64) -> f64 {
    if x.is_nan() { 0.0 } else { libm::trunc(x) }
}
