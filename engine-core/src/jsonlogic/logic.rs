//! `if` / `?:`, `and`, `or` (lazy, returning the deciding value as JavaScript does), `!`, `!!`.

use serde_json::Value;

use super::error::EvalError;
use super::eval::{Meter, arg, eval};
use super::parse::Node;
use super::truthy::truthy;

/// `if`: `[c1, v1, c2, v2, ..., else]`; the value after the first truthy condition, else the
/// trailing value, else `null`. Only the conditions up to the decision and the chosen value
/// are evaluated. `{"if": []}` is `null`; `{"if": [x]}` is `x`.
pub(crate) fn if_then_else(
    args: &[Node],
    data: &Value,
    meter: &mut Meter,
) -> Result<Value, EvalError> {
    let mut pairs = args.chunks_exact(2);
    for pair in pairs.by_ref() {
        if let [condition, then] = pair
            && truthy(&eval(condition, data, meter)?)
        {
            return eval(then, data, meter);
        }
    }
    match pairs.remainder() {
        [otherwise] => eval(otherwise, data, meter),
        _ => Ok(Value::Null),
    }
}

/// `and`: the first falsy argument, or the last one (not a boolean: `{"and":[1,3]}` is 3).
pub(crate) fn and(args: &[Node], data: &Value, meter: &mut Meter) -> Result<Value, EvalError> {
    let mut current = Value::Null;
    for node in args {
        current = eval(node, data, meter)?;
        if !truthy(&current) {
            break;
        }
    }
    Ok(current)
}

/// `or`: the first truthy argument, or the last one (`{"or":[false,3]}` is 3).
pub(crate) fn or(args: &[Node], data: &Value, meter: &mut Meter) -> Result<Value, EvalError> {
    let mut current = Value::Null;
    for node in args {
        current = eval(node, data, meter)?;
        if truthy(&current) {
            break;
        }
    }
    Ok(current)
}

/// `!`: the negated truthiness of the first argument (`{"!": [[]]}` is true).
pub(crate) fn not(values: &[Value]) -> Value {
    Value::Bool(!truthy(arg(values, 0)))
}

/// `!!`: the truthiness of the first argument.
pub(crate) fn not_not(values: &[Value]) -> Value {
    Value::Bool(truthy(arg(values, 0)))
}
