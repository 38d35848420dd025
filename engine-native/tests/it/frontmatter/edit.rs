//! Line-level frontmatter edits: the edited key reads back as set, every other byte stays.

use obsidian_tc::frontmatter::{Edit, FrontmatterError, apply, property, read};
use serde_json::{Map, Value, json};

/// A block with every tricky neighbour: values YAML re-serialization would change.
const TRICKY: &str = "---
# a leading comment
zip: 01234
isbn: 978-3-16-148410-0
version: 1.10
date: 2024-01-05
quoted: 'it''s \"here\"'
dq: \"tab\\there\"
flow: [a, 'b, c', 3]
tags:
- one
  # an indented comment
- two
body: |
  first line

  third line
folded: >-
  folded
  text
nested:
  inner: 007
  list:
    - x
empty:
target: old   # trailing comment
last: 1
# a trailing comment

---
# Body

text
";

fn set(text: &str, key: &str, value: Value) -> String {
    apply(
        text,
        &Edit::Set {
            key: key.to_owned(),
            value,
        },
    )
    .unwrap()
    .text
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

#[test]
fn set_existing_key_changes_only_its_line() {
    let out = set(TRICKY, "target", json!("new value"));
    assert_eq!(
        out,
        TRICKY.replace("target: old   # trailing comment\n", "target: new value\n")
    );
    assert_eq!(property(&out, "target").unwrap(), Some(json!("new value")));
}

#[test]
fn set_every_key_keeps_all_other_lines() {
    let before = read(TRICKY).unwrap();
    for key in &before.keys {
        let out = set(TRICKY, key, json!(["p", "q"]));
        let after = read(&out).unwrap();
        assert_eq!(after.properties[key], json!(["p", "q"]), "{key}");
        for other in before.keys.iter().filter(|k| *k != key) {
            assert_eq!(after.properties[other], before.properties[other], "{other}");
        }
        // Everything outside the edited key's lines is byte-identical: removing it from both
        // sides gives the same text.
        let removed_before = remove(TRICKY, key);
        let removed_after = remove(&out, key);
        assert_eq!(removed_before, removed_after, "{key}");
    }
}

fn remove(text: &str, key: &str) -> String {
    let result = apply(
        text,
        &Edit::Remove {
            key: key.to_owned(),
        },
    )
    .unwrap();
    assert!(result.changed);
    result.text
}

#[test]
fn remove_deletes_exactly_the_key_lines() {
    let out = remove(TRICKY, "tags");
    assert_eq!(
        out,
        TRICKY.replace("tags:\n- one\n  # an indented comment\n- two\n", "")
    );
    let out = remove(TRICKY, "body");
    assert_eq!(
        out,
        TRICKY.replace("body: |\n  first line\n\n  third line\n", "")
    );
    let out = remove(TRICKY, "nested");
    assert_eq!(
        out,
        TRICKY.replace("nested:\n  inner: 007\n  list:\n    - x\n", "")
    );
}

#[test]
fn remove_missing_key_is_a_no_op() {
    let result = apply(
        TRICKY,
        &Edit::Remove {
            key: "absent".to_owned(),
        },
    )
    .unwrap();
    assert!(!result.changed);
    assert_eq!(result.text, TRICKY);
    assert_eq!(result.before, result.after);
}

#[test]
fn new_key_is_appended_at_the_end_of_the_block() {
    let out = set(TRICKY, "zip2", json!("01234"));
    assert_eq!(
        out,
        TRICKY.replace(
            "# a trailing comment\n\n---\n",
            "# a trailing comment\n\nzip2: \"01234\"\n---\n"
        )
    );
    assert_eq!(property(&out, "zip2").unwrap(), Some(json!("01234")));
    assert_eq!(property(&out, "zip").unwrap(), Some(json!(1234)));
}

#[test]
fn setting_the_same_value_changes_nothing() {
    for (key, value) in [
        ("zip", json!(1234)),
        ("flow", json!(["a", "b, c", 3])),
        ("empty", Value::Null),
    ] {
        let result = apply(
            TRICKY,
            &Edit::Set {
                key: key.to_owned(),
                value,
            },
        )
        .unwrap();
        assert!(!result.changed, "{key}");
        assert_eq!(result.text, TRICKY);
    }
}

#[test]
fn notes_without_frontmatter_get_a_block_at_the_top() {
    assert_eq!(set("# Title\n", "a", json!(1)), "---\na: 1\n---\n# Title\n");
    assert_eq!(set("", "a", json!("x")), "---\na: x\n---\n");
    assert_eq!(
        set("\u{feff}line\r\nline\r\n", "tags", json!(["t"])),
        "\u{feff}---\r\ntags:\r\n  - t\r\n---\r\nline\r\nline\r\n"
    );
    let untouched = apply(
        "# Title\n",
        &Edit::Remove {
            key: "a".to_owned(),
        },
    )
    .unwrap();
    assert!(!untouched.changed);
}

#[test]
fn removing_the_only_line_removes_the_block() {
    assert_eq!(remove("---\na: 1\n---\nbody\n", "a"), "body\n");
    assert_eq!(remove("\u{feff}---\r\na: 1\r\n---\r\n", "a"), "\u{feff}");
    // A comment or a second line keeps the block.
    assert_eq!(remove("---\n# c\na: 1\n---\nx", "a"), "---\n# c\n---\nx");
    assert_eq!(remove("---\na: 1\nb: 2\n---\nx", "a"), "---\nb: 2\n---\nx");
}

#[test]
fn values_yaml_cannot_hold_are_refused() {
    let result = apply(
        TRICKY,
        &Edit::Set {
            key: "big".to_owned(),
            value: json!(u64::MAX),
        },
    );
    assert_eq!(
        result,
        Err(FrontmatterError::ValueNotRepresentable {
            key: "big".to_owned()
        })
    );
}

#[test]
fn empty_blocks_take_new_keys() {
    assert_eq!(set("---\n---\nx", "a", json!(true)), "---\na: true\n---\nx");
    assert_eq!(
        set("---\n\n---\nx", "a", json!(true)),
        "---\n\na: true\n---\nx"
    );
}

#[test]
fn crlf_and_bom_are_kept() {
    let text = "\u{feff}---\r\nzip: 01234\r\ntags:\r\n  - a\r\nv: 1.10\r\n---\r\nbody\r\n";
    let out = set(text, "tags", json!(["a", "b"]));
    assert_eq!(
        out,
        "\u{feff}---\r\nzip: 01234\r\ntags:\r\n  - a\r\n  - b\r\nv: 1.10\r\n---\r\nbody\r\n"
    );
    let out = set(&out, "new", json!("x"));
    assert!(
        out.ends_with("v: 1.10\r\nnew: x\r\n---\r\nbody\r\n"),
        "{out:?}"
    );
}

#[test]
fn merge_unions_lists_and_sets_the_rest() {
    let text = "---\ntags: [a, b]\nzip: 01234\nstatus: draft\n---\n";
    let result = apply(
        text,
        &Edit::Merge {
            properties: object(json!({"tags": ["b", "c"], "status": "done", "new": 2})),
        },
    )
    .unwrap();
    assert_eq!(
        result.after,
        object(json!({"tags": ["a", "b", "c"], "zip": 1234, "status": "done", "new": 2}))
    );
    assert!(result.text.contains("zip: 01234\n"));
    assert_eq!(result.before["status"], json!("draft"));
}

#[test]
fn replace_rewrites_the_whole_block_even_when_broken() {
    let text = "---\na: [unclosed\nb: 2\n---\nbody\n";
    let refused = apply(
        text,
        &Edit::Set {
            key: "c".to_owned(),
            value: json!(1),
        },
    );
    assert!(matches!(refused, Err(FrontmatterError::InvalidYaml { .. })));
    let result = apply(
        text,
        &Edit::Replace {
            properties: object(json!({"title": "T", "tags": ["x"]})),
        },
    )
    .unwrap();
    assert_eq!(result.text, "---\ntags:\n  - x\ntitle: T\n---\nbody\n");
    assert!(result.before.is_empty());
    assert_eq!(
        apply(
            text,
            &Edit::Replace {
                properties: Map::new()
            }
        )
        .unwrap()
        .text,
        "---\n---\nbody\n"
    );
}

#[test]
fn invalid_keys_are_refused_without_change() {
    for key in ["", " a", "a\nb", "a: b", "a:"] {
        let result = apply(
            TRICKY,
            &Edit::Set {
                key: key.to_owned(),
                value: json!(1),
            },
        );
        assert!(
            matches!(result, Err(FrontmatterError::InvalidKey { .. })),
            "{key:?}"
        );
    }
}

#[test]
fn special_keys_and_values_round_trip() {
    let cases = [
        ("my key", json!("a: b # c")),
        ("#hash", json!("- dash")),
        ("123", json!("true")),
        ("k", json!("  padded  ")),
        ("k", json!("multi\nline\ttab")),
        ("k", json!("[[Wiki link]]")),
        ("k", json!(-0.5)),
        ("k", json!(1e300)),
        ("k", json!(1e-7)),
        ("k", json!(i64::MIN)),
        ("k", json!({"a": {"b": [1, {"c": null}]}, "d": []})),
        ("k", json!(["", null, true, "null", "01"])),
        ("k", json!("émoji 🎉 and 'quotes' \"both\"")),
    ];
    for (key, value) in cases {
        let out = set(TRICKY, key, value.clone());
        assert_eq!(property(&out, key).unwrap(), Some(value), "{key}");
    }
}

#[test]
fn unsupported_layouts_are_refused() {
    let text = "---\n{a: 1, b: 2}\n---\n";
    let result = apply(
        text,
        &Edit::Set {
            key: "a".to_owned(),
            value: json!(2),
        },
    );
    assert!(matches!(
        result,
        Err(FrontmatterError::UnsupportedLayout { .. })
    ));
}

#[test]
fn a_key_starting_with_dots_is_quoted_and_edits_again() {
    // Found by the frontmatter_edit fuzz target: `....: true` written unquoted at the start
    // of a line reads as the end of the YAML document, so the next edit was refused.
    let edit = Edit::Merge {
        properties: object(json!({"....": true})),
    };
    let first = apply("body text\n", &edit).expect("merge");
    assert_eq!(first.text, "---\n\"....\": true\n---\nbody text\n");
    let again = apply(&first.text, &edit).expect("the same edit applies again");
    assert!(!again.changed);
    assert_eq!(
        set(&first.text, "...more", json!("x")),
        "---\n\"....\": true\n\"...more\": x\n---\nbody text\n"
    );
}
