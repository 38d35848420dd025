//! Finding a vault's TC Bridge with no configuration: the plugin keeps its port and token in
//! the vault ([`PLUGIN_DATA`]), so a vault whose config has no `companion` uses
//! `http://127.0.0.1:<port>` with that token. Loopback only, whatever the file says: the URL
//! is built from the port alone.
//!
//! The plugin rewrites the file when the user regenerates the token or changes the port, so
//! each lookup compares the file's modification time and size with the last read's (one
//! `stat`) and reads it again only when they changed. A rewrite that keeps both (a new token
//! of the same length within the filesystem's timestamp granularity) is caught by TC Bridge
//! refusing the old token: the registry then reads the file again (`again`).

use std::collections::HashMap;
use std::fmt;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

use crate::config::sections::CompanionConfig;

use super::plugin_data::{DEFAULT_PORT, PLUGIN_DATA, PluginData};

/// Why a vault has no companion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Absent {
    /// The vault's config says `companion: false`.
    Off,
    /// No TC Bridge settings file in the vault (TC Bridge not installed, or never loaded).
    NoSettings {
        /// Where the file would be.
        file: PathBuf,
    },
    /// The settings file is there but names no usable companion.
    Unusable {
        /// The file.
        file: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for Absent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Absent::Off => f.write_str("it is turned off in the configuration (companion: false)"),
            Absent::NoSettings { file } => {
                write!(f, "no TC Bridge settings at {}", file.display())
            }
            Absent::Unusable { file, reason } => write!(
                f,
                "TC Bridge's settings at {} cannot be used: {reason}",
                file.display()
            ),
        }
    }
}

/// The companion TC Bridge's settings describe: `http://127.0.0.1:<port>` (the plugin's
/// default port when the file names none) with the file's token; a file without a token names
/// none yet.
fn companion_of(data: &PluginData) -> Result<CompanionConfig, String> {
    let token = data.token.clone().ok_or_else(|| {
        "it has no token yet (TC Bridge writes one when it first loads in Obsidian)".to_owned()
    })?;
    let port = data.port.unwrap_or(DEFAULT_PORT);
    Ok(CompanionConfig::at(
        format!("http://127.0.0.1:{port}"),
        Some(token),
    ))
}

/// A file's modification time and size: when both are as last read, the file is not read again.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
}

/// What a vault's settings file said when last read.
#[derive(Debug)]
struct Seen {
    file: PathBuf,
    stamp: Stamp,
    found: Result<CompanionConfig, Absent>,
}

/// The TC Bridge settings files of the served vaults, each read again only when it changed.
#[derive(Debug, Default)]
pub struct SettingsFiles {
    seen: Mutex<HashMap<String, Seen>>,
}

impl SettingsFiles {
    /// The companion the settings file in the vault folder `root` names for vault `vault`:
    /// as last read when the file's modification time and size are unchanged (and `again` is
    /// false), else read now. A missing file is [`Absent::NoSettings`]; an unreadable or
    /// malformed one, or one without a token, [`Absent::Unusable`].
    pub fn companion(
        &self,
        vault: &str,
        root: &Path,
        again: bool,
    ) -> Result<CompanionConfig, Absent> {
        let file = root.join(PLUGIN_DATA);
        let stamp = stamp(&file)?;
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(last) = seen.get(vault)
            && !again
            && last.file == file
            && last.stamp == stamp
        {
            return last.found.clone();
        }
        // the stamp is taken before reading: a write during the read changes it, and the
        // next lookup reads again
        let found = read(&file);
        if let Err(absent) = &found {
            tracing::info!(vault, %absent, "no companion from TC Bridge's settings");
        }
        seen.insert(
            vault.to_owned(),
            Seen {
                file,
                stamp,
                found: found.clone(),
            },
        );
        found
    }
}

/// The companion TC Bridge's settings file in the vault folder `root` names now (read once,
/// remembered nowhere: what `doctor` reports).
pub fn found_in(root: &Path) -> Result<CompanionConfig, Absent> {
    let file = root.join(PLUGIN_DATA);
    stamp(&file)?;
    read(&file)
}

/// The stamp of the settings file `file`; [`Absent::NoSettings`] when there is none.
fn stamp(file: &Path) -> Result<Stamp, Absent> {
    match std::fs::metadata(file) {
        Ok(meta) => Ok(Stamp {
            modified: meta.modified().ok(),
            len: meta.len(),
        }),
        Err(error) if error.kind() == ErrorKind::NotFound => Err(Absent::NoSettings {
            file: file.to_path_buf(),
        }),
        Err(error) => Err(Absent::Unusable {
            file: file.to_path_buf(),
            reason: error.to_string(),
        }),
    }
}

/// The companion the settings file `file` names.
fn read(file: &Path) -> Result<CompanionConfig, Absent> {
    PluginData::read_file(file)
        .map_err(|error| error.reason)
        .and_then(|data| companion_of(&data))
        .map_err(|reason| Absent::Unusable {
            file: file.to_path_buf(),
            reason,
        })
}
