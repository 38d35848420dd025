//! Reading the data: `var`, `missing`, `missing_some`.
//!
//! A path is the argument's string form split on `.`: `"file.tags.0"` reads key `file`,
//! then `tags`, then index 0. Following JavaScript property access, which the reference
//! uses, an array or a string also answers `length` (`"file.tags.length"` is the number of
//! tags) and a string answers an index with one character. As in json-logic-js, data that
//! is falsy in JavaScript (`null`, `false`, `0`, `""`) reads as `{}`: `{"var":""}` on `0`
//! is `{}`, not `0`.

use alloc::borrow::Cow;
use alloc::string::ToString;
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::MAX_VALUE_DEPTH;
use super::coerce::{number_value, to_js_string, to_number};
use super::error::EvalError;
use super::eval::{Meter, arg};
use super::truthy::js_truthy;

/// `var`: `[path, default]`. An absent, `null` or `""` path is the whole data; a path that
/// leads nowhere gives the default (`null` without one). Copying the value out costs one
/// operation per array element and object member inside it, so that feeding a growing
/// `reduce` accumulator back into itself stays within the budget.
pub(crate) fn var(values: &[Value], data: &Value, meter: &mut Meter) -> Result<Value, EvalError> {
    let found = lookup(data, arg(values, 0));
    let value = match found {
        Some(value) => value,
        None => Cow::Borrowed(arg(values, 1)),
    };
    meter.charge(inner_size(&value, 0)?)?;
    Ok(value.into_owned())
}

/// The value at `path` in `data`, `None` when the path leads nowhere.
fn lookup<'a>(data: &'a Value, path: &Value) -> Option<Cow<'a, Value>> {
    let empty_object = || Cow::Owned(Value::Object(Map::new()));
    let mut current = if js_truthy(data) {
        Cow::Borrowed(data)
    } else {
        empty_object()
    };
    if path.is_null() || path.as_str() == Some("") {
        return Some(current);
    }
    for key in to_js_string(path).split('.') {
        current = match current {
            Cow::Borrowed(value) => property(value, key)?,
            Cow::Owned(value) => Cow::Owned(property(&value, key)?.into_owned()),
        };
    }
    Some(current)
}

/// JavaScript `value[key]` on JSON data, `None` for `undefined`.
fn property<'a>(value: &'a Value, key: &str) -> Option<Cow<'a, Value>> {
    match value {
        Value::Object(map) => map.get(key).map(Cow::Borrowed),
        Value::Array(items) if key == "length" => {
            Some(Cow::Owned(number_value(items.len() as f64)))
        }
        Value::Array(items) => items.get(array_index(key)?).map(Cow::Borrowed),
        Value::String(s) if key == "length" => {
            Some(Cow::Owned(number_value(s.chars().count() as f64)))
        }
        Value::String(s) => s
            .chars()
            .nth(array_index(key)?)
            .map(|c| Cow::Owned(Value::String(c.to_string()))),
        _ => None,
    }
}

/// The index a canonical array-index string names (`"0"`, `"12"`; not `"01"`, `"-1"`).
fn array_index(key: &str) -> Option<usize> {
    let canonical = key == "0" || (!key.starts_with('0') && !key.is_empty());
    if !canonical || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse().ok()
}

/// The number of array elements and object members nested in `value`, refusing values
/// nested deeper than [`MAX_VALUE_DEPTH`].
fn inner_size(value: &Value, depth: usize) -> Result<u64, EvalError> {
    if depth > MAX_VALUE_DEPTH {
        return Err(EvalError::ValueTooDeep {
            limit: MAX_VALUE_DEPTH,
        });
    }
    let children: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        Value::Object(map) => map.values().collect(),
        _ => return Ok(0),
    };
    let mut size = children.len() as u64;
    for child in children {
        size = size.saturating_add(inner_size(child, depth + 1)?);
    }
    Ok(size)
}

/// `missing`: the keys (the arguments, or the first argument when it is an array) whose
/// value is absent, `null` or `""`.
pub(crate) fn missing(values: &[Value], data: &Value) -> Value {
    let keys = match values {
        [Value::Array(keys), ..] => keys.as_slice(),
        _ => values,
    };
    Value::Array(missing_keys(keys, data))
}

fn missing_keys(keys: &[Value], data: &Value) -> Vec<Value> {
    keys.iter()
        .filter(|key| match lookup(data, key).as_deref() {
            None | Some(Value::Null) => true,
            Some(Value::String(s)) => s.is_empty(),
            Some(_) => false,
        })
        .cloned()
        .collect()
}

/// `missing_some`: `[need, keys]`; `[]` when at least `need` of the keys are present, else
/// the missing ones.
pub(crate) fn missing_some(values: &[Value], data: &Value) -> Value {
    let need = to_number(arg(values, 0));
    let (keys, count) = match arg(values, 1) {
        Value::Array(keys) => (keys.clone(), keys.len() as f64),
        Value::String(s) => (alloc::vec![Value::String(s.clone())], count_chars(s)),
        other => (alloc::vec![other.clone()], f64::NAN),
    };
    let absent = missing_keys(&keys, data);
    if count - absent.len() as f64 >= need {
        Value::Array(Vec::new())
    } else {
        Value::Array(absent)
    }
}

/// JavaScript's `length` of a string, counted in characters (see [`super::coerce`]).
fn count_chars(s: &str) -> f64 {
    s.chars().count() as f64
}
