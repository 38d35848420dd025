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
}

impl Os {
    /// The system this binary was built for.
    pub fn current() -> Os {
        if cfg!(target_os = "macos") {
            Os::MacOs
        } else {
            Os::Linux
        }
    }
}

/// The folders the default locations depend on; `None` for an unset or empty variable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dirs {
    /// The home folder (`HOME`).
    pub home: Option<PathBuf>,
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
        Dirs {
            home: std::env::home_dir().filter(|home| !home.as_os_str().is_empty()),
            xdg_config_home: std::env::var_os("XDG_CONFIG_HOME")
                .map(PathBuf::from)
                .filter(|path| path.is_absolute()),
            claude_config_dir: var("CLAUDE_CONFIG_DIR"),
            codex_home: var("CODEX_HOME"),
            gemini_cli_home: var("GEMINI_CLI_HOME"),
        }
    }

    fn home(&self) -> Result<&Path, SetupError> {
        self.home.as_deref().ok_or(SetupError::NoHome)
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    fn xdg_config(&self) -> Result<PathBuf, SetupError> {
        match &self.xdg_config_home {
            Some(dir) => Ok(dir.clone()),
            None => Ok(self.home()?.join(".config")),
        }
    }

    /// `~/Library/Application Support` (macOS).
    fn application_support(&self) -> Result<PathBuf, SetupError> {
        Ok(self.home()?.join("Library").join("Application Support"))
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
        Ok(match (self, os) {
            (Client::ClaudeDesktop, Os::MacOs) => dirs.application_support()?.join(CLAUDE_DESKTOP),
            (Client::ClaudeDesktop, Os::Linux) => dirs.xdg_config()?.join(CLAUDE_DESKTOP),
            (Client::ClaudeCode, _) => match &dirs.claude_config_dir {
                Some(dir) => dir.join(".claude.json"),
                None => dirs.home()?.join(".claude.json"),
            },
            (Client::Codex, _) => match &dirs.codex_home {
                Some(dir) => dir.join("config.toml"),
                None => dirs.home()?.join(".codex").join("config.toml"),
            },
            (Client::Cursor, _) => dirs.home()?.join(".cursor").join("mcp.json"),
            (Client::Vscode, Os::MacOs) => dirs.application_support()?.join(VSCODE_USER_MCP),
            (Client::Vscode, Os::Linux) => dirs.xdg_config()?.join(VSCODE_USER_MCP),
            (Client::GeminiCli, _) => match &dirs.gemini_cli_home {
                Some(dir) => dir.join(".gemini").join("settings.json"),
                None => dirs.home()?.join(".gemini").join("settings.json"),
            },
        })
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

/// Claude Desktop's file, under its `Claude` application folder.
const CLAUDE_DESKTOP: &str = "Claude/claude_desktop_config.json";
/// VS Code's user `mcp.json`, under the default profile's folder.
const VSCODE_USER_MCP: &str = "Code/User/mcp.json";
