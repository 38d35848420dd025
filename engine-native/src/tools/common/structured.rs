//! Typed results: the output schema comes from the same struct the handler serializes.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::errors::ToolError;
use crate::tools::common::args::serialized_schema;

/// The JSON Schema of the result type `T` as the handler serializes it.
pub fn output_schema<T: JsonSchema>() -> Option<Value> {
    Some(serialized_schema::<T>())
}

/// The structured result of `result`.
pub fn structured<T: Serialize>(result: &T) -> Result<Value, ToolError> {
    serde_json::to_value(result)
        .map_err(|error| ToolError::internal(format!("cannot encode the result: {error}")))
}
