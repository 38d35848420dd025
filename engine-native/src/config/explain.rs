//! What `config show` and `config explain` print: the effective config with secrets redacted,
//! and every value with its source.

use serde::Serialize;
use serde_json::Value;

use crate::config::load::LoadedConfig;
use crate::config::provenance::leaves;
use crate::schema::JsonPath;

/// The config values never printed.
pub const SECRET_PATHS: [&str; 2] = ["auth.jwtSecret", "embeddings.apiKey"];

/// What a secret is printed as.
pub const REDACTED: &str = "<redacted>";

/// One effective value and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExplainedValue {
    /// Where the value is, e.g. `transports.http.port`.
    pub path: String,
    /// The value (secrets redacted).
    pub value: Value,
    /// Where it came from, e.g. `env OBSIDIAN_TC_HTTP_PORT`.
    pub source: String,
}

impl LoadedConfig {
    /// The effective configuration as JSON, secrets redacted.
    pub fn to_redacted_json(&self) -> Value {
        let mut value = serde_json::to_value(&self.config)
            .unwrap_or_else(|e| unreachable!("a loaded config serializes: {e}"));
        for secret in SECRET_PATHS {
            if let Some(slot) = value.pointer_mut(&JsonPath::keys(secret).to_pointer()) {
                *slot = Value::String(REDACTED.to_owned());
            }
        }
        value
    }

    /// Every effective value (secrets redacted) with its source, in path order.
    pub fn explain(&self) -> Vec<ExplainedValue> {
        let value = self.to_redacted_json();
        leaves(&JsonPath::root(), &value)
            .into_iter()
            .map(|(path, leaf)| ExplainedValue {
                source: self
                    .provenance
                    .source_of(&path)
                    .map_or_else(|| "unknown".to_owned(), ToString::to_string),
                path: path.to_string(),
                value: leaf.clone(),
            })
            .collect()
    }
}
