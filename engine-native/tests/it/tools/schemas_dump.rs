//! Every registered tool's input and output schema in one canonical form (keys sorted,
//! `required` sorted), so a change that should keep the schemas can be compared before and
//! after: `OBSIDIAN_TC_SCHEMA_DUMP=/some/file cargo test -p obsidian-tc --test it
//! tools::schemas_dump` writes one JSON line per tool there.

use serde_json::{Map, Value, json};

use crate::support::dispatch::Fixture;

/// `value` with every object's keys sorted and every `required` list sorted: two schemas
/// that differ only in property order compare equal.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for key in keys {
                let mut child = canonical(&map[key]);
                if key == "required"
                    && let Value::Array(names) = &mut child
                {
                    names.sort_by_key(Value::to_string);
                }
                out.insert(key.clone(), child);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// One canonical JSON line per registered tool, sorted by name.
fn schema_lines(fx: &Fixture) -> Vec<String> {
    let registry = fx.server.runtime().registry();
    let mut lines: Vec<String> = registry
        .tools()
        .map(|tool| {
            let line = json!({
                "name": tool.def.name,
                "input": canonical(&tool.def.input_schema),
                "output": tool.def.output_schema.as_ref().map(canonical),
            });
            line.to_string()
        })
        .collect();
    lines.sort();
    lines
}

#[test]
fn every_tool_has_a_canonical_schema_line_and_the_dump_is_written_on_request() {
    let fx = Fixture::new(json!({}));
    let lines = schema_lines(&fx);
    assert!(lines.len() > 100, "only {} tools registered", lines.len());
    for line in &lines {
        let parsed: Value = serde_json::from_str(line).expect("a JSON line");
        assert_eq!(canonical(&parsed).to_string(), *line, "canonical twice");
        assert_eq!(parsed["input"]["type"], "object", "{}", parsed["name"]);
    }
    if let Some(path) = std::env::var_os("OBSIDIAN_TC_SCHEMA_DUMP") {
        std::fs::write(&path, lines.join("\n") + "\n").expect("write the schema dump");
    }
}
