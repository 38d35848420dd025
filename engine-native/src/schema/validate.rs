//! Checks a JSON document against a JSON Schema (2020-12 subset) and reports every problem with
//! its path (not only the first, as serde would). The one validator of the server: it checks
//! the config file against the config schema and every tool call against its tool's input
//! schema. It understands the keywords those schemas use; tests keep that set and the schemas
//! in step.

use serde_json::{Map, Value};

use crate::schema::JsonPath;

/// The schema keywords this validator applies or deliberately ignores (annotations).
pub const KNOWN_KEYWORDS: [&str; 24] = [
    "$schema",
    "$defs",
    "$ref",
    "title",
    "description",
    "default",
    "type",
    "const",
    "enum",
    "oneOf",
    "anyOf",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "format",
    "examples",
    "deprecated",
];

/// Every place where `value` breaks `schema` (a root schema whose `$ref`s point into its
/// `$defs`), as (path, message) pairs in document order.
pub fn schema_problems(value: &Value, schema: &Value) -> Vec<(JsonPath, String)> {
    let mut out = Vec::new();
    check(value, schema, schema, &JsonPath::root(), &mut out);
    out
}

fn check(value: &Value, schema: &Value, root: &Value, path: &JsonPath, out: &mut Problems) {
    let Some(schema) = schema.as_object() else {
        if schema == &Value::Bool(false) {
            out.push((path.clone(), "no value is allowed here".to_owned()));
        }
        return;
    };
    if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
        match resolve(root, target) {
            Some(referenced) => check(value, referenced, root, path, out),
            None => out.push((
                path.clone(),
                format!("schema reference {target} is missing"),
            )),
        }
    }
    for keyword in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = schema.get(keyword) {
            check_alternatives(value, branches, root, path, out);
        }
    }
    if !check_type(value, schema, path, out) {
        return;
    }
    check_literals(value, schema, path, out);
    check_number(value, schema, path, out);
    check_lengths(value, schema, path, out);
    match value {
        Value::Object(map) => check_object(map, schema, root, path, out),
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (index, item) in items.iter().enumerate() {
                    check(item, item_schema, root, &path.index(index), out);
                }
            }
        }
        _ => {}
    }
}

type Problems = Vec<(JsonPath, String)>;

fn resolve<'s>(root: &'s Value, target: &str) -> Option<&'s Value> {
    target
        .strip_prefix('#')
        .and_then(|pointer| root.pointer(pointer))
}

/// `anyOf` / `oneOf`: the value must satisfy a branch. When none does, the problems of the
/// branch built for the value's JSON type are reported (they point inside the value); for a
/// choice between constants, the allowed constants are listed.
fn check_alternatives(
    value: &Value,
    branches: &[Value],
    root: &Value,
    path: &JsonPath,
    out: &mut Problems,
) {
    let mut attempts = Vec::new();
    for branch in branches {
        let mut problems = Vec::new();
        check(value, branch, root, path, &mut problems);
        if problems.is_empty() {
            return;
        }
        attempts.push((branch, problems));
    }
    let constants: Vec<String> = branches
        .iter()
        .filter_map(|branch| branch.get("const"))
        .map(Value::to_string)
        .collect();
    if constants.len() == branches.len() {
        out.push((
            path.clone(),
            format!("must be one of {}; found {value}", constants.join(", ")),
        ));
        return;
    }
    let same_type = attempts.into_iter().find(|(branch, _)| {
        let resolved = match branch.get("$ref").and_then(Value::as_str) {
            Some(target) => resolve(root, target).unwrap_or(branch),
            None => branch,
        };
        resolved
            .as_object()
            .and_then(type_names)
            .is_some_and(|names| names.contains(&json_type(value)))
    });
    match same_type {
        Some((_, problems)) => out.extend(problems),
        None => out.push((
            path.clone(),
            format!("{} is not allowed here", describe(value)),
        )),
    }
}

fn type_names(schema: &Map<String, Value>) -> Option<Vec<&str>> {
    match schema.get("type")? {
        Value::String(name) => Some(vec![name.as_str()]),
        Value::Array(names) => Some(names.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

/// Whether `value` has an allowed type; reports and returns false when it has not.
fn check_type(
    value: &Value,
    schema: &Map<String, Value>,
    path: &JsonPath,
    out: &mut Problems,
) -> bool {
    let Some(names) = type_names(schema) else {
        return true;
    };
    let actual = json_type(value);
    let fits = names
        .iter()
        .any(|name| *name == actual || (*name == "number" && actual == "integer"));
    if !fits {
        out.push((
            path.clone(),
            format!("expected {}, found {}", names.join(" or "), describe(value)),
        ));
    }
    fits
}

fn check_literals(value: &Value, schema: &Map<String, Value>, path: &JsonPath, out: &mut Problems) {
    if let Some(constant) = schema.get("const")
        && constant != value
    {
        out.push((path.clone(), format!("must be {constant}; found {value}")));
    }
    if let Some(Value::Array(allowed)) = schema.get("enum")
        && !allowed.contains(value)
    {
        let allowed: Vec<String> = allowed.iter().map(Value::to_string).collect();
        out.push((
            path.clone(),
            format!("must be one of {}; found {value}", allowed.join(", ")),
        ));
    }
}

/// `minimum`, `maximum`, and the integer widths schemars writes as `format` (`uint16`, ...).
fn check_number(value: &Value, schema: &Map<String, Value>, path: &JsonPath, out: &mut Problems) {
    let Some(number) = value.as_f64() else {
        return;
    };
    let width = schema
        .get("format")
        .and_then(Value::as_str)
        .and_then(integer_range);
    let minimum = schema.get("minimum").and_then(Value::as_f64);
    let maximum = schema.get("maximum").and_then(Value::as_f64);
    let low = [minimum, width.map(|w| w.0)]
        .into_iter()
        .flatten()
        .reduce(f64::max);
    let high = [maximum, width.map(|w| w.1)]
        .into_iter()
        .flatten()
        .reduce(f64::min);
    if low.is_some_and(|low| number < low) || high.is_some_and(|high| number > high) {
        let bound = match (low, high) {
            (Some(low), Some(high)) => format!("between {low} and {high}"),
            (Some(low), None) => format!("at least {low}"),
            (None, Some(high)) => format!("at most {high}"),
            (None, None) => unreachable!("a bound was broken"),
        };
        out.push((path.clone(), format!("must be {bound}; found {value}")));
    }
}

/// `minLength` / `maxLength` (in characters) of strings, `minItems` / `maxItems` of arrays.
fn check_lengths(value: &Value, schema: &Map<String, Value>, path: &JsonPath, out: &mut Problems) {
    let (length, keywords, unit) = match value {
        Value::String(text) => (
            text.chars().count(),
            ["minLength", "maxLength"],
            "character",
        ),
        Value::Array(items) => (items.len(), ["minItems", "maxItems"], "item"),
        _ => return,
    };
    let bound = |keyword: &str| {
        schema
            .get(keyword)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
    };
    if let Some(min) = bound(keywords[0])
        && length < min
    {
        out.push((
            path.clone(),
            format!(
                "must have at least {min} {unit}{}; found {length}",
                plural(min)
            ),
        ));
    }
    if let Some(max) = bound(keywords[1])
        && length > max
    {
        out.push((
            path.clone(),
            format!(
                "must have at most {max} {unit}{}; found {length}",
                plural(max)
            ),
        ));
    }
}

fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}

fn integer_range(format: &str) -> Option<(f64, f64)> {
    Some(match format {
        "uint8" => (0.0, u8::MAX as f64),
        "uint16" => (0.0, u16::MAX as f64),
        "uint32" => (0.0, u32::MAX as f64),
        "int32" => (i32::MIN as f64, i32::MAX as f64),
        _ => return None,
    })
}

fn check_object(
    map: &Map<String, Value>,
    schema: &Map<String, Value>,
    root: &Value,
    path: &JsonPath,
    out: &mut Problems,
) {
    let properties = schema.get("properties").and_then(Value::as_object);
    if let Some(Value::Array(required)) = schema.get("required") {
        for key in required.iter().filter_map(Value::as_str) {
            if !map.contains_key(key) {
                out.push((path.key(key), "is required but missing".to_owned()));
            }
        }
    }
    for (key, child) in map {
        match properties.and_then(|known| known.get(key)) {
            Some(child_schema) => check(child, child_schema, root, &path.key(key), out),
            None => match schema.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    let known: Vec<&str> = properties
                        .map(|known| known.keys().map(String::as_str).collect())
                        .unwrap_or_default();
                    out.push((
                        path.key(key),
                        format!("unknown key; the keys here are: {}", known.join(", ")),
                    ));
                }
                Some(extra) => check(child, extra, root, &path.key(key), out),
                None => {}
            },
        }
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::Object(_) => "an object".to_owned(),
        Value::Array(_) => "an array".to_owned(),
        scalar => format!("{} {scalar}", json_type(scalar)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn messages(value: Value, schema: Value) -> Vec<String> {
        schema_problems(&value, &schema)
            .into_iter()
            .map(|(path, message)| format!("{path}: {message}"))
            .collect()
    }

    #[test]
    fn reports_every_problem_with_its_path() {
        let schema = json!({
            "type": "object",
            "properties": {
                "port": {"type": "integer", "format": "uint16", "minimum": 0},
                "mode": {"oneOf": [{"type": "string", "const": "a"}, {"type": "string", "const": "b"}]},
                "list": {"type": "array", "items": {"$ref": "#/$defs/Item"}}
            },
            "additionalProperties": false,
            "$defs": {"Item": {"type": "object", "properties": {"x": {"type": "boolean"}},
                               "required": ["x"], "additionalProperties": false}}
        });
        let found = messages(
            json!({"port": 70000, "mode": "c", "list": [{"x": true}, {"y": 1}], "extra": 1}),
            schema,
        );
        assert_eq!(
            found,
            [
                "extra: unknown key; the keys here are: list, mode, port",
                "list[1].x: is required but missing",
                "list[1].y: unknown key; the keys here are: x",
                "mode: must be one of \"a\", \"b\"; found \"c\"",
                "port: must be between 0 and 65535; found 70000",
            ]
        );
    }

    #[test]
    fn lengths_of_strings_and_arrays() {
        let schema = json!({
            "type": "object",
            "properties": {
                "key": {"type": "string", "minLength": 1, "maxLength": 3},
                "paths": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2}
            }
        });
        assert!(messages(json!({"key": "äbc", "paths": ["a"]}), schema.clone()).is_empty());
        assert_eq!(
            messages(json!({"key": "", "paths": ["a", "b", "c"]}), schema.clone()),
            [
                "key: must have at least 1 character; found 0",
                "paths: must have at most 2 items; found 3"
            ]
        );
        assert_eq!(
            messages(json!({"key": "abcd", "paths": []}), schema),
            [
                "key: must have at most 3 characters; found 4",
                "paths: must have at least 1 item; found 0"
            ]
        );
    }

    #[test]
    fn nullable_reference_reports_inside_the_object() {
        let schema = json!({
            "type": "object",
            "properties": {"acl": {"anyOf": [{"$ref": "#/$defs/Acl"}, {"type": "null"}]}},
            "$defs": {"Acl": {"type": "object", "properties": {"readOnly": {"type": "boolean"}},
                              "additionalProperties": false}}
        });
        assert!(messages(json!({"acl": null}), schema.clone()).is_empty());
        assert_eq!(
            messages(json!({"acl": {"readOnly": "yes"}}), schema.clone()),
            ["acl.readOnly: expected boolean, found string \"yes\""]
        );
        assert_eq!(
            messages(json!({"acl": 3}), schema),
            ["acl: integer 3 is not allowed here"]
        );
    }
}
