//! Tool arguments as typed structs: the input schema is generated from the same struct the
//! handler reads, so the two cannot drift.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::dispatch::PathArg;
use crate::errors::{ErrorCode, ToolError};

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

/// The JSON Schema 2020-12 of `T` (declare `T` with `#[serde(deny_unknown_fields)]`, so the
/// schema says `additionalProperties: false`).
pub fn input_schema<T: JsonSchema>() -> Value {
    schemars::schema_for!(T).to_value()
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
