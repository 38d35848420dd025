//! The MCP clients `setup` configures: where each keeps its configuration file, in which
//! format, and the shape of a server entry there (sources in the [`super`] module docs).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use super::error::SetupError;

/// An MCP client whose configuration file `setup` edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Client {
    /// Claude Desktop: `claude_desktop_config.json`.
    ClaudeDesktop,
    /// Claude Code: `~/.claude.json` (user scope), or a project's `.mcp.json`.
    ClaudeCode,
    /// OpenAI Codex (CLI and IDE extension): `~/.codex/config.toml`.
    Codex,
    /// Cursor: `~/.cursor/mcp.json`, or a project's `.cursor/mcp.json`.
    Cursor,
    /// Visual Studio Code: the user profile's `mcp.json`, or a workspace's `.vscode/mcp.json`.
    Vscode,
    /// Gemini CLI: `~/.gemini/settings.json`, or a project's `.gemini/settings.json`.
    GeminiCli,
}

/// How a client's configuration file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON, in one of its dialects.
    Json(JsonDialect),
    /// TOML.
    Toml,
}

/// What a client accepts in a JSON file beyond plain JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonDialect {
    /// Plain JSON: no comments, no trailing commas.
    Plain,
    /// `//` and `/* */` comments, no trailing commas.
    Comments,
    /// JSONC as VS Code reads it: comments and trailing commas.
    Jsonc,
}

/// The operating systems whose default locations differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    /// Linux (and other Unix systems that follow the XDG layout).
    Linux,
    /// macOS.
    MacOs,
    /// Windows.
    Windows,
}

impl Os {
    /// The system this binary was built for.
    pub fn current() -> Os {
        if cfg!(target_os = "macos") {
            Os::MacOs
        } else if cfg!(windows) {
            Os::Windows
        } else {
            Os::Linux
        }
    }
}

/// The folders the default locations depend on; `None` for an unset or empty variable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dirs {
    /// The home folder (`HOME`; `USERPROFILE` on Windows).
    pub home: Option<PathBuf>,
    /// `APPDATA` (Windows: the roaming application data folder), only when absolute.
    pub appdata: Option<PathBuf>,
    /// `XDG_CONFIG_HOME`, only when absolute (the XDG spec ignores a relative one).
    pub xdg_config_home: Option<PathBuf>,
    /// `CLAUDE_CONFIG_DIR`: Claude Code's configuration folder.
    pub claude_config_dir: Option<PathBuf>,
    /// `CODEX_HOME`: Codex's folder.
    pub codex_home: Option<PathBuf>,
    /// `GEMINI_CLI_HOME`: the folder Gemini CLI uses as home.
    pub gemini_cli_home: Option<PathBuf>,
}

impl Dirs {
    /// The folders of this process's environment (relative ones made absolute against the
    /// working folder, as the client started from the same shell would).
    pub fn from_env() -> Dirs {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|value| !value.is_empty())
                .and_then(|value: OsString| std::path::absolute(value).ok())
        };
        let absolute_var = |name: &str| {
            std::env::var_os(name)
                .map(PathBuf::from)
                .filter(|path| path.is_absolute())
        };
        Dirs {
            // `USERPROFILE` on Windows, `HOME` elsewhere.
            home: std::env::home_dir().filter(|home| !home.as_os_str().is_empty()),
            appdata: absolute_var("APPDATA"),
            xdg_config_home: absolute_var("XDG_CONFIG_HOME"),
            claude_config_dir: var("CLAUDE_CONFIG_DIR"),
            codex_home: var("CODEX_HOME"),
            gemini_cli_home: var("GEMINI_CLI_HOME"),
        }
    }

    /// The home folder on `os`.
    fn home(&self, os: Os) -> Result<&Path, SetupError> {
        let variable = match os {
            Os::Windows => "USERPROFILE",
            Os::Linux | Os::MacOs => "HOME",
        };
        self.home
            .as_deref()
            .ok_or(SetupError::NoFolder { variable })
    }

    /// Where applications keep their per-user settings on `os`: `$XDG_CONFIG_HOME`, else
    /// `~/.config` (Linux); `~/Library/Application Support` (macOS); `%APPDATA%` (Windows).
    fn app_config(&self, os: Os) -> Result<PathBuf, SetupError> {
        match os {
            Os::Linux => match &self.xdg_config_home {
                Some(dir) => Ok(dir.clone()),
                None => Ok(self.home(os)?.join(".config")),
            },
            Os::MacOs => Ok(self.home(os)?.join("Library").join("Application Support")),
            Os::Windows => self.appdata.clone().ok_or(SetupError::NoFolder {
                variable: "APPDATA",
            }),
        }
    }
}

impl Client {
    /// The client's name as people write it.
    pub fn title(self) -> &'static str {
        match self {
            Client::ClaudeDesktop => "Claude Desktop",
            Client::ClaudeCode => "Claude Code",
            Client::Codex => "Codex",
            Client::Cursor => "Cursor",
            Client::Vscode => "VS Code",
            Client::GeminiCli => "Gemini CLI",
        }
    }

    /// The format of the client's configuration file.
    pub fn format(self) -> Format {
        match self {
            Client::ClaudeDesktop | Client::ClaudeCode => Format::Json(JsonDialect::Plain),
            Client::GeminiCli => Format::Json(JsonDialect::Comments),
            Client::Cursor | Client::Vscode => Format::Json(JsonDialect::Jsonc),
            Client::Codex => Format::Toml,
        }
    }

    /// The top-level key holding the servers, one entry per server name.
    pub fn servers_key(self) -> &'static str {
        match self {
            Client::Vscode => "servers",
            Client::Codex => "mcp_servers",
            Client::ClaudeDesktop | Client::ClaudeCode | Client::Cursor | Client::GeminiCli => {
                "mcpServers"
            }
        }
    }

    /// Whether a new entry says `"type": "stdio"` (VS Code requires it; Claude Code writes it).
    pub fn states_stdio_type(self) -> bool {
        matches!(self, Client::ClaudeCode | Client::Vscode)
    }

    /// The configuration file the client reads for this user on `os`.
    pub fn default_path(self, os: Os, dirs: &Dirs) -> Result<PathBuf, SetupError> {
        let (folder, names): (PathBuf, &[&str]) = match self {
            Client::ClaudeDesktop => (
                dirs.app_config(os)?,
                &["Claude", "claude_desktop_config.json"],
            ),
            Client::ClaudeCode => match &dirs.claude_config_dir {
                Some(dir) => (dir.clone(), &[".claude.json"]),
                None => (dirs.home(os)?.to_path_buf(), &[".claude.json"]),
            },
            Client::Codex => match &dirs.codex_home {
                Some(dir) => (dir.clone(), &["config.toml"]),
                None => (dirs.home(os)?.to_path_buf(), &[".codex", "config.toml"]),
            },
            Client::Cursor => (dirs.home(os)?.to_path_buf(), &[".cursor", "mcp.json"]),
            // The default profile's folder.
            Client::Vscode => (dirs.app_config(os)?, &["Code", "User", "mcp.json"]),
            Client::GeminiCli => match &dirs.gemini_cli_home {
                Some(dir) => (dir.clone(), &[".gemini", "settings.json"]),
                None => (dirs.home(os)?.to_path_buf(), &[".gemini", "settings.json"]),
            },
        };
        // One name at a time, so the path has the system's separators throughout.
        Ok(names.iter().fold(folder, |path, name| path.join(name)))
    }

    /// What the user does after the file changed for the client to start the server.
    pub fn next_step(self) -> &'static str {
        match self {
            Client::ClaudeDesktop => {
                "quit Claude Desktop completely (closing its window is not enough) and open it \
                 again; the vault's tools are then offered in a new chat."
            }
            Client::ClaudeCode => {
                "start a new Claude Code session; `/mcp` in it (or `claude mcp list`) shows the \
                 server."
            }
            Client::Codex => "start a new Codex session; `/mcp` in it shows the server.",
            Client::Cursor => {
                "restart Cursor, then check under Settings → MCP that the server is switched on."
            }
            Client::Vscode => {
                "in VS Code run \"MCP: List Servers\", pick the server and start it (VS Code asks \
                 you to trust it the first time)."
            }
            Client::GeminiCli => "restart Gemini CLI; `/mcp` in it shows the server.",
        }
    }
}
