//! Each client's default configuration file, on Linux and macOS, from the home folder and the
//! variables that move it.

use std::path::PathBuf;

use obsidian_tc::cli::setup::client::{Client, Dirs, Os};
use obsidian_tc::cli::setup::error::SetupError;

fn home_only() -> Dirs {
    Dirs {
        home: Some(PathBuf::from("/home/me")),
        ..Dirs::default()
    }
}

fn path(client: Client, os: Os, dirs: &Dirs) -> String {
    client
        .default_path(os, dirs)
        .expect("a default path")
        .display()
        .to_string()
}

#[test]
fn each_client_has_its_documented_file_under_home() {
    let dirs = home_only();
    for (client, linux, macos) in [
        (
            Client::ClaudeDesktop,
            "/home/me/.config/Claude/claude_desktop_config.json",
            "/home/me/Library/Application Support/Claude/claude_desktop_config.json",
        ),
        (
            Client::ClaudeCode,
            "/home/me/.claude.json",
            "/home/me/.claude.json",
        ),
        (
            Client::Codex,
            "/home/me/.codex/config.toml",
            "/home/me/.codex/config.toml",
        ),
        (
            Client::Cursor,
            "/home/me/.cursor/mcp.json",
            "/home/me/.cursor/mcp.json",
        ),
        (
            Client::Vscode,
            "/home/me/.config/Code/User/mcp.json",
            "/home/me/Library/Application Support/Code/User/mcp.json",
        ),
        (
            Client::GeminiCli,
            "/home/me/.gemini/settings.json",
            "/home/me/.gemini/settings.json",
        ),
    ] {
        assert_eq!(path(client, Os::Linux, &dirs), linux, "{client:?}");
        assert_eq!(path(client, Os::MacOs, &dirs), macos, "{client:?}");
    }
}

#[test]
fn the_clients_own_variables_move_their_files() {
    let dirs = Dirs {
        home: Some(PathBuf::from("/home/me")),
        xdg_config_home: Some(PathBuf::from("/xdg")),
        claude_config_dir: Some(PathBuf::from("/claude")),
        codex_home: Some(PathBuf::from("/codex")),
        gemini_cli_home: Some(PathBuf::from("/gemini")),
    };
    for (client, os, expected) in [
        (
            Client::ClaudeDesktop,
            Os::Linux,
            "/xdg/Claude/claude_desktop_config.json",
        ),
        (Client::Vscode, Os::Linux, "/xdg/Code/User/mcp.json"),
        // macOS has no XDG folders.
        (
            Client::Vscode,
            Os::MacOs,
            "/home/me/Library/Application Support/Code/User/mcp.json",
        ),
        (Client::ClaudeCode, Os::Linux, "/claude/.claude.json"),
        (Client::Codex, Os::MacOs, "/codex/config.toml"),
        (
            Client::GeminiCli,
            Os::Linux,
            "/gemini/.gemini/settings.json",
        ),
        (Client::Cursor, Os::Linux, "/home/me/.cursor/mcp.json"),
    ] {
        assert_eq!(path(client, os, &dirs), expected, "{client:?} on {os:?}");
    }
}

#[test]
fn without_a_home_the_default_is_refused_unless_a_variable_names_it() {
    let none = Dirs::default();
    for client in [Client::ClaudeDesktop, Client::Cursor, Client::Vscode] {
        assert!(matches!(
            client.default_path(Os::Linux, &none),
            Err(SetupError::NoHome)
        ));
    }
    let codex = Dirs {
        codex_home: Some(PathBuf::from("/codex")),
        ..Dirs::default()
    };
    assert_eq!(path(Client::Codex, Os::Linux, &codex), "/codex/config.toml");
}
