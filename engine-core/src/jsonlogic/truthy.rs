//! Truthiness: JSONLogic's, and JavaScript's own where the reference uses it.

use serde_json::Value;

/// JSONLogic truthiness (jsonlogic.com/truthy.html): `false`, `null`, `0`, `""` and `[]` are
/// false; everything else, `"0"` and `{}` included, is true. This is JavaScript's `!!value`
/// except that an empty array is false.
pub fn truthy(value: &Value) -> bool {
    match value {
        Value::Array(items) => !items.is_empty(),
        other => js_truthy(other),
    }
}

/// JavaScript's own `!!value` on JSON data: as [`truthy`], but `[]` is true. json-logic-js
/// uses it in two places: `data || {}` before every operation, and `in`'s `!b` test.
pub(crate) fn js_truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}
