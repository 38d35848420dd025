//! Each client's default configuration file, on Linux, macOS and Windows, from the home folder
//! (and `APPDATA` on Windows) and the variables that move it.

use std::path::PathBuf;

use obsidian_tc::cli::setup::client::{Client, Dirs, Os};
use obsidian_tc::cli::setup::error::SetupError;

fn home_only() -> Dirs {
    Dirs {
        home: Some(PathBuf::from("/home/me")),
        ..Dirs::default()
    }
}

/// The path with `/` between names, whichever system the test runs on.
fn path(client: Client, os: Os, dirs: &Dirs) -> String {
    client
        .default_path(os, dirs)
        .expect("a default path")
        .display()
        .to_string()
        .replace('\\', "/")
}

/// A Windows user's folders: `USERPROFILE` and `APPDATA` (with `/` so that the expected paths
/// read the same on every system the test runs on).
fn windows_user() -> Dirs {
    Dirs {
        home: Some(PathBuf::from("C:/Users/me")),
        appdata: Some(PathBuf::from("C:/Users/me/AppData/Roaming")),
        ..Dirs::default()
    }
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
fn on_windows_each_client_has_its_documented_file_under_the_profile_or_appdata() {
    let dirs = windows_user();
    for (client, expected) in [
        (
            Client::ClaudeDesktop,
            "C:/Users/me/AppData/Roaming/Claude/claude_desktop_config.json",
        ),
        (Client::ClaudeCode, "C:/Users/me/.claude.json"),
        (Client::Codex, "C:/Users/me/.codex/config.toml"),
        (Client::Cursor, "C:/Users/me/.cursor/mcp.json"),
        (
            Client::Vscode,
            "C:/Users/me/AppData/Roaming/Code/User/mcp.json",
        ),
        (Client::GeminiCli, "C:/Users/me/.gemini/settings.json"),
    ] {
        assert_eq!(path(client, Os::Windows, &dirs), expected, "{client:?}");
    }
}

#[test]
fn on_windows_xdg_config_home_is_ignored_and_the_clients_variables_still_apply() {
    let dirs = Dirs {
        xdg_config_home: Some(PathBuf::from("/xdg")),
        claude_config_dir: Some(PathBuf::from("D:/claude")),
        codex_home: Some(PathBuf::from("D:/codex")),
        gemini_cli_home: Some(PathBuf::from("D:/gemini")),
        ..windows_user()
    };
    for (client, expected) in [
        (
            Client::Vscode,
            "C:/Users/me/AppData/Roaming/Code/User/mcp.json",
        ),
        (Client::ClaudeCode, "D:/claude/.claude.json"),
        (Client::Codex, "D:/codex/config.toml"),
        (Client::GeminiCli, "D:/gemini/.gemini/settings.json"),
    ] {
        assert_eq!(path(client, Os::Windows, &dirs), expected, "{client:?}");
    }
}

#[test]
fn on_windows_a_missing_appdata_or_profile_is_named_in_the_refusal() {
    let no_appdata = Dirs {
        appdata: None,
        ..windows_user()
    };
    for client in [Client::ClaudeDesktop, Client::Vscode] {
        let error = client.default_path(Os::Windows, &no_appdata).unwrap_err();
        assert!(
            matches!(
                error,
                SetupError::NoFolder {
                    variable: "APPDATA"
                }
            ),
            "{client:?}: {error:?}"
        );
        assert!(
            error.to_string().starts_with("APPDATA is not set"),
            "{error}"
        );
    }
    let no_profile = Dirs {
        home: None,
        ..windows_user()
    };
    for client in [
        Client::ClaudeCode,
        Client::Codex,
        Client::Cursor,
        Client::GeminiCli,
    ] {
        assert!(matches!(
            client.default_path(Os::Windows, &no_profile),
            Err(SetupError::NoFolder {
                variable: "USERPROFILE"
            })
        ));
    }
    // The profile is not needed for the files under APPDATA.
    assert_eq!(
        path(Client::Vscode, Os::Windows, &no_profile),
        "C:/Users/me/AppData/Roaming/Code/User/mcp.json"
    );
}

#[test]
fn the_clients_own_variables_move_their_files() {
    let dirs = Dirs {
        home: Some(PathBuf::from("/home/me")),
        appdata: None,
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
            Err(SetupError::NoFolder { variable: "HOME" })
        ));
    }
    let codex = Dirs {
        codex_home: Some(PathBuf::from("/codex")),
        ..Dirs::default()
    };
    assert_eq!(path(Client::Codex, Os::Linux, &codex), "/codex/config.toml");
}
