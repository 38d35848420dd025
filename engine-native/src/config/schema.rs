//! The published JSON Schema (2020-12) of the config file, generated from the Rust types.

use serde_json::Value;

use crate::config::model::ServerConfig;

/// Where the schema is published, relative to the repository root.
pub const SCHEMA_FILE: &str = "schema/config.schema.json";

/// The JSON Schema of the config file, as a JSON value.
pub fn config_schema() -> Value {
    schemars::schema_for!(ServerConfig).to_value()
}

/// The JSON Schema as the text committed to [`SCHEMA_FILE`] (pretty, newline-terminated).
pub fn config_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&config_schema())
        .unwrap_or_else(|e| unreachable!("a JSON value always serializes: {e}"));
    text.push('\n');
    text
}
