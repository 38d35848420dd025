//! JSON Schema validation (a 2020-12 subset): the one validator of the server. It checks the
//! config file against the config schema and every tool call against its tool's input schema,
//! and reports every problem with its [`JsonPath`], not only the first.

pub mod args;
pub mod json_path;
pub mod validate;

pub use args::validate_args;
pub use json_path::JsonPath;
pub use validate::{KNOWN_KEYWORDS, schema_problems};
