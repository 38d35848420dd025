//! YAML text to JSON values, the way Obsidian reads properties: the YAML 1.2 core schema
//! (so `01234` is the number 1234 and `1.10` the number 1.1, as in Obsidian), dates stay
//! text, aliases are resolved, mapping keys become text.

use serde_json::{Number, Value};
use yaml_rust2::{Yaml, YamlLoader};

use super::error::FrontmatterError;

/// Properties in document order.
pub(crate) type OrderedProperties = Vec<(String, Value)>;

/// Parses a frontmatter block into its properties, in document order. `first_line` is the 1-based note line of
/// the block's first YAML line, so errors name lines of the note. An empty block (or one
/// holding only comments or `null`) has no properties.
pub(crate) fn parse_properties(
    yaml: &str,
    first_line: usize,
) -> Result<OrderedProperties, FrontmatterError> {
    let docs = YamlLoader::load_from_str(yaml).map_err(|e| FrontmatterError::InvalidYaml {
        line: first_line + e.marker().line().saturating_sub(1),
        message: e.info().to_owned(),
    })?;
    match docs.as_slice() {
        [] | [Yaml::Null] => Ok(Vec::new()),
        [Yaml::Hash(hash)] => Ok(hash
            .iter()
            .map(|(k, v)| (key_text(k), to_json(v)))
            .collect()),
        [other] => Err(FrontmatterError::NotAMapping {
            found: kind_name(other),
        }),
        _ => Err(FrontmatterError::NotAMapping {
            found: "several YAML documents",
        }),
    }
}

/// Parses one YAML scalar or flow value written on its own; `None` when it is not valid.
pub(crate) fn parse_value(yaml: &str) -> Option<Value> {
    match YamlLoader::load_from_str(yaml).ok()?.as_slice() {
        [one] => Some(to_json(one)),
        _ => None,
    }
}

/// The JSON form of a YAML node.
fn to_json(node: &Yaml) -> Value {
    match node {
        Yaml::Real(text) => real(text),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        Yaml::Hash(hash) => Value::Object(
            hash.iter()
                .map(|(k, v)| (key_text(k), to_json(v)))
                .collect(),
        ),
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    }
}

/// A float; the non-finite ones (`.inf`, `.nan`) have no JSON number and stay text.
fn real(text: &str) -> Value {
    node_f64(text)
        .and_then(Number::from_f64)
        .map_or_else(|| Value::String(text.to_owned()), Value::Number)
}

fn node_f64(text: &str) -> Option<f64> {
    Yaml::Real(text.to_owned()).as_f64()
}

/// A mapping key as text: scalars as written in canonical form, anything else as JSON.
fn key_text(key: &Yaml) -> String {
    match to_json(key) {
        Value::String(s) => s,
        Value::Null => "null".to_owned(),
        other => other.to_string(),
    }
}

fn kind_name(node: &Yaml) -> &'static str {
    match node {
        Yaml::Array(_) => "list",
        Yaml::Integer(_) | Yaml::Real(_) => "number",
        Yaml::Boolean(_) => "boolean",
        _ => "text",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, json};

    #[test]
    fn core_schema_types() {
        let map: Map<String, Value> = parse_properties(
            "zip: 01234\nversion: 1.10\ndate: 2024-01-05\nisbn: 978-3-16-148410-0\nok: true\nnone:\nq: '007'\ninf: .inf",
            2,
        )
        .unwrap()
        .into_iter()
        .collect();
        assert_eq!(map["zip"], json!(1234));
        assert_eq!(map["version"], json!(1.1));
        assert_eq!(map["date"], json!("2024-01-05"));
        assert_eq!(map["isbn"], json!("978-3-16-148410-0"));
        assert_eq!(map["ok"], json!(true));
        assert_eq!(map["none"], Value::Null);
        assert_eq!(map["q"], json!("007"));
        assert_eq!(map["inf"], json!(".inf"));
    }

    #[test]
    fn error_names_the_note_line() {
        let err = parse_properties("a: 1\nb: [1, 2\nc: 3", 2).unwrap_err();
        let FrontmatterError::InvalidYaml { line, .. } = err else {
            panic!("{err:?}")
        };
        assert!((3..=4).contains(&line), "line {line}");
    }

    #[test]
    fn non_mapping_blocks_are_refused() {
        assert!(matches!(
            parse_properties("- a\n- b", 2),
            Err(FrontmatterError::NotAMapping { found: "list" })
        ));
        assert_eq!(parse_properties("# only a comment", 2).unwrap(), []);
    }
}
