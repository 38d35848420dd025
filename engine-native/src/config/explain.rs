//! What `config show` and `config explain` print: the effective config with secrets redacted,
//! and every value with its source.

use serde::Serialize;
use serde_json::Value;

use crate::config::load::LoadedConfig;
use crate::config::provenance::leaves;
use crate::schema::JsonPath;

/// The config values never printed (besides each vault's companion token).
pub const SECRET_PATHS: [&str; 3] = ["auth.jwtSecret", "auth.token", "embeddings.apiKey"];

/// Replaces every secret in `config` (a serialized configuration) with `shown`: the values at
/// [`SECRET_PATHS`] and each vault's `companion.token`.
pub fn redact_secrets(config: &mut Value, shown: &str) {
    for secret in SECRET_PATHS {
        if let Some(slot) = config.pointer_mut(&JsonPath::keys(secret).to_pointer()) {
            *slot = Value::String(shown.to_owned());
        }
    }
    let vaults = config.get_mut("vaults").and_then(Value::as_array_mut);
    for vault in vaults.into_iter().flatten() {
        if let Some(token) = vault.pointer_mut("/companion/token") {
            *token = Value::String(shown.to_owned());
        }
    }
}

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
        redact_secrets(&mut value, REDACTED);
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
