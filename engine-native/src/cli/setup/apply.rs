//! Applies an edit to a configuration file on disk, so that the file is always either as it
//! was or as edited:
//!
//! - a missing file (and its folder) is created; an existing one is read as UTF-8 text;
//! - a symbolic link (a dotfiles setup) is followed and the file it names is edited, so the
//!   link stays;
//! - an edit that changes nothing writes nothing;
//! - otherwise the old bytes are first copied to `<file>.bak-<UTC time>` next to it (e.g.
//!   `mcp.json.bak-20260501T093000Z`, with `-2`, `-3`, ... when that name is taken; never
//!   overwritten) with the file's permissions, and the new text replaces the file atomically
//!   (temp file, fsync, rename, fsync of the folder), with the file's permissions;
//! - when the file changed on disk while it was edited (the client saved it), nothing is
//!   written.

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::entry::{Change, Edited};
use super::error::SetupError;
use super::malformed::{Malformed, Problem};
use crate::calendar::rfc3339_utc;
use crate::vault::{Replace, write_file};

/// How many numbered backup names are tried when the timestamped one is taken.
const BACKUP_ATTEMPTS: usize = 100;

/// What [`apply`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The file edited (a symbolic link's target).
    pub file: PathBuf,
    /// The symbolic link that was given, when `file` is its target.
    pub link: Option<PathBuf>,
    /// What changed in it.
    pub change: Change,
    /// Whether the file was created.
    pub created: bool,
    /// The copy of the old file, when there was one and it changed.
    pub backup: Option<PathBuf>,
}

/// Runs `edit` on the text of the file at `path` (`""` when it does not exist) and writes the
/// result as the module docs say; nothing is written when `edit` refuses the text.
pub fn apply(
    path: &Path,
    edit: impl FnOnce(&str) -> Result<Edited, Malformed>,
) -> Result<Applied, SetupError> {
    let (file, link) = follow_link(path)?;
    let old = read(&file)?;
    let text = match &old {
        None => "",
        Some(old) => std::str::from_utf8(&old.bytes).map_err(|error| SetupError::Malformed {
            path: file.clone(),
            malformed: Malformed::at(
                // The valid prefix is text: the place is counted in it.
                std::str::from_utf8(&old.bytes[..error.valid_up_to()]).unwrap_or_default(),
                error.valid_up_to(),
                Problem::NotUtf8,
            ),
        })?,
    };
    let edited = edit(text).map_err(|malformed| SetupError::Malformed {
        path: file.clone(),
        malformed,
    })?;
    let mut applied = Applied {
        file,
        link,
        change: edited.change,
        created: old.is_none(),
        backup: None,
    };
    if applied.change == Change::Unchanged {
        return Ok(applied);
    }
    match old {
        Some(old) => {
            if read(&applied.file)?.is_none_or(|now| now.bytes != old.bytes) {
                return Err(SetupError::ChangedMeanwhile(applied.file));
            }
            applied.backup = Some(backup(&applied.file, &old)?);
            write_file(
                &applied.file,
                edited.text.as_bytes(),
                Some(old.mode.clone()),
                Replace::Allowed,
            )
            .map_err(|error| io_error("replace", &applied.file, error))?;
        }
        None => {
            if let Some(folder) = applied.file.parent() {
                fs::create_dir_all(folder).map_err(|error| io_error("create", folder, error))?;
            }
            write_file(
                &applied.file,
                edited.text.as_bytes(),
                None,
                Replace::Refused,
            )
            .map_err(|error| match error.kind() {
                io::ErrorKind::AlreadyExists => SetupError::ChangedMeanwhile(applied.file.clone()),
                _ => io_error("create", &applied.file, error),
            })?;
        }
    }
    Ok(applied)
}

/// The file to edit and the link that named it: a symbolic link is resolved to the file it
/// points to, or, when that does not exist yet, to the path the link names.
fn follow_link(path: &Path) -> Result<(PathBuf, Option<PathBuf>), SetupError> {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            return Ok((path.to_path_buf(), None));
        }
        Err(error) => return Err(io_error("inspect", path, error)),
    };
    let (file, link) = if meta.file_type().is_symlink() {
        let file = match fs::canonicalize(path) {
            Ok(file) => file,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                let target = fs::read_link(path).map_err(|error| io_error("read", path, error))?;
                path.parent()
                    .map_or(target.clone(), |folder| folder.join(&target))
            }
            Err(error) => return Err(io_error("follow the link", path, error)),
        };
        (file, Some(path.to_path_buf()))
    } else {
        (path.to_path_buf(), None)
    };
    match fs::metadata(&file) {
        Ok(meta) if !meta.is_file() => Err(SetupError::NotAFile(file)),
        _ => Ok((file, link)),
    }
}

/// An existing file's bytes and permissions.
struct OldFile {
    bytes: Vec<u8>,
    mode: Permissions,
}

/// The file's bytes and permissions; `None` when it does not exist.
fn read(file: &Path) -> Result<Option<OldFile>, SetupError> {
    let opened = match File::open(file) {
        Ok(opened) => opened,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(io_error("read", file, error)),
    };
    let read = (|| -> io::Result<OldFile> {
        let mode = opened.metadata()?.permissions();
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut &opened, &mut bytes)?;
        Ok(OldFile { bytes, mode })
    })();
    read.map(Some)
        .map_err(|error| io_error("read", file, error))
}

/// Copies `old` to a new `<file>.bak-<UTC time>[-n]` next to `file`, fsynced; returns its path.
fn backup(file: &Path, old: &OldFile) -> Result<PathBuf, SetupError> {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX)
        });
    let stamp: String = rfc3339_utc(seconds)
        .chars()
        .filter(|c| !matches!(c, '-' | ':'))
        .collect();
    let mut name = file.as_os_str().to_owned();
    name.push(format!(".bak-{stamp}"));
    let first = PathBuf::from(name);
    for attempt in 1..=BACKUP_ATTEMPTS {
        let path = if attempt == 1 {
            first.clone()
        } else {
            let mut numbered = first.clone().into_os_string();
            numbered.push(format!("-{attempt}"));
            PathBuf::from(numbered)
        };
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        crate::vault::os::create_with(&mut options, &old.mode);
        let created = options.open(&path);
        let mut copy = match created {
            Ok(copy) => copy,
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(io_error("create the backup", &path, error)),
        };
        let written = copy.write_all(&old.bytes).and_then(|()| copy.sync_all());
        return match written {
            Ok(()) => Ok(path),
            Err(error) => {
                // Best effort: a partial backup must not look like a good one.
                let _ = fs::remove_file(&path);
                Err(io_error("write the backup", &path, error))
            }
        };
    }
    Err(io_error(
        "create the backup",
        &first,
        io::Error::other(format!("{BACKUP_ATTEMPTS} backup names are taken")),
    ))
}

fn io_error(action: &'static str, path: &Path, error: io::Error) -> SetupError {
    SetupError::Io {
        action,
        path: path.to_path_buf(),
        error,
    }
}
