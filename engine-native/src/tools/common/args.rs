//! Tool arguments as typed structs: the input schema is generated from the same struct the
//! handler reads, so the two cannot drift.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::PathArg;

/// A `path` argument the caller reads.
pub const PATH_READ: &[PathArg] = &[PathArg {
    name: "path",
    op: AclOp::Read,
}];

/// A `path` argument read (previews and errors of an edit show the note) and written.
pub const PATH_READ_WRITE: &[PathArg] = &[
    PathArg {
        name: "path",
        op: AclOp::Read,
    },
    PathArg {
        name: "path",
        op: AclOp::Write,
    },
];

/// The JSON Schema 2020-12 of `T`: the one generator of every schema a tool advertises
/// (arguments, results, errors). Declare argument structs with
/// `#[serde(deny_unknown_fields)]`, so the schema says `additionalProperties: false`.
///
/// The integer formats schemars adds (`uint`, `int64`, ...) are not JSON Schema formats:
/// validators ignore them and some clients warn about each one, so they are left out (the
/// `minimum` bounds stay).
pub fn input_schema<T: JsonSchema>() -> Value {
    generated_schema::<T>(SchemaSettings::draft2020_12().for_deserialize())
}

/// The JSON Schema 2020-12 of `T` as serialized, for results: a field serde leaves out when
/// empty (`skip_serializing_if`) is not required, a field always written is.
///
/// Result objects are closed (`additionalProperties: false`, as `deny_unknown_fields` makes
/// argument objects): a field the handler writes but the struct does not declare cannot slip
/// past a strict client unseen; a map (`additionalProperties` given) stays open.
pub fn serialized_schema<T: JsonSchema>() -> Value {
    let mut schema = generated_schema::<T>(SchemaSettings::draft2020_12().for_serialize());
    close_objects(&mut schema);
    schema
}

/// Adds `additionalProperties: false` to every schema that lists `properties` and says
/// nothing of other keys, except where the keys of one object are split over several schemas
/// (`allOf`, `oneOf`, `anyOf`: a flattened field), which JSON Schema cannot close one by one.
fn close_objects(schema: &mut Value) {
    close_schema(schema, true);
}

fn close_schema(schema: &mut Value, closable: bool) {
    let Value::Object(map) = schema else {
        return;
    };
    let combined = ["allOf", "oneOf", "anyOf"]
        .iter()
        .any(|k| map.contains_key(*k));
    if closable
        && !combined
        && map.contains_key("properties")
        && !map.contains_key("additionalProperties")
    {
        map.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    for (key, child) in map.iter_mut() {
        match (key.as_str(), child) {
            // Names to schemas, not a schema.
            ("properties" | "$defs", Value::Object(named)) => {
                named.values_mut().for_each(|s| close_schema(s, true));
            }
            // Parts of one object's keys.
            ("allOf" | "oneOf" | "anyOf", Value::Array(parts)) => {
                parts.iter_mut().for_each(|s| close_schema(s, false));
            }
            // Values, not schemas.
            ("default" | "examples" | "const" | "enum", _) => {}
            (_, Value::Array(items)) => items.iter_mut().for_each(|s| close_schema(s, true)),
            (_, child) => close_schema(child, true),
        }
    }
}

fn generated_schema<T: JsonSchema>(settings: SchemaSettings) -> Value {
    let mut schema = settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    drop_integer_formats(&mut schema);
    schema
}

/// Removes every `format` whose value is one of Rust's integer or float type names.
fn drop_integer_formats(schema: &mut Value) {
    const RUST_NUMBER_FORMATS: [&str; 14] = [
        "int", "uint", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
        "int128", "uint128", "float", "double",
    ];
    match schema {
        Value::Object(map) => {
            if map
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(|format| RUST_NUMBER_FORMATS.contains(&format))
            {
                map.remove("format");
            }
            map.values_mut().for_each(drop_integer_formats);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_integer_formats),
        _ => {}
    }
}

/// The handler's arguments as `T`. Dispatch validated them against `T`'s schema already, so
/// a failure here means the schema and the struct disagree.
pub fn parse<T: DeserializeOwned>(args: Value) -> Result<T, ToolError> {
    serde_json::from_value(args).map_err(|error| {
        ToolError::new(
            ErrorCode::ValidationError,
            format!("the arguments do not fit the tool: {error}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use schemars::JsonSchema;
    use serde::Serialize;
    use serde_json::json;

    use super::serialized_schema;
    use crate::schema::schema_problems;

    #[derive(Serialize, JsonSchema)]
    struct Inner {
        name: String,
    }

    /// A result with a field named like a schema keyword, a nested struct, a map, and a list
    /// left out when empty.
    #[derive(Serialize, JsonSchema)]
    struct Outcome {
        properties: Inner,
        counts: BTreeMap<String, u32>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        skipped: Vec<String>,
    }

    #[test]
    fn result_objects_are_closed_maps_stay_open_and_skipped_fields_are_optional() {
        let schema = serialized_schema::<Outcome>();
        let fits = |value| schema_problems(&value, &schema).is_empty();
        assert!(fits(
            json!({"properties": {"name": "a"}, "counts": {"x": 1}})
        ));
        assert!(fits(
            json!({"properties": {"name": "a"}, "counts": {}, "skipped": ["b"]})
        ));
        assert!(!fits(
            json!({"properties": {"name": "a"}, "counts": {}, "extra": 1})
        ));
        assert!(!fits(
            json!({"properties": {"name": "a", "extra": 1}, "counts": {}})
        ));
        assert!(
            schema["properties"].get("additionalProperties").is_none(),
            "the map of property names is not a schema, though one is named `properties`: {schema}"
        );
    }
}
