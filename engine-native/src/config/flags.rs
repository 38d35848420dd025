//! The command-line flags that choose and override the configuration (highest priority).

use std::path::PathBuf;

use serde_json::Value;

use crate::schema::JsonPath;

/// Where the configuration comes from and which values the command line overrides.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ConfigFlags {
    /// A vault folder (zero-config: one vault `main`) or a config file.
    #[arg(value_name = "VAULT_OR_CONFIG")]
    pub path: Option<PathBuf>,
    /// The config file (else `OBSIDIAN_TC_CONFIG`).
    #[arg(long, value_name = "FILE", conflicts_with = "path")]
    pub config: Option<PathBuf>,
    /// Serve MCP over HTTP (`transports.http.enabled`).
    #[arg(long)]
    pub http: bool,
    /// The HTTP bind address (`transports.http.host`).
    #[arg(long, value_name = "HOST")]
    pub http_host: Option<String>,
    /// The HTTP port (`transports.http.port`).
    #[arg(long, value_name = "PORT")]
    pub http_port: Option<u16>,
    /// `none` or `jwt` (`auth.mode`).
    #[arg(long, value_name = "MODE")]
    pub auth_mode: Option<String>,
    /// The cache folder (`cacheDir`); a relative path is taken from the current folder.
    /// Default: next to the config file; for a bare vault folder, the platform's cache folder
    /// (e.g. `~/.cache/obsidian-tc/vaults/<vault>-<hash>`), never inside the vault.
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Keep the cache inside the vault, in `<vault>/.obsidian-tc` (`cacheInVault`).
    #[arg(long, conflicts_with = "cache_dir")]
    pub cache_in_vault: bool,
    /// `triad`, `domain` or `flat` (`toolFacade.mode`).
    #[arg(long, value_name = "MODE")]
    pub tool_facade: Option<String>,
}

/// One config value set on the command line.
#[derive(Debug, Clone, PartialEq)]
pub struct FlagOverride {
    /// The flag as typed, e.g. `--http-port`.
    pub flag: &'static str,
    /// The config value it sets.
    pub path: JsonPath,
    /// The value.
    pub value: Value,
}

impl ConfigFlags {
    /// The config values these flags set, for [`load()`](crate::config::load()).
    pub fn overrides(&self) -> Vec<FlagOverride> {
        let set = |flag, path, value| FlagOverride {
            flag,
            path: JsonPath::keys(path),
            value,
        };
        let mut out = Vec::new();
        if self.http {
            out.push(set("--http", "transports.http.enabled", Value::Bool(true)));
        }
        if let Some(host) = &self.http_host {
            out.push(set(
                "--http-host",
                "transports.http.host",
                host.clone().into(),
            ));
        }
        if let Some(port) = self.http_port {
            out.push(set("--http-port", "transports.http.port", port.into()));
        }
        if let Some(mode) = &self.auth_mode {
            out.push(set("--auth-mode", "auth.mode", mode.clone().into()));
        }
        if let Some(dir) = &self.cache_dir {
            let text = dir.to_string_lossy().into_owned();
            out.push(set("--cache-dir", "cacheDir", text.into()));
        }
        if self.cache_in_vault {
            out.push(set("--cache-in-vault", "cacheInVault", Value::Bool(true)));
        }
        if let Some(mode) = &self.tool_facade {
            out.push(set("--tool-facade", "toolFacade.mode", mode.clone().into()));
        }
        out
    }
}
