//! Tool arguments as typed structs: the input schema is generated from the same struct the
//! handler reads, so the two cannot drift.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::errors::{ErrorCode, ToolError};
use crate::server::PathArg;

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
    let mut schema = schemars::schema_for!(T).to_value();
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
