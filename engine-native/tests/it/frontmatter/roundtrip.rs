//! Property tests: random sequences of set/remove keep every other key's bytes identical,
//! and every set value reads back exactly.

use obsidian_tc::frontmatter::{Edit, apply, read};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Tricky neighbours, each a complete property (lines with their breaks).
const NEIGHBOURS: &[(&str, &str)] = &[
    ("zip", "zip: 01234\n"),
    ("isbn", "isbn: 978-3-16-148410-0\n"),
    ("version", "version: 1.10\n"),
    ("date", "date: 2024-01-05\n"),
    ("quoted", "quoted: 'single ''q'''\n"),
    ("flow", "flow: [a, \"b\", 3]\n"),
    ("tags", "tags:\n- x\n- y\n"),
    ("block", "block: |\n  one\n\n  two\n"),
    ("nested", "nested:\n  a: 1\n  b: [2]\n"),
    ("octal", "octal: 0o17\n"),
];

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(|f| json!(f)),
        "[ -~]{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "01234", "1.10", "true", "null", "~", "- x", "a: b", "#c", "é"
        ])
        .prop_map(|s| Value::String(s.to_owned())),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => scalar(),
        1 => prop::collection::vec(scalar(), 0..4).prop_map(Value::Array),
        1 => prop::collection::btree_map("[a-z]{1,4}", scalar(), 0..3)
            .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
    ]
}

#[derive(Debug, Clone)]
enum Step {
    Set(String, Value),
    Remove(String),
}

fn step() -> impl Strategy<Value = Step> {
    let key = prop::sample::select(vec!["e1", "e2", "e3", "e 4", "tags"]);
    prop_oneof![
        (key.clone(), value()).prop_map(|(k, v)| Step::Set(k.to_owned(), v)),
        key.prop_map(|k| Step::Remove(k.to_owned())),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn edits_keep_untouched_neighbours_byte_identical(
        crlf in any::<bool>(),
        steps in prop::collection::vec(step(), 1..8),
    ) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let block: String = NEIGHBOURS.iter().map(|(_, lines)| *lines).collect();
        let mut text = format!("---\n{block}---\nbody\n").replace('\n', eol);
        let mut touched_tags = false;
        for step in &steps {
            let (edit, key) = match step {
                Step::Set(k, v) => (Edit::Set { key: k.clone(), value: v.clone() }, k),
                Step::Remove(k) => (Edit::Remove { key: k.clone() }, k),
            };
            touched_tags |= key == "tags";
            let result = apply(&text, &edit).unwrap();
            let got = read(&result.text).unwrap().properties.get(key.as_str()).cloned();
            match step {
                Step::Set(_, v) => prop_assert_eq!(got, Some(v.clone())),
                Step::Remove(_) => prop_assert_eq!(got, None),
            }
            text = result.text;
        }
        for (key, lines) in NEIGHBOURS {
            if *key == "tags" && touched_tags {
                continue;
            }
            let lines = lines.replace('\n', eol);
            prop_assert!(text.contains(&lines), "{key} lost its bytes in {text:?}");
        }
        let tail = format!("---{eol}body{eol}");
        prop_assert!(text.ends_with(&tail));
        if crlf {
            prop_assert_eq!(text.matches('\n').count(), text.matches("\r\n").count());
        }
    }
}
