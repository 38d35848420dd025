//! `+`, `-`, `*`, `/`, `%`, `max`, `min`, exactly as json-logic-js computes them, quirks
//! included:
//! - `+` and `*` read their arguments with `parseFloat` (`"12px"` counts as 12, `""` and
//!   `null` as NaN), while `-`, `/`, `%`, `max` and `min` use `Number()` (`"12px"` is NaN,
//!   `""` and `null` are 0);
//! - `*` with a single argument returns it untouched (`{"*":["1"]}` is the string `"1"`),
//!   because the reference folds its arguments without an initial value;
//! - a result that JavaScript would make NaN or ±Infinity (`{"/":[1,0]}`) is `null`.

use serde_json::Value;

use super::coerce::{number_value, parse_float, to_number};
use super::eval::arg;

/// `+`: the sum of `parseFloat` of every argument; `{"+":"3"}` casts a string to a number.
pub(crate) fn add(values: &[Value]) -> Value {
    number_value(values.iter().map(parse_float).sum())
}

/// `*`: the product of `parseFloat` of every argument (one argument: returned unchanged).
pub(crate) fn mul(values: &[Value]) -> Value {
    match values {
        [only] => only.clone(),
        _ => number_value(values.iter().map(parse_float).product()),
    }
}

/// `-`: `a - b`, or `-a` with one argument.
pub(crate) fn sub(values: &[Value]) -> Value {
    let a = to_number(arg(values, 0));
    number_value(match values.get(1) {
        Some(b) => a - to_number(b),
        None => -a,
    })
}

/// `/`: `a / b`.
pub(crate) fn div(values: &[Value]) -> Value {
    number_value(to_number(arg(values, 0)) / to_number(arg(values, 1)))
}

/// `%`: JavaScript's remainder, with the sign of the dividend (`{"%":[-3,2]}` is -1).
pub(crate) fn rem(values: &[Value]) -> Value {
    number_value(libm::fmod(
        to_number(arg(values, 0)),
        to_number(arg(values, 1)),
    ))
}

/// `max`: `Math.max` of the arguments (NaN, hence `null`, if any is not a number).
pub(crate) fn max(values: &[Value]) -> Value {
    extreme(values, f64::max)
}

/// `min`: `Math.min` of the arguments.
pub(crate) fn min(values: &[Value]) -> Value {
    extreme(values, f64::min)
}

fn extreme(values: &[Value], pick: fn(f64, f64) -> f64) -> Value {
    let numbers = values.iter().map(to_number);
    let mut result: Option<f64> = None;
    for x in numbers {
        if x.is_nan() {
            return Value::Null;
        }
        result = Some(result.map_or(x, |r| pick(r, x)));
    }
    result.map_or(Value::Null, number_value)
}
