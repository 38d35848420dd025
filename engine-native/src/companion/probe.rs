//! `GET /obsidian-tc/v1/probe`: what the companion plugin reports about itself.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use serde::Deserialize;

use crate::config::sections::CompanionConfig;
use crate::errors::chain::error_chain;

use super::contract::{API_VERSION, PREFIX, PROBE};

/// The Companion API major version this server speaks (the contract's).
pub const COMPANION_API_VERSION: &str = API_VERSION;

/// What a compatible companion reported. Unknown fields are ignored (forward compatible).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Probe {
    /// The plugin's version.
    pub plugin_version: String,
    /// Obsidian's version.
    pub obsidian_version: String,
    /// The vault's name in Obsidian.
    #[serde(default)]
    pub vault_path: Option<String>,
    /// The Companion API version (absent in companions older than API versioning: treated
    /// as compatible).
    #[serde(default, rename = "obsidianTcApiVersion")]
    pub api_version: Option<String>,
    /// Which bridgeable plugins are installed, by id.
    #[serde(default)]
    pub capabilities: BTreeMap<String, Capability>,
    /// Whether the plugin's self-check of the Obsidian internals it relies on passed.
    #[serde(default = "assume_shape_ok")]
    pub shape_ok: bool,
    /// What the self-check found, when it did not pass.
    #[serde(default)]
    pub shape_warnings: Vec<String>,
}

/// One bridgeable plugin as the companion sees it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Capability {
    /// Present in the vault (Obsidian knows its manifest).
    pub installed: bool,
    /// Turned on in Obsidian (absent in companions that reported only enabled plugins as
    /// installed: treated as enabled).
    #[serde(default = "assume_enabled")]
    pub enabled: bool,
    /// Its version, when installed.
    #[serde(default)]
    pub version: Option<String>,
}

impl Capability {
    /// Whether calls can use it: installed and enabled.
    pub fn usable(&self) -> bool {
        self.installed && self.enabled
    }
}

fn assume_enabled() -> bool {
    true
}

fn assume_shape_ok() -> bool {
    true
}

/// The envelope of every Companion API answer.
#[derive(Debug, Deserialize)]
struct Envelope {
    ok: bool,
    #[serde(default)]
    result: Option<Probe>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

/// Why the probe failed, each with what the user should do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeError {
    /// Nothing answered at the address (Obsidian closed, plugin off, wrong port) or it did
    /// not answer in time.
    Unreachable(String),
    /// The companion refused the token (401 or 403).
    Unauthorized,
    /// Another HTTP status.
    Status(u16),
    /// The answer is not the Companion API's envelope, or says `ok: false`.
    BadAnswer(String),
    /// The companion speaks another major version of the Companion API.
    Incompatible {
        /// The version it reported.
        reported: String,
    },
}

impl ProbeError {
    /// What to do about it.
    pub fn hint(&self) -> &'static str {
        match self {
            ProbeError::Unreachable(_) => {
                "open the vault in Obsidian with TC Bridge enabled, and check that companion.url \
                 has the port shown in TC Bridge's settings"
            }
            ProbeError::Unauthorized => {
                "copy the token from TC Bridge's settings into companion.token"
            }
            ProbeError::Status(_) | ProbeError::BadAnswer(_) => {
                "companion.url points at something that is not TC Bridge: use the address TC \
                 Bridge's settings show"
            }
            ProbeError::Incompatible { .. } => {
                "update TC Bridge and obsidian-tc to matching versions"
            }
        }
    }
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Unreachable(why) => write!(f, "not reachable ({why})"),
            ProbeError::Unauthorized => write!(f, "the token was refused"),
            ProbeError::Status(status) => write!(f, "answered HTTP {status}"),
            ProbeError::BadAnswer(why) => write!(f, "answered something unexpected ({why})"),
            ProbeError::Incompatible { reported } => write!(
                f,
                "speaks Companion API {reported}, this server speaks {COMPANION_API_VERSION}"
            ),
        }
    }
}

impl std::error::Error for ProbeError {}

/// Probes the companion at `companion.url` with its token, within its probe timeout.
pub async fn probe(companion: &CompanionConfig) -> Result<Probe, ProbeError> {
    let client = crate::http_client::builder()
        .timeout(Duration::from_millis(companion.probe_timeout_ms))
        .no_proxy()
        .build()
        .map_err(|e| ProbeError::Unreachable(e.to_string()))?;
    let mut request = client.get(probe_url(companion));
    if let Some(token) = &companion.token {
        request = request.bearer_auth(token);
    }
    let response = request
        .send()
        .await
        .map_err(|e| ProbeError::Unreachable(describe(&e)))?;
    let status = response.status().as_u16();
    let body = response
        .bytes()
        .await
        .map_err(|e| ProbeError::Unreachable(describe(&e)))?;
    interpret(status, &body)
}

/// [`probe`] on a blocking client (the server's calls run on blocking threads).
pub fn probe_blocking(
    client: &reqwest::blocking::Client,
    companion: &CompanionConfig,
) -> Result<Probe, ProbeError> {
    let mut request = client
        .get(probe_url(companion))
        .timeout(Duration::from_millis(companion.probe_timeout_ms));
    if let Some(token) = &companion.token {
        request = request.bearer_auth(token);
    }
    let response = request
        .send()
        .map_err(|e| ProbeError::Unreachable(describe(&e)))?;
    let status = response.status().as_u16();
    let body = response
        .bytes()
        .map_err(|e| ProbeError::Unreachable(describe(&e)))?;
    interpret(status, &body)
}

fn probe_url(companion: &CompanionConfig) -> String {
    format!(
        "{}{PREFIX}{}",
        companion.url.trim_end_matches('/'),
        PROBE.path
    )
}

/// What the probe's answer says: the HTTP status, the envelope, the API version.
fn interpret(status: u16, body: &[u8]) -> Result<Probe, ProbeError> {
    match status {
        200 => {}
        401 | 403 => return Err(ProbeError::Unauthorized),
        status => return Err(ProbeError::Status(status)),
    }
    let envelope: Envelope =
        serde_json::from_slice(body).map_err(|e| ProbeError::BadAnswer(e.to_string()))?;
    let probe = match envelope {
        Envelope {
            ok: true,
            result: Some(probe),
            ..
        } => probe,
        Envelope { code, message, .. } => {
            return Err(ProbeError::BadAnswer(format!(
                "ok: false, {}: {}",
                code.unwrap_or_default(),
                message.unwrap_or_default()
            )));
        }
    };
    match &probe.api_version {
        Some(reported) if major(reported) != COMPANION_API_VERSION => {
            Err(ProbeError::Incompatible {
                reported: reported.clone(),
            })
        }
        _ => Ok(probe),
    }
}

/// The major part of a version (`"1.2"` → `"1"`).
fn major(version: &str) -> &str {
    version.split('.').next().unwrap_or(version)
}

/// A reqwest error with its cause chain, which says what actually went wrong.
pub(crate) fn describe(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        "timed out".to_owned()
    } else {
        error_chain(error)
    }
}

#[cfg(test)]
mod tests {
    use super::Capability;

    fn capability(json: &str) -> Capability {
        serde_json::from_str(json).expect("a capability")
    }

    #[test]
    fn usable_needs_installed_and_enabled() {
        let on = capability(r#"{"installed": true, "enabled": true, "version": "0.8.1"}"#);
        assert!(on.enabled && on.usable());
        let off = capability(r#"{"installed": true, "enabled": false}"#);
        assert!(off.installed && !off.usable());
        let missing = capability(r#"{"installed": false}"#);
        assert!(missing.enabled && !missing.usable());
    }

    #[test]
    fn enabled_absent_means_enabled() {
        let older = capability(r#"{"installed": true, "version": "1.0"}"#);
        assert!(older.enabled && older.usable());
    }
}
