//! JSON that keeps its key order, and the layout Obsidian writes canvases in.
//!
//! serde_json's `Map` sorts keys (the workspace does not enable `preserve_order`), which
//! would reorder every node of a canvas on the first edit. [`Json`] keeps objects as
//! ordered pairs, so unknown keys and their order survive; [`write_canvas`] prints the
//! canvas the way Obsidian does (a tab-indented top level, one compact node or edge per
//! line), so a canvas Obsidian wrote is reproduced byte for byte.

use std::fmt::{self, Write as _};

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

/// A JSON value whose objects keep their key order.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Json {
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
    fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<Json, E> {
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
pub(super) fn compact(value: &Json, out: &mut String) {
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
    match n.as_f64() {
        Some(f) if !n.is_i64() && !n.is_u64() && f.fract() == 0.0 && f.abs() < 1e15 => {
            let _ = write!(out, "{f:.0}");
        }
        _ => {
            let _ = write!(out, "{n}");
        }
    }
}

/// A JSON string literal (serde_json escapes exactly what `JSON.stringify` escapes).
fn string(s: &str, out: &mut String) {
    out.push_str(&Value::String(s.to_owned()).to_string());
}

/// The canvas document `root` in Obsidian's layout: `{`, each top-level key on its own
/// tab-indented line, the `nodes` and `edges` arrays with one compact item per line
/// (indented by two tabs), `}` without a trailing newline.
pub(super) fn write_canvas(root: &[(String, Json)]) -> String {
    let mut out = String::from("{\n");
    for (i, (key, value)) in root.iter().enumerate() {
        out.push('\t');
        string(key, &mut out);
        out.push(':');
        match value {
            Json::Array(items) if !items.is_empty() => {
                out.push_str("[\n");
                for (j, item) in items.iter().enumerate() {
                    out.push_str("\t\t");
                    compact(item, &mut out);
                    out.push_str(if j + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str("\t]");
            }
            _ => compact(value, &mut out),
        }
        out.push_str(if i + 1 < root.len() { ",\n" } else { "\n" });
    }
    out.push('}');
    out
}
