//! `==`, `===`, `!=`, `!==` and the orderings `<`, `<=` (with their three-argument
//! "between" forms), `>`, `>=`, with JavaScript's coercions (see [`super::coerce`]):
//! `{"==":[1,"1"]}` and `{"<":["1",2]}` are true, `{"<":["a",1]}` is false both ways.

use core::cmp::Ordering;

use serde_json::Value;

use super::coerce::{js_compare, loose_eq, strict_eq as strict};
use super::eval::arg;

/// `==`: JavaScript loose equality.
pub(crate) fn eq(values: &[Value]) -> Value {
    Value::Bool(loose_eq(arg(values, 0), arg(values, 1)))
}

/// `===`: JavaScript strict equality (same type and value).
pub(crate) fn strict_eq(values: &[Value]) -> Value {
    Value::Bool(strict(arg(values, 0), arg(values, 1)))
}

/// The negation of a boolean result (`!=`, `!==`).
pub(crate) fn not(value: Value) -> Value {
    Value::Bool(value != Value::Bool(true))
}

/// Whether `a < b` (or `a <= b` when `or_equal`), JavaScript style.
fn below(a: &Value, b: &Value, or_equal: bool) -> bool {
    match js_compare(a, b) {
        Some(Ordering::Less) => true,
        Some(Ordering::Equal) => or_equal,
        _ => false,
    }
}

/// `<` / `<=`: `[a, b]`, or `[a, b, c]` for "b is between a and c" (`a < b < c`).
pub(crate) fn less(values: &[Value], or_equal: bool) -> Value {
    let (a, b) = (arg(values, 0), arg(values, 1));
    let first = below(a, b, or_equal);
    Value::Bool(match values.get(2) {
        Some(c) => first && below(b, c, or_equal),
        None => first,
    })
}

/// `>` / `>=`: `[a, b]` is `b < a` (`b <= a`).
pub(crate) fn greater(values: &[Value], or_equal: bool) -> Value {
    Value::Bool(below(arg(values, 1), arg(values, 0), or_equal))
}
