//! `obsidian-tc setup <client> --vault <path> [--name <name>] [--print] [--config-path <file>]`:
//! adds the stdio server for one vault to an MCP client's own configuration file.
//!
//! The entry runs this executable ([`std::env::current_exe`]) with the vault's absolute path as
//! its only argument, the `obsidian-tc <vault>` stdio server the README and TC Bridge's "Copy
//! Claude desktop config" describe. It is named `obsidian-tc`, or `obsidian-tc-<name>` with
//! `--name` (one entry per vault).
//!
//! - [`client`]: the clients, where each keeps its file, its format and the entry's shape;
//! - [`entry`]: the entry (name, command, arguments);
//! - [`json_file`] and [`toml_file`]: format-preserving edits of the two formats;
//! - [`mod@apply`]: reads, backs up and atomically replaces the file;
//! - [`malformed`] and [`error`]: why a file or a request is refused.
//!
//! # The clients' files
//!
//! | client | default file | servers under | entry |
//! |---|---|---|---|
//! | `claude-desktop` | macOS `~/Library/Application Support/Claude/claude_desktop_config.json`; Windows `%APPDATA%\Claude\claude_desktop_config.json`; Linux `$XDG_CONFIG_HOME/Claude/claude_desktop_config.json` (default `~/.config`) | `mcpServers` | `command`, `args` |
//! | `claude-code` | `~/.claude.json` (user scope; `$CLAUDE_CONFIG_DIR/.claude.json` when set; Windows `%USERPROFILE%\.claude.json`); a project's `.mcp.json` with `--config-path` | `mcpServers` | `type: "stdio"`, `command`, `args` |
//! | `codex` | `~/.codex/config.toml` (`$CODEX_HOME/config.toml` when set; Windows `%USERPROFILE%\.codex\config.toml`) | `[mcp_servers.<name>]` | `command`, `args` |
//! | `cursor` | `~/.cursor/mcp.json` (Windows `%USERPROFILE%\.cursor\mcp.json`); a project's `.cursor/mcp.json` with `--config-path` | `mcpServers` | `command`, `args` |
//! | `vscode` | the default profile's `mcp.json`: Linux `$XDG_CONFIG_HOME/Code/User/mcp.json`, macOS `~/Library/Application Support/Code/User/mcp.json`, Windows `%APPDATA%\Code\User\mcp.json`; a workspace's `.vscode/mcp.json` with `--config-path` | `servers` | `type: "stdio"`, `command`, `args` |
//! | `gemini-cli` | `~/.gemini/settings.json` (`$GEMINI_CLI_HOME/.gemini/settings.json` when set; Windows `%USERPROFILE%\.gemini\settings.json`); a project's `.gemini/settings.json` with `--config-path` | `mcpServers` | `command`, `args` |
//!
//! Sources (read 2026): Claude Desktop, modelcontextprotocol.io "Connect to local MCP servers"
//! (macOS and Windows paths; Anthropic ships no Linux build, and the Linux path is the one
//! Electron's `appData` and the community builds use); Claude Code, code.claude.com/docs/en/mcp
//! ("MCP installation scopes": user scope in `~/.claude.json`, project scope in `.mcp.json`,
//! both `mcpServers` with `"type": "stdio"`) and its `CLAUDE_CONFIG_DIR` setting; Codex,
//! developers.openai.com/codex/mcp and /codex/config-basic (`~/.codex/config.toml`,
//! `[mcp_servers.<name>]` with `command`, `args`, `env`; `CODEX_HOME`); Cursor,
//! cursor.com/docs/mcp (`~/.cursor/mcp.json` global, `.cursor/mcp.json` per project,
//! `mcpServers`); VS Code, code.visualstudio.com/docs/copilot/reference/mcp-configuration
//! (`servers`, `type` required, `.vscode/mcp.json` or the user profile's `mcp.json`) and
//! /docs/getstarted/settings (the profile folder per OS); Gemini CLI,
//! geminicli.com/docs/tools/mcp-server and /docs/cli/configuration (`~/.gemini/settings.json`,
//! `mcpServers` with `command`, `args`; the loader strips comments with `strip-json-comments`;
//! `GEMINI_CLI_HOME` replaces the home folder). On Windows `~` is the user profile
//! (`%USERPROFILE%`, which [`std::env::home_dir`] reads there), as code.claude.com's "Explore
//! the .claude directory" says for Claude Code and Node's `os.homedir()` (Gemini CLI, Cursor)
//! and Codex's home lookup resolve it; the entry's command is then `obsidian-tc.exe`'s full
//! path ([`std::env::current_exe`] names the file with its extension).
//!
//! # Editing
//!
//! The file is edited, not rewritten: jsonc-parser's CST and toml_edit keep every other entry,
//! comment, indent and line ending, and only the entry's own text changes. Claude Desktop and
//! Claude Code read plain JSON, so a comment or trailing comma there is refused (the client
//! would not read the file either); Gemini CLI allows comments; VS Code and Cursor (a VS Code
//! fork whose editor opens `mcp.json` as JSONC) allow comments and trailing commas. An entry of
//! the same name that starts a stdio server (`command`, and `type` absent or `"stdio"`) keeps
//! its other keys (`env`, timeouts, `disabled`, ...) and gets this `command` and `args`; any
//! other value under that name (an HTTP entry, a string) is replaced. A file that does not
//! parse, whose top level or server table is not an object, or that names the server table or
//! this entry twice is refused with its line and column, and nothing is written. A run that
//! changes nothing writes nothing: no new file, no backup.

pub mod apply;
pub mod client;
pub mod entry;
pub mod error;
pub mod json_file;
pub mod malformed;
pub mod toml_file;

use std::path::{Path, PathBuf};

use crate::cli::EXIT_OK;
use crate::cli::args::SetupArgs;

use self::apply::{Applied, apply};
use self::client::{Client, Dirs, Format, Os};
use self::entry::{Change, Edited, ServerEntry, server_name};
use self::error::SetupError;
use self::malformed::Malformed;

/// Runs `setup`: exit 0 when the file has the entry (or `--print` printed it), 2 for a request
/// or a file this command refuses, 1 when reading or writing failed.
pub fn run_setup(args: &SetupArgs) -> u8 {
    match setup(args) {
        Ok(()) => EXIT_OK,
        Err(error) => {
            eprintln!("{error}");
            error.exit_code()
        }
    }
}

fn setup(args: &SetupArgs) -> Result<(), SetupError> {
    let entry = ServerEntry::new(
        args.client,
        server_name(args.name.as_deref())?,
        executable()?,
        vault_path(&args.vault)?,
    );
    let target = config_file(args);
    if args.print {
        let block = edit(args.client, "", &entry).map_err(|malformed| SetupError::Malformed {
            path: PathBuf::from("(new file)"),
            malformed,
        })?;
        print!("{}", block.text);
        let place = target.map_or_else(
            |_| "its configuration file".to_owned(),
            |path| path.display().to_string(),
        );
        eprintln!(
            "This is the \"{}\" entry for {} ({place}); nothing was written. Without --print, \
             `obsidian-tc setup` adds it to that file itself.",
            entry.name,
            args.client.title(),
        );
        return Ok(());
    }
    let applied = apply(&target?, |text| edit(args.client, text, &entry))?;
    print_report(args.client, &entry, &applied);
    Ok(())
}

/// The file to edit: `--config-path` made absolute, else the client's default for this user.
fn config_file(args: &SetupArgs) -> Result<PathBuf, SetupError> {
    match &args.config_path {
        Some(path) => std::path::absolute(path).map_err(|error| SetupError::Io {
            action: "resolve",
            path: path.clone(),
            error,
        }),
        None => args.client.default_path(Os::current(), &Dirs::from_env()),
    }
}

/// Adds or updates `entry` in the text of `client`'s configuration file (`""`: a new file).
pub fn edit(client: Client, text: &str, entry: &ServerEntry) -> Result<Edited, Malformed> {
    match client.format() {
        Format::Json(dialect) => json_file::edit(text, dialect, client.servers_key(), entry),
        Format::Toml => toml_file::edit(text, client.servers_key(), entry),
    }
}

/// The running executable's absolute path, as text (the entry is JSON or TOML text).
fn executable() -> Result<String, SetupError> {
    let path = std::env::current_exe().map_err(SetupError::Executable)?;
    path_text(path, "this executable's path")
}

/// The vault folder's absolute path, as text: it must exist and be a folder.
fn vault_path(vault: &Path) -> Result<String, SetupError> {
    let refused = |reason: &str| SetupError::Vault {
        path: vault.to_path_buf(),
        reason: reason.to_owned(),
    };
    // Windows: `C:\...`, not the `\\?\C:\...` form `fs::canonicalize` answers there.
    let absolute = dunce::canonicalize(vault).map_err(|error| refused(&error.to_string()))?;
    if !absolute.is_dir() {
        return Err(refused("not a folder"));
    }
    path_text(absolute, "the vault's path")
}

fn path_text(path: PathBuf, what: &'static str) -> Result<String, SetupError> {
    path.into_os_string()
        .into_string()
        .map_err(|path| SetupError::NotUtf8Path {
            what,
            path: PathBuf::from(path),
        })
}

/// Prints which file changed and how, and what the user does next.
fn print_report(client: Client, entry: &ServerEntry, applied: &Applied) {
    let file = applied.file.display();
    let name = &entry.name;
    let title = client.title();
    match &applied.change {
        Change::Unchanged => {
            println!("{file} already has this \"{name}\" entry for {title}: nothing was changed.");
            return;
        }
        Change::Added if applied.created => {
            println!("Created {file} (configuration of {title}) with the \"{name}\" entry.");
        }
        Change::Added => {
            println!("Added the \"{name}\" entry to {file} (configuration of {title}).")
        }
        Change::Updated(keys) => println!(
            "Updated the existing \"{name}\" entry in {file} (configuration of {title}): changed \
             {}; its other settings were kept.",
            keys.join(", ")
        ),
        Change::Replaced => println!(
            "Replaced the existing \"{name}\" entry in {file} (configuration of {title}): it did \
             not start a stdio server."
        ),
    }
    if let Some(link) = &applied.link {
        println!(
            "({} is a link to that file; the link was kept.)",
            link.display()
        );
    }
    println!("  command: {}", entry.command);
    println!("  args:    {}", entry.args.join(" "));
    if let Some(backup) = &applied.backup {
        println!("The file as it was is saved as {}.", backup.display());
    }
    println!("Next: {}", client.next_step());
}
