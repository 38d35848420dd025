//! The array operators: `map`, `filter`, `reduce`, `all`, `some`/`none` (lazy: their second
//! argument is evaluated once per element, with the element as the data) and `merge`.
//!
//! Each element visited counts one operation. A first argument that is not an array is an
//! empty list: `map` and `filter` give `[]`, `reduce` its initial value, `all` and `some`
//! false, `none` true. (json-logic-js would walk a string's characters in `all` and throw
//! on `null`; here both are simply not arrays.)

use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::error::EvalError;
use super::eval::{Meter, eval};
use super::parse::Node;
use super::truthy::truthy;

/// The elements of the first argument evaluated against `data`, and the per-element rule.
fn scoped<'a>(
    args: &'a [Node],
    data: &Value,
    meter: &mut Meter,
) -> Result<(Vec<Value>, Option<&'a Node>), EvalError> {
    let items = match args.first() {
        Some(node) => match eval(node, data, meter)? {
            Value::Array(items) => items,
            _ => Vec::new(),
        },
        None => Vec::new(),
    };
    Ok((items, args.get(1)))
}

/// Evaluates the per-element rule on one element (counting the visit).
fn visit(rule: Option<&Node>, item: &Value, meter: &mut Meter) -> Result<Value, EvalError> {
    meter.charge(1)?;
    match rule {
        Some(rule) => eval(rule, item, meter),
        None => Ok(Value::Null),
    }
}

/// `map`: the rule's value for each element.
pub(crate) fn map(args: &[Node], data: &Value, meter: &mut Meter) -> Result<Value, EvalError> {
    let (items, rule) = scoped(args, data, meter)?;
    items
        .iter()
        .map(|item| visit(rule, item, meter))
        .collect::<Result<Vec<Value>, EvalError>>()
        .map(Value::Array)
}

/// `filter`: the elements for which the rule is truthy.
pub(crate) fn filter(args: &[Node], data: &Value, meter: &mut Meter) -> Result<Value, EvalError> {
    let (items, rule) = scoped(args, data, meter)?;
    let mut kept = Vec::new();
    for item in items {
        if truthy(&visit(rule, &item, meter)?) {
            kept.push(item);
        }
    }
    Ok(Value::Array(kept))
}

/// `reduce`: `[array, rule, initial]`; the rule sees `{"current": element, "accumulator":
/// value so far}`, starting from `initial` (`null` when absent).
pub(crate) fn reduce(args: &[Node], data: &Value, meter: &mut Meter) -> Result<Value, EvalError> {
    let (items, rule) = scoped(args, data, meter)?;
    let mut accumulator = match args.get(2) {
        Some(initial) => eval(initial, data, meter)?,
        None => Value::Null,
    };
    for current in items {
        let mut scope = Map::new();
        scope.insert("current".into(), current);
        scope.insert("accumulator".into(), accumulator);
        accumulator = visit(rule, &Value::Object(scope), meter)?;
    }
    Ok(accumulator)
}

/// `all`: whether the rule is truthy for every element; false for an empty array.
pub(crate) fn all(args: &[Node], data: &Value, meter: &mut Meter) -> Result<Value, EvalError> {
    let (items, rule) = scoped(args, data, meter)?;
    if items.is_empty() {
        return Ok(Value::Bool(false));
    }
    for item in &items {
        if !truthy(&visit(rule, item, meter)?) {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}

/// `some`: whether the rule is truthy for at least one element (stops at the first);
/// `none` is its negation.
pub(crate) fn some(args: &[Node], data: &Value, meter: &mut Meter) -> Result<bool, EvalError> {
    let (items, rule) = scoped(args, data, meter)?;
    for item in &items {
        if truthy(&visit(rule, item, meter)?) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `merge`: one flat array of the arguments, arrays spliced in one level deep
/// (`{"merge":[1,[2,[3]]]}` is `[1,2,[3]]`).
pub(crate) fn merge(values: Vec<Value>) -> Value {
    let mut out = Vec::new();
    for value in values {
        match value {
            Value::Array(items) => out.extend(items),
            other => out.push(other),
        }
    }
    Value::Array(out)
}
