//! Exports for [`engine_core::hash`]: RFC 8785 canonical JSON, `args_hash`, the bridge
//! tool-list hash and SHA-256 of a UTF-8 string. Every output is a plain string.
//!
//! Unknown input fields are ignored rather than refused: serde-wasm-bindgen reads only the
//! declared fields of a struct, so `deny_unknown_fields` would hold natively but not in WASM.

use engine_core::hash::{self, BridgeTool, HashError};
use serde::Deserialize;
use serde_json::Value;

use super::ApiError;

/// Input of [`canonical_json`].
#[derive(Debug, Clone, Deserialize)]
pub struct CanonicalJsonInput {
    /// Any JSON value.
    pub value: Value,
}

/// Input of [`args_hash`].
#[derive(Debug, Clone, Deserialize)]
pub struct ArgsHashInput {
    /// The tool's name.
    pub tool_name: String,
    /// The call's arguments (any JSON value, usually an object).
    pub args: Value,
}

/// Input of [`tool_list_hash`].
#[derive(Debug, Clone, Deserialize)]
pub struct ToolListHashInput {
    /// The registry's tools in registry order: `{name, description?, inputSchema?, …}`.
    pub tools: Vec<BridgeTool>,
}

/// Input of [`sha256_hex`].
#[derive(Debug, Clone, Deserialize)]
pub struct Sha256HexInput {
    /// The text whose UTF-8 bytes are hashed.
    pub text: String,
}

fn to_api(error: HashError) -> ApiError {
    match error {
        HashError::NonFiniteNumber => ApiError::invalid_input(error.to_string()),
    }
}

/// The RFC 8785 canonical JSON text of `value`.
pub fn canonical_json(input: CanonicalJsonInput) -> Result<String, ApiError> {
    hash::canonical_json(&input.value).map_err(to_api)
}

/// 32 lowercase hex characters of SHA-256 over the canonical JSON of `[tool_name, args]`.
pub fn args_hash(input: ArgsHashInput) -> Result<String, ApiError> {
    hash::args_hash(&input.tool_name, &input.args).map_err(to_api)
}

/// The Bridge Protocol v1 tool-list hash (64 lowercase hex characters).
pub fn tool_list_hash(input: ToolListHashInput) -> Result<String, ApiError> {
    hash::tool_list_hash(&input.tools).map_err(to_api)
}

/// Lowercase hex SHA-256 of the UTF-8 bytes of `text`.
pub fn sha256_hex(input: Sha256HexInput) -> Result<String, ApiError> {
    Ok(hash::sha256_hex(input.text.as_bytes()))
}
