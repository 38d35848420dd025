//! JSON that keeps its key order, printed the way JavaScript's `JSON.stringify` prints it.
//!
//! serde_json's `Map` sorts keys (the workspace does not enable `preserve_order`), which
//! would reorder every object of a file Obsidian wrote (a canvas, `workspaces.json`,
//! `bookmarks.json`) on the first edit. [`Json`] keeps objects as ordered pairs, so unknown
//! keys and their order survive; [`Json::ordered_like`] gives a value edited as a
//! `serde_json::Value` back the key order of the file it came from.

use std::fmt::{self, Write as _};

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

/// A JSON value whose objects keep their key order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, keys in document order.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The string this is, if it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }

    /// The number this is, as `f64`, if it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(number) => number.as_f64(),
            _ => None,
        }
    }

    /// The equivalent `serde_json` value (object keys sorted).
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.clone()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(pairs) => Value::Object(
                pairs
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_value()))
                    .collect(),
            ),
        }
    }

    /// `value` as ordered JSON (object keys in `serde_json`'s order).
    pub fn from_value(value: &Value) -> Json {
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Number(n.clone()),
            Value::String(s) => Json::String(s.clone()),
            Value::Array(items) => Json::Array(items.iter().map(Json::from_value).collect()),
            Value::Object(map) => Json::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), Json::from_value(v)))
                    .collect(),
            ),
        }
    }
}

impl Json {
    /// `value` with the key order of `template`, the document it was edited from: an
    /// object's keys that `template` has come first, in its order, then the others in
    /// `serde_json`'s order; each value is ordered like its counterpart (an array item like
    /// the `template` item of the same index when that has the same keys, else like the
    /// item sharing the most keys with it).
    pub fn ordered_like(value: &Value, template: &Json) -> Json {
        match (value, template) {
            (Value::Object(map), Json::Object(pairs)) => {
                let mut ordered: Vec<(String, Json)> = pairs
                    .iter()
                    .filter_map(|(key, like)| {
                        map.get(key)
                            .map(|v| (key.clone(), Json::ordered_like(v, like)))
                    })
                    .collect();
                ordered.extend(
                    map.iter()
                        .filter(|(key, _)| !pairs.iter().any(|(k, _)| k == *key))
                        .map(|(key, v)| (key.clone(), Json::from_value(v))),
                );
                Json::Object(ordered)
            }
            (Value::Array(items), Json::Array(likes)) => Json::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(at, item)| match closest(item, at, likes) {
                        Some(like) => Json::ordered_like(item, like),
                        None => Json::from_value(item),
                    })
                    .collect(),
            ),
            _ => Json::from_value(value),
        }
    }
}

/// The item of `likes` that `item` (at index `at`) is ordered like: the one at the same
/// index when it has exactly the same keys, else the first sharing the most keys with it.
fn closest<'j>(item: &Value, at: usize, likes: &'j [Json]) -> Option<&'j Json> {
    let Value::Object(map) = item else {
        return likes.get(at);
    };
    let shared = |like: &Json| match like {
        Json::Object(pairs) => pairs.iter().filter(|(k, _)| map.contains_key(k)).count(),
        _ => 0,
    };
    if let Some(like @ Json::Object(pairs)) = likes.get(at)
        && pairs.len() == map.len()
        && shared(like) == map.len()
    {
        return Some(like);
    }
    let mut best: Option<(&Json, usize)> = None;
    for like in likes {
        let count = shared(like);
        if count > best.map_or(0, |(_, most)| most) {
            best = Some((like, count));
        }
    }
    best.map(|(like, _)| like)
}

/// `value` as `JSON.stringify(value, null, 2)` prints it: two-space indent, `"key": value`,
/// `[]` and `{}` when empty, no final newline.
pub(crate) fn pretty(value: &Json) -> String {
    let mut out = String::new();
    indented(value, 0, &mut out);
    out
}

fn indented(value: &Json, depth: usize, out: &mut String) {
    let pad = |out: &mut String, depth: usize| out.push_str(&"  ".repeat(depth));
    match value {
        Json::Array(items) if !items.is_empty() => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                pad(out, depth + 1);
                indented(item, depth + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            pad(out, depth);
            out.push(']');
        }
        Json::Object(pairs) if !pairs.is_empty() => {
            out.push_str("{\n");
            for (i, (key, item)) in pairs.iter().enumerate() {
                pad(out, depth + 1);
                string(key, out);
                out.push_str(": ");
                indented(item, depth + 1, out);
                out.push_str(if i + 1 < pairs.len() { ",\n" } else { "\n" });
            }
            pad(out, depth);
            out.push('}');
        }
        _ => compact(value, out),
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// Builds a [`Json`] in document order.
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }
    /// A whole float is read as the integer it is, as `JSON.parse` knows no difference:
    /// `25.0` and `25` are one value, which an edit then writes as `25`, as Obsidian does.
    fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<Json, E> {
        if let Some(whole) = whole(n) {
            return Ok(Json::Number(whole.into()));
        }
        Number::from_f64(n)
            .map(Json::Number)
            .ok_or_else(|| E::custom("a number that is not finite"))
    }
    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut pairs = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            pairs.push((key, value));
        }
        Ok(Json::Object(pairs))
    }
}

/// `value` as compact JSON, the way JavaScript's `JSON.stringify` prints it.
pub(crate) fn compact(value: &Json, out: &mut String) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => number(n, out),
        Json::String(s) => string(s, out),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                compact(item, out);
            }
            out.push(']');
        }
        Json::Object(pairs) => {
            out.push('{');
            for (i, (key, item)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(key, out);
                out.push(':');
                compact(item, out);
            }
            out.push('}');
        }
    }
}

/// A number as JavaScript prints it: a whole float without `.0`.
fn number(n: &Number, out: &mut String) {
    match n.as_f64().filter(|_| n.is_f64()).and_then(whole) {
        Some(whole) => {
            let _ = write!(out, "{whole}");
        }
        None => {
            let _ = write!(out, "{n}");
        }
    }
}

/// `f` as an integer when it is a whole number JavaScript prints without exponent or `.0`
/// (below 10^15 in magnitude).
fn whole(f: f64) -> Option<i64> {
    // Below 10^15 the cast is exact.
    (f.fract() == 0.0 && f.abs() < 1e15).then_some(f as i64)
}

/// A JSON string literal (serde_json escapes exactly what `JSON.stringify` escapes).
pub(crate) fn string(s: &str, out: &mut String) {
    out.push_str(&Value::String(s.to_owned()).to_string());
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_whole_float_reads_as_the_integer_javascript_sees() {
        let float: Json = serde_json::from_str(r#"{"width": 25.0, "x": -0.0, "y": 2.5}"#).unwrap();
        let int: Json = serde_json::from_str(r#"{"width": 25, "x": 0, "y": 2.5}"#).unwrap();
        assert_eq!(float, int);
        assert_eq!(float.to_value(), int.to_value());
        let mut out = String::new();
        compact(&float, &mut out);
        assert_eq!(out, r#"{"width":25,"x":0,"y":2.5}"#);
        let mut printed = String::new();
        compact(&Json::from_value(&json!(25.0)), &mut printed);
        assert_eq!(
            printed, "25",
            "a whole float from a serde_json value prints as JavaScript"
        );
    }

    #[test]
    fn an_edited_value_gets_the_key_order_it_was_read_with() {
        let read: Json = serde_json::from_str(
            r#"{"z": 1, "items": [{"type": "a", "ctime": 1}, {"type": "b", "ctime": 2, "x": 0}], "a": {}}"#,
        )
        .expect("json");
        let edited = json!({
            "a": {},
            "z": 2,
            "items": [{"ctime": 3, "type": "c"}, {"x": 1, "ctime": 2, "type": "b"}, {"ctime": 4, "type": "d", "new": true}],
            "added": [1.0, 2.5]
        });
        let ordered = pretty(&Json::ordered_like(&edited, &read));
        assert_eq!(
            ordered,
            "{\n  \"z\": 2,\n  \"items\": [\n    {\n      \"type\": \"c\",\n      \"ctime\": 3\n    },\n    {\n      \"type\": \"b\",\n      \"ctime\": 2,\n      \"x\": 1\n    },\n    {\n      \"type\": \"d\",\n      \"ctime\": 4,\n      \"new\": true\n    }\n  ],\n  \"a\": {},\n  \"added\": [\n    1,\n    2.5\n  ]\n}"
        );
    }
}
