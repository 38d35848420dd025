//! TC Bridge's own settings file in a vault, `.obsidian/plugins/tc-bridge/data.json`: the port
//! it listens on and the bearer token it expects (the plugin writes both when it first loads
//! and again when the user changes them). Read by the server's companion discovery, the stdio
//! bridge and `plugin install`.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The plugin's settings file, relative to the vault folder.
pub const PLUGIN_DATA: &str = ".obsidian/plugins/tc-bridge/data.json";

/// The port TC Bridge listens on when its settings name none (the plugin's default).
pub const DEFAULT_PORT: u16 = 27190;

/// The parts of TC Bridge's `data.json` a client needs; the rest (host included, should a
/// later plugin write one) is ignored: TC Bridge listens on loopback only.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PluginData {
    /// The configured port (`None` when absent or 0, "any free port", which cannot be dialled).
    pub port: Option<u16>,
    /// The bearer token (`None` when absent or empty).
    pub token: Option<String>,
}

#[derive(Deserialize)]
struct RawPluginData {
    #[serde(default)]
    port: Option<serde_json::Value>,
    #[serde(default)]
    token: Option<serde_json::Value>,
}

/// Why TC Bridge's settings file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginDataError {
    /// The file.
    pub path: PathBuf,
    /// What was wrong.
    pub reason: String,
}

impl fmt::Display for PluginDataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read TC Bridge's settings at {}: {}",
            self.path.display(),
            self.reason
        )
    }
}

impl std::error::Error for PluginDataError {}

impl PluginData {
    /// Reads `<vault>/.obsidian/plugins/tc-bridge/data.json`.
    pub fn read(vault: &Path) -> Result<PluginData, PluginDataError> {
        PluginData::read_file(&vault.join(PLUGIN_DATA))
    }

    /// Reads TC Bridge's settings file at `path`.
    pub fn read_file(path: &Path) -> Result<PluginData, PluginDataError> {
        let failed = |reason: String| PluginDataError {
            path: path.to_path_buf(),
            reason,
        };
        let text = std::fs::read_to_string(path).map_err(|error| failed(error.to_string()))?;
        PluginData::parse(&text).map_err(failed)
    }

    /// The settings in `text`, or what is wrong with it.
    pub fn parse(text: &str) -> Result<PluginData, String> {
        let raw: RawPluginData = serde_json::from_str(text)
            .map_err(|error| format!("not a JSON object of TC Bridge settings: {error}"))?;
        let port = match raw.port {
            None => None,
            Some(value) => Some(
                value
                    .as_u64()
                    .and_then(|port| u16::try_from(port).ok())
                    .ok_or_else(|| format!("`port` is {value}, not a port number"))?,
            )
            .filter(|port| *port != 0),
        };
        let token = raw
            .token
            .and_then(|value| value.as_str().map(str::to_owned))
            .filter(|token| !token.is_empty());
        Ok(PluginData { port, token })
    }
}
