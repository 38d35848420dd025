//! Arguments for a tool, built from its input schema: every required property gets a value
//! that names something in the public part of the fixture vaults, chosen by the property's
//! name and type (then by its `enum`, `const`, `default` or bounds).

use serde_json::{Map, Value, json};

/// The public file of the fixture (see [`super::vaults`]) a tool's path arguments name: one
/// of the kind the tool's name says it reads (canvas, base, board, attachment, drawing,
/// memory entity), else a note.
pub fn fixture_path(tool: &str) -> &'static str {
    [
        ("canvas", "Public/map.canvas"),
        ("base", "Public/table.base"),
        ("kanban", "Public/board.md"),
        ("attachment", "Public/pic.png"),
        ("excalidraw", "Public/drawing.excalidraw.md"),
        ("entity", "Public/Memory/merger.md"),
    ]
    .into_iter()
    .find(|(kind, _)| tool.contains(kind))
    .map_or("Public/alpha.md", |(_, path)| path)
}

/// The arguments for a tool whose input schema is `schema`, with `path` as the value of
/// every note path.
pub fn arguments(schema: &Value, path: &str) -> Value {
    object(schema, schema, path)
}

/// The arguments of the tools whose schema cannot say what a call needs: `search_jsonlogic`
/// takes its rule as `query` or `logic`, so neither is required; `knowledge_challenge`'s
/// `proposal` must be at least 10 characters.
pub fn given(tool: &str) -> Option<Value> {
    match tool {
        "search_jsonlogic" => Some(json!({"logic": {"in": ["shared", {"var": "file.tags"}]}})),
        "knowledge_challenge" => Some(json!({"proposal": "a shared plan for the Public notes"})),
        _ => None,
    }
}

/// An object with the required properties of `schema` filled.
fn object(root: &Value, schema: &Value, path: &str) -> Value {
    let schema = resolve(root, schema);
    let mut out = Map::new();
    let required = schema["required"].as_array().cloned().unwrap_or_default();
    for name in required.iter().filter_map(Value::as_str) {
        let property = &schema["properties"][name];
        out.insert(name.to_owned(), value(root, name, property, path));
    }
    Value::Object(out)
}

/// `schema` with a `$ref` to `#/$defs/...` followed, or the first branch of an
/// `anyOf`/`oneOf` that is not `null`.
fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap_or_default();
        return resolve(root, &root["$defs"][name]);
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(branches) = schema[key].as_array()
            && let Some(branch) = branches.iter().find(|b| b["type"] != "null")
        {
            return resolve(root, branch);
        }
    }
    schema
}

/// The type named by `schema` (the first non-null one of a list).
fn type_of(schema: &Value) -> &str {
    match &schema["type"] {
        Value::String(kind) => kind,
        Value::Array(kinds) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|kind| *kind != "null")
            .unwrap_or("string"),
        _ if schema.get("properties").is_some() => "object",
        _ => "string",
    }
}

/// A value for the property `name` described by `schema`.
fn value(root: &Value, name: &str, schema: &Value, path: &str) -> Value {
    let schema = resolve(root, schema);
    if let Some(constant) = schema.get("const") {
        return constant.clone();
    }
    if let Some(first) = schema["enum"].as_array().and_then(|e| e.first()) {
        return first.clone();
    }
    match type_of(schema) {
        "object" => object(root, schema, path),
        "array" => json!([value(root, singular(name), &schema["items"], path)]),
        "integer" | "number" => schema
            .get("minimum")
            .cloned()
            .filter(|min| min.as_f64().unwrap_or(0.0) > 0.0)
            .unwrap_or(json!(1)),
        "boolean" => json!(false),
        _ => json!(text(
            name,
            schema["description"].as_str().unwrap_or(""),
            path
        )),
    }
}

/// `paths` → `path`, `tags` → `tag`.
fn singular(name: &str) -> &str {
    name.strip_suffix('s').unwrap_or(name)
}

/// A string for a property called `name`, described as `description`.
fn text(name: &str, description: &str, path: &str) -> String {
    let name = name.to_ascii_lowercase();
    let description = description.to_ascii_lowercase();
    let is = |words: &[&str]| words.iter().any(|word| name.contains(word));
    if is(&["folder", "dir", "prefix"]) {
        "Public".to_owned()
    } else if name == "name" && description.contains("tool") {
        "search_vault".to_owned()
    } else if name == "name" && description.contains("entity") {
        // An entity is named by its note's name: the note `path` names, in the memory folder.
        path.rsplit('/')
            .next()
            .unwrap_or(path)
            .trim_end_matches(".md")
            .to_owned()
    } else if is(&["path", "note", "file", "source", "target", "from"])
        || ["path", "note"]
            .iter()
            .any(|word| description.contains(word))
    {
        path.to_owned()
    } else if is(&["tag"]) {
        "shared".to_owned()
    } else if is(&["date", "day"]) {
        "2026-01-01".to_owned()
    } else if is(&["key", "property", "field"]) {
        "status".to_owned()
    } else {
        "merger".to_owned()
    }
}
