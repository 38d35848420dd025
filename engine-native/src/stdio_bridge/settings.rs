//! Where the bridge finds TC Bridge: host, port and token, from the command line, the
//! environment or the plugin's own settings in a vault, in that order of priority.

use std::fmt;
use std::path::PathBuf;

use crate::companion::plugin_data::{DEFAULT_PORT, PluginData, PluginDataError};

/// The host when nothing says otherwise.
pub const DEFAULT_HOST: &str = "127.0.0.1";
/// Environment variable: the host.
pub const ENV_HOST: &str = "OBSIDIAN_MCP_HOST";
/// Environment variable: the port.
pub const ENV_PORT: &str = "OBSIDIAN_MCP_PORT";
/// Environment variable: the bearer token.
pub const ENV_TOKEN: &str = "OBSIDIAN_MCP_TOKEN";

/// The hosts the bridge may connect to: loopback only, as TC Bridge serves nothing else.
const LOOPBACK_HOSTS: [&str; 3] = ["127.0.0.1", "localhost", "::1"];

/// What the command line said (each `None` when the flag is absent).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConnectionFlags {
    /// `--host`.
    pub host: Option<String>,
    /// `--port`.
    pub port: Option<u16>,
    /// `--token`.
    pub token: Option<String>,
    /// `--vault`: a vault folder whose TC Bridge settings supply the port and token.
    pub vault: Option<PathBuf>,
}

/// Where to reach TC Bridge.
#[derive(Clone, PartialEq, Eq)]
pub struct ConnectionSettings {
    /// A loopback host.
    pub host: String,
    /// The TCP port.
    pub port: u16,
    /// The bearer token TC Bridge expects.
    pub token: String,
}

impl fmt::Debug for ConnectionSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConnectionSettings")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("token", &"<redacted>")
            .finish()
    }
}

impl ConnectionSettings {
    /// `host:port` as it goes in a URL (an IPv6 address in brackets).
    pub fn authority(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }

    /// Resolves flag > environment (read through `env`) > the vault's TC Bridge settings >
    /// default. The token has no default: without one the bridge cannot be admitted.
    pub fn resolve(
        flags: &ConnectionFlags,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<ConnectionSettings, SettingsError> {
        let env = |name: &str| env(name).filter(|value| !value.trim().is_empty());
        let host = match flags.host.clone().or_else(|| env(ENV_HOST)) {
            Some(host) => loopback(host)?,
            None => DEFAULT_HOST.to_owned(),
        };
        let env_port = env(ENV_PORT)
            .map(|text| {
                text.trim()
                    .parse::<u16>()
                    .ok()
                    .filter(|port| *port != 0)
                    .ok_or(SettingsError::BadEnvPort(text))
            })
            .transpose()?;
        let plugin = flags
            .vault
            .as_deref()
            .map(PluginData::read)
            .transpose()
            .map_err(SettingsError::PluginData)?;
        let port = flags
            .port
            .or(env_port)
            .or(plugin.as_ref().and_then(|data| data.port))
            .unwrap_or(DEFAULT_PORT);
        let token = flags
            .token
            .clone()
            .filter(|token| !token.is_empty())
            .or_else(|| env(ENV_TOKEN))
            .or_else(|| plugin.and_then(|data| data.token))
            .ok_or(SettingsError::NoToken)?;
        Ok(ConnectionSettings { host, port, token })
    }
}

/// `host` when it names the loopback interface.
fn loopback(host: String) -> Result<String, SettingsError> {
    let trimmed = host.trim().trim_start_matches('[').trim_end_matches(']');
    let lower = trimmed.to_ascii_lowercase();
    if LOOPBACK_HOSTS.contains(&lower.as_str()) {
        Ok(lower)
    } else {
        Err(SettingsError::NotLoopback(host))
    }
}

/// Why the connection settings are unusable; each says what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsError {
    /// The host is not a loopback address.
    NotLoopback(String),
    /// `OBSIDIAN_MCP_PORT` is not a port number.
    BadEnvPort(String),
    /// The vault's TC Bridge settings could not be read.
    PluginData(PluginDataError),
    /// No token from any source.
    NoToken,
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::NotLoopback(host) => write!(
                f,
                "host {host:?} is not loopback: TC Bridge only listens on this machine; use 127.0.0.1, localhost or ::1"
            ),
            SettingsError::BadEnvPort(text) => write!(
                f,
                "{ENV_PORT}={text:?} is not a port number (1-65535): fix or unset it"
            ),
            SettingsError::PluginData(error) => write!(
                f,
                "{error}; enable TC Bridge in that vault once, or pass --port and --token"
            ),
            SettingsError::NoToken => write!(
                f,
                "no token for TC Bridge: pass --token, set {ENV_TOKEN}, or pass --vault <vault folder> (the token is in TC Bridge's settings in Obsidian)"
            ),
        }
    }
}

impl std::error::Error for SettingsError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    fn vault_with(data: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        let plugin = dir.path().join(".obsidian/plugins/tc-bridge");
        std::fs::create_dir_all(&plugin).expect("mkdir");
        std::fs::write(plugin.join("data.json"), data).expect("write");
        dir
    }

    #[test]
    fn flags_beat_environment_which_beats_the_vault_which_beats_the_default() {
        let vault = vault_with(r#"{"port": 30001, "token": "from-vault", "allowWrites": true}"#);
        let env = env_of(&[(ENV_PORT, "30002"), (ENV_TOKEN, "from-env")]);
        let mut flags = ConnectionFlags {
            vault: Some(vault.path().to_owned()),
            ..ConnectionFlags::default()
        };
        let from_vault = ConnectionSettings::resolve(&flags, env_of(&[])).expect("vault");
        assert_eq!(
            (from_vault.port, from_vault.token.as_str()),
            (30001, "from-vault")
        );
        let from_env = ConnectionSettings::resolve(&flags, &env).expect("env");
        assert_eq!(
            (from_env.port, from_env.token.as_str()),
            (30002, "from-env")
        );
        flags.port = Some(30003);
        flags.token = Some("from-flag".to_owned());
        let from_flags = ConnectionSettings::resolve(&flags, &env).expect("flags");
        assert_eq!(
            (from_flags.port, from_flags.token.as_str()),
            (30003, "from-flag")
        );
        assert_eq!(from_flags.host, "127.0.0.1");
        let only_token = ConnectionFlags {
            token: Some("t".to_owned()),
            ..ConnectionFlags::default()
        };
        let default = ConnectionSettings::resolve(&only_token, env_of(&[])).expect("default");
        assert_eq!(
            (default.host.as_str(), default.port),
            (DEFAULT_HOST, DEFAULT_PORT)
        );
    }

    #[test]
    fn only_loopback_hosts_are_accepted() {
        let token = ConnectionFlags {
            token: Some("t".to_owned()),
            ..ConnectionFlags::default()
        };
        for host in ["127.0.0.1", "localhost", "LocalHost", "::1", "[::1]"] {
            let flags = ConnectionFlags {
                host: Some(host.to_owned()),
                ..token.clone()
            };
            assert!(
                ConnectionSettings::resolve(&flags, env_of(&[])).is_ok(),
                "{host}"
            );
        }
        for host in ["0.0.0.0", "192.168.1.2", "example.com", "127.0.0.2"] {
            let flags = ConnectionFlags {
                host: Some(host.to_owned()),
                ..token.clone()
            };
            let error = ConnectionSettings::resolve(&flags, env_of(&[])).expect_err(host);
            assert_eq!(error, SettingsError::NotLoopback(host.to_owned()));
            assert!(error.to_string().contains("not loopback"), "{error}");
        }
        let error = ConnectionSettings::resolve(&token, env_of(&[(ENV_HOST, "10.0.0.1")]))
            .expect_err("env host");
        assert_eq!(error, SettingsError::NotLoopback("10.0.0.1".to_owned()));
        let ipv6 = ConnectionSettings::resolve(
            &ConnectionFlags {
                host: Some("::1".to_owned()),
                port: Some(5),
                ..token
            },
            env_of(&[]),
        )
        .expect("::1");
        assert_eq!(ipv6.authority(), "[::1]:5");
    }

    #[test]
    fn missing_token_and_bad_environment_port_are_clear_errors() {
        let none = ConnectionSettings::resolve(&ConnectionFlags::default(), env_of(&[]));
        assert_eq!(none, Err(SettingsError::NoToken));
        let bad = ConnectionSettings::resolve(
            &ConnectionFlags::default(),
            env_of(&[(ENV_PORT, "eighty"), (ENV_TOKEN, "t")]),
        );
        assert_eq!(bad, Err(SettingsError::BadEnvPort("eighty".to_owned())));
        let empty_env_ignored = ConnectionSettings::resolve(
            &ConnectionFlags::default(),
            env_of(&[(ENV_PORT, ""), (ENV_TOKEN, "t")]),
        )
        .expect("empty port variable is unset");
        assert_eq!(empty_env_ignored.port, DEFAULT_PORT);
    }

    #[test]
    fn an_unreadable_vault_settings_file_is_an_error() {
        let nowhere = tempfile::tempdir().expect("tempdir");
        let flags = ConnectionFlags {
            vault: Some(nowhere.path().to_owned()),
            token: Some("t".to_owned()),
            ..ConnectionFlags::default()
        };
        let error = ConnectionSettings::resolve(&flags, env_of(&[])).expect_err("no file");
        assert!(matches!(error, SettingsError::PluginData(_)), "{error}");
        assert!(error.to_string().contains("data.json"), "{error}");
    }
}
