//! The server entry `setup` writes, and what an edit did with it.

use super::client::Client;
use super::error::SetupError;

/// The entry's name without `--name`.
pub const DEFAULT_NAME: &str = "obsidian-tc";

/// One client's entry for the stdio server on one vault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerEntry {
    /// The key under the client's server table: `obsidian-tc` or `obsidian-tc-<name>`.
    pub name: String,
    /// The executable, an absolute path.
    pub command: String,
    /// Its arguments: the vault folder's absolute path.
    pub args: Vec<String>,
    /// Whether a new entry says `"type": "stdio"` (see [`Client::states_stdio_type`]).
    pub stdio_type: bool,
}

impl ServerEntry {
    /// The entry `client` gets for running `command` (absolute) on `vault` (absolute).
    pub fn new(client: Client, name: String, command: String, vault: String) -> ServerEntry {
        ServerEntry {
            name,
            command,
            args: vec![vault],
            stdio_type: client.states_stdio_type(),
        }
    }
}

/// The entry's name: [`DEFAULT_NAME`], or `obsidian-tc-<suffix>` for `--name <suffix>`
/// (ASCII letters, digits, `-` and `_`: every client accepts those in a server name, and Codex
/// accepts nothing else).
pub fn server_name(suffix: Option<&str>) -> Result<String, SetupError> {
    match suffix {
        None => Ok(DEFAULT_NAME.to_owned()),
        Some(suffix)
            if !suffix.is_empty()
                && suffix
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
        {
            Ok(format!("{DEFAULT_NAME}-{suffix}"))
        }
        Some(suffix) => Err(SetupError::Name(suffix.to_owned())),
    }
}

/// What an edit did to the entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// The file already had this entry: nothing to write.
    Unchanged,
    /// There was no entry of this name: it was added.
    Added,
    /// A stdio entry of this name had other values for these keys (`command`, `args`); its
    /// other keys were kept.
    Updated(Vec<&'static str>),
    /// Something else had this name (not a stdio server): it was replaced.
    Replaced,
}

/// A file's new text and what changed in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edited {
    /// The whole new text (the old one when [`Change::Unchanged`]).
    pub text: String,
    /// What happened to the entry.
    pub change: Change,
}
