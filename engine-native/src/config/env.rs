//! The environment variables that set config values (`OBSIDIAN_TC_*`). They override the
//! config file and are overridden by command-line flags.

use serde_json::Value;

/// The variable naming the config file when no path is given on the command line. It must
/// be an absolute path: a GUI launcher's working directory means nothing.
pub const CONFIG_FILE_VAR: &str = "OBSIDIAN_TC_CONFIG";

/// The variable giving TC Bridge's address to the server it starts (`http://127.0.0.1:PORT`):
/// the `companion` of the one vault served, over the config file's and the plugin's settings
/// file. Loopback only.
pub const COMPANION_URL_VAR: &str = "OBSIDIAN_TC_COMPANION_URL";

/// The variable giving TC Bridge's token along with [`COMPANION_URL_VAR`].
pub const COMPANION_TOKEN_VAR: &str = "OBSIDIAN_TC_COMPANION_TOKEN";

/// How a variable's text becomes a JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnvKind {
    /// Taken as is.
    Text,
    /// `true`/`false`/`1`/`0`/`yes`/`no` (any case).
    Bool,
    /// A non-negative whole number.
    Integer,
}

/// One environment variable and the config value it sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnvVar {
    /// The variable's name.
    pub name: &'static str,
    /// The dotted config path it sets.
    pub path: &'static str,
    /// How its text is read.
    pub kind: EnvKind,
}

const fn var(name: &'static str, path: &'static str, kind: EnvKind) -> EnvVar {
    EnvVar { name, path, kind }
}

/// Every variable that sets a config value.
pub const ENV_VARS: [EnvVar; 17] = [
    var("OBSIDIAN_TC_AUTH_MODE", "auth.mode", EnvKind::Text),
    var("OBSIDIAN_TC_JWT_SECRET", "auth.jwtSecret", EnvKind::Text),
    var("OBSIDIAN_TC_HTTP_TOKEN", "auth.token", EnvKind::Text),
    var(
        "OBSIDIAN_TC_HTTP_ENABLED",
        "transports.http.enabled",
        EnvKind::Bool,
    ),
    var(
        "OBSIDIAN_TC_HTTP_HOST",
        "transports.http.host",
        EnvKind::Text,
    ),
    var(
        "OBSIDIAN_TC_HTTP_PORT",
        "transports.http.port",
        EnvKind::Integer,
    ),
    var("OBSIDIAN_TC_CACHE_DIR", "cacheDir", EnvKind::Text),
    var("OBSIDIAN_TC_CACHE_IN_VAULT", "cacheInVault", EnvKind::Bool),
    var("OBSIDIAN_TC_TOOL_FACADE", "toolFacade.mode", EnvKind::Text),
    var(
        "OBSIDIAN_TC_THROTTLE_ENABLED",
        "throttle.enabled",
        EnvKind::Bool,
    ),
    var(
        "OBSIDIAN_TC_MAX_RESPONSE_BYTES",
        "governor.maxResponseBytes",
        EnvKind::Integer,
    ),
    var(
        "OBSIDIAN_TC_EMBEDDINGS_PROVIDER",
        "embeddings.provider",
        EnvKind::Text,
    ),
    var(
        "OBSIDIAN_TC_EMBEDDINGS_MODEL",
        "embeddings.model",
        EnvKind::Text,
    ),
    var(
        "OBSIDIAN_TC_EMBEDDINGS_ENGINE",
        "embeddings.engine",
        EnvKind::Text,
    ),
    var(
        "OBSIDIAN_TC_EMBEDDINGS_API_KEY",
        "embeddings.apiKey",
        EnvKind::Text,
    ),
    var(
        "OBSIDIAN_TC_METRICS_ENABLED",
        "observability.metrics.enabled",
        EnvKind::Bool,
    ),
    var("OBSIDIAN_TC_DEFAULT_VAULT", "defaultVault", EnvKind::Text),
];

impl EnvVar {
    /// The JSON value of `text`. Text that does not read as the expected kind stays a string,
    /// so that schema validation reports it at this variable's config path.
    pub fn value(&self, text: &str) -> Value {
        let trimmed = text.trim();
        match self.kind {
            EnvKind::Text => Value::String(text.to_owned()),
            EnvKind::Bool => match trimmed.to_ascii_lowercase().as_str() {
                "true" | "1" | "yes" => Value::Bool(true),
                "false" | "0" | "no" => Value::Bool(false),
                _ => Value::String(text.to_owned()),
            },
            EnvKind::Integer => trimmed
                .parse::<u64>()
                .map_or_else(|_| Value::String(text.to_owned()), Value::from),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_each_kind_and_keeps_unreadable_text() {
        let named = |name: &str| *ENV_VARS.iter().find(|v| v.name == name).expect("known");
        let port = named("OBSIDIAN_TC_HTTP_PORT");
        assert_eq!(port.value(" 9000 "), json!(9000));
        assert_eq!(port.value("ninety"), json!("ninety"));
        let http = named("OBSIDIAN_TC_HTTP_ENABLED");
        assert_eq!(http.value("YES"), json!(true));
        assert_eq!(http.value("0"), json!(false));
        assert_eq!(http.value("maybe"), json!("maybe"));
    }
}
