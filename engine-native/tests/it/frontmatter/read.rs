//! Reading properties, their types, and per-note predicates.

use obsidian_tc::frontmatter::{
    FrontmatterError, PropertyQuery, PropertyType, matches, property, property_types, read,
};
use serde_json::{Value, json};

const NOTE: &str = "---
zip: 01234
code: \"01234\"
isbn: 978-3-16-148410-0
version: 1.10
date: 2024-01-05
when: 2024-01-05T09:30:00
done: false
tags:
  - a
  - b
aliases: [x, 'y, z']
single: solo
nested:
  k: v
empty:
---
body
";

#[test]
fn reads_typed_values_in_order() {
    let fm = read(NOTE).unwrap();
    assert_eq!(
        fm.keys,
        [
            "zip", "code", "isbn", "version", "date", "when", "done", "tags", "aliases", "single",
            "nested", "empty"
        ]
    );
    let p = &fm.properties;
    assert_eq!(p["zip"], json!(1234));
    assert_eq!(p["code"], json!("01234"));
    assert_eq!(p["isbn"], json!("978-3-16-148410-0"));
    assert_eq!(p["version"], json!(1.1));
    assert_eq!(p["date"], json!("2024-01-05"));
    assert_eq!(p["done"], json!(false));
    assert_eq!(p["tags"], json!(["a", "b"]));
    assert_eq!(p["aliases"], json!(["x", "y, z"]));
    assert_eq!(p["nested"], json!({"k": "v"}));
    assert_eq!(p["empty"], Value::Null);
    let range = fm.yaml_range.unwrap();
    assert!(NOTE[range.start..range.end].starts_with("zip: 01234"));
}

#[test]
fn property_lookup() {
    assert_eq!(property(NOTE, "single").unwrap(), Some(json!("solo")));
    assert_eq!(property(NOTE, "missing").unwrap(), None);
    assert_eq!(property("no frontmatter", "a").unwrap(), None);
    let fm = read("# just a body\n").unwrap();
    assert!(fm.properties.is_empty() && fm.yaml_range.is_none());
}

#[test]
fn invalid_yaml_names_the_note_line() {
    let text = "---\na: 1\nb: 2\nc: [unclosed\nd: 4\n---\n";
    let err = read(text).unwrap_err();
    let FrontmatterError::InvalidYaml { line, .. } = &err else {
        panic!("{err:?}")
    };
    assert!((4..=6).contains(line), "line {line}");
    assert!(err.to_string().contains(&format!("line {line}")));
    let dup = read("---\na: 1\na: 2\n---\n").unwrap_err();
    assert!(
        matches!(dup, FrontmatterError::InvalidYaml { line: 3, .. }),
        "{dup:?}"
    );
    assert!(matches!(
        read("---\njust text\n---\n"),
        Err(FrontmatterError::NotAMapping { found: "text" })
    ));
}

#[test]
fn types_of_one_note() {
    let types = property_types(NOTE).unwrap();
    let expected = [
        ("zip", PropertyType::Number),
        ("code", PropertyType::Text),
        ("isbn", PropertyType::Text),
        ("version", PropertyType::Number),
        ("date", PropertyType::Date),
        ("when", PropertyType::Datetime),
        ("done", PropertyType::Checkbox),
        ("tags", PropertyType::List),
        ("aliases", PropertyType::List),
        ("single", PropertyType::Text),
        ("nested", PropertyType::Object),
        ("empty", PropertyType::Empty),
    ];
    let expected: Vec<(String, PropertyType)> =
        expected.iter().map(|(k, t)| (k.to_string(), *t)).collect();
    assert_eq!(types, expected);
}

#[test]
fn predicates() {
    let q = |json: Value| serde_json::from_value::<PropertyQuery>(json).unwrap();
    assert!(matches(NOTE, &q(json!({"op": "exists", "key": "empty"}))));
    assert!(!matches(NOTE, &q(json!({"op": "exists", "key": "nope"}))));
    assert!(matches(
        NOTE,
        &q(json!({"op": "equals", "key": "zip", "value": 1234}))
    ));
    assert!(!matches(
        NOTE,
        &q(json!({"op": "equals", "key": "zip", "value": "01234"}))
    ));
    assert!(matches(
        NOTE,
        &q(json!({"op": "contains", "key": "tags", "value": "b"}))
    ));
    assert!(matches(
        NOTE,
        &q(json!({"op": "contains", "key": "aliases", "value": "y, z"}))
    ));
    assert!(!matches(
        NOTE,
        &q(json!({"op": "contains", "key": "tags", "value": "c"}))
    ));
    assert!(matches(
        NOTE,
        &q(json!({"op": "contains", "key": "single", "value": "solo"}))
    ));
    let broken = "---\na: [\n---\n";
    assert!(!matches(broken, &q(json!({"op": "exists", "key": "a"}))));
}
