//! Writes properties as YAML the way Obsidian does: `key: value` with text unquoted unless
//! YAML would read it as something else, lists as block lists (`  - item`), `key:` for an
//! empty value, nested mappings as indented blocks and anything deeper in flow style.

use serde_json::Value;

use super::yaml_value::parse_value;

/// The lines of one top-level property, each ended by `eol`.
pub(crate) fn property_lines(key: &str, value: &Value, eol: &str) -> String {
    let mut out = String::new();
    entry(key, value, 0, eol, &mut out);
    out
}

fn entry(key: &str, value: &Value, indent: usize, eol: &str, out: &mut String) {
    push_indent(out, indent);
    out.push_str(&text(key));
    out.push(':');
    match value {
        Value::Null => {}
        Value::Array(items) if !items.is_empty() => {
            for item in items {
                out.push_str(eol);
                push_indent(out, indent + 2);
                out.push_str("- ");
                out.push_str(&inline(item));
            }
        }
        Value::Object(map) if !map.is_empty() => {
            out.push_str(eol);
            for (k, v) in map {
                entry(k, v, indent + 2, eol, out);
            }
            return;
        }
        scalar => {
            out.push(' ');
            out.push_str(&inline(scalar));
        }
    }
    out.push_str(eol);
}

fn push_indent(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

/// A value on one line: scalars as in block context, collections in flow style.
fn inline(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => text(s),
        collection => flow(collection),
    }
}

/// Flow style: text always double-quoted, so `,` `[` `]` `{` `}` inside it are safe.
fn flow(value: &Value) -> String {
    match value {
        Value::String(s) => quoted(s),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let pairs: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", quoted(k), flow(v)))
                .collect();
            format!("{{{}}}", pairs.join(", "))
        }
        scalar => inline(scalar),
    }
}

/// Text as a plain scalar when YAML reads it back as that very text, else double-quoted.
fn text(s: &str) -> String {
    if plain_is_safe(s) && parse_value(s).as_ref().and_then(Value::as_str) == Some(s) {
        s.to_owned()
    } else {
        quoted(s)
    }
}

/// Conservative shape check before the parse check: no indicator first, no `...` first (a
/// key starting a line with it would read as the end of the YAML document), no `: ` or ` #`,
/// no surrounding whitespace, no line breaks or control characters.
fn plain_is_safe(s: &str) -> bool {
    const INDICATORS: &[char] = &[
        '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@',
        '`',
    ];
    let Some(first) = s.chars().next() else {
        return false;
    };
    !INDICATORS.contains(&first)
        && !s.starts_with("...")
        && s.trim() == s
        && !s.chars().any(char::is_control)
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && !matches!(s.to_ascii_lowercase().as_str(), "yes" | "no" | "on" | "off")
}

/// A YAML double-quoted scalar; JSON's escapes are all valid YAML escapes.
fn quoted(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lines(key: &str, value: Value) -> String {
        property_lines(key, &value, "\n")
    }

    #[test]
    fn obsidian_style_scalars() {
        assert_eq!(lines("title", json!("Hello world")), "title: Hello world\n");
        assert_eq!(lines("zip", json!("01234")), "zip: \"01234\"\n");
        assert_eq!(lines("v", json!("1.10")), "v: \"1.10\"\n");
        assert_eq!(lines("d", json!("2024-01-05")), "d: 2024-01-05\n");
        assert_eq!(lines("b", json!("true")), "b: \"true\"\n");
        assert_eq!(lines("b", json!("yes")), "b: \"yes\"\n");
        assert_eq!(lines("link", json!("[[Note]]")), "link: \"[[Note]]\"\n");
        assert_eq!(lines("n", json!(null)), "n:\n");
        assert_eq!(lines("n", json!(1.5)), "n: 1.5\n");
        assert_eq!(lines("c", json!(false)), "c: false\n");
        assert_eq!(lines("s", json!("a: b")), "s: \"a: b\"\n");
        assert_eq!(lines("s", json!("two\nlines")), "s: \"two\\nlines\"\n");
        assert_eq!(lines("my key", json!("")), "my key: \"\"\n");
        assert_eq!(lines("#k", json!(1)), "\"#k\": 1\n");
        // A line starting with `...` would end the YAML document (found by fuzzing).
        assert_eq!(lines("....", json!(true)), "\"....\": true\n");
        assert_eq!(lines("k", json!("...")), "k: \"...\"\n");
        assert_eq!(lines("a...", json!("b...")), "a...: b...\n");
    }

    #[test]
    fn lists_and_maps() {
        assert_eq!(
            lines("tags", json!(["a", "b c"])),
            "tags:\n  - a\n  - b c\n"
        );
        assert_eq!(lines("tags", json!([])), "tags: []\n");
        assert_eq!(
            lines("m", json!({"x": 1, "w": [1, "a, b"], "z": {}})),
            "m:\n  w:\n    - 1\n    - a, b\n  x: 1\n  z: {}\n"
        );
        assert_eq!(
            lines("l", json!([[1, "a"], {"k": "v"}])),
            "l:\n  - [1, \"a\"]\n  - {\"k\": \"v\"}\n"
        );
        assert_eq!(
            lines("t", json!(["x"])).replace('\n', "\r\n"),
            property_lines("t", &json!(["x"]), "\r\n")
        );
    }
}
