//! The files of one session in a vault's trace folder: `<id>.jsonl` is the one written to;
//! when it would grow past the size limit it is renamed `<id>.1.jsonl` (then `<id>.2.jsonl`,
//! ...) and a new `<id>.jsonl` begins, so the parts in number order, then `<id>.jsonl`, are
//! the whole trace. Every record is one `write_all` of a whole line to a file opened with
//! `O_APPEND`: a crash leaves at most one torn line, at the end.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The extension of every trace file.
const EXTENSION: &str = ".jsonl";

/// Whether `text` is a session id: 32 lowercase hex characters.
pub fn is_session_id(text: &str) -> bool {
    text.len() == 32
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The file a session's records are appended to.
pub(super) fn active_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}{EXTENSION}"))
}

/// The `n`th rotated part of a session (from 1).
fn part_path(dir: &Path, id: &str, n: u32) -> PathBuf {
    dir.join(format!("{id}.{n}{EXTENSION}"))
}

/// How many rotated parts a session has.
fn rotated_parts(dir: &Path, id: &str) -> u32 {
    (1..)
        .find(|&n| !part_path(dir, id, n).exists())
        .map_or(0, |n| n - 1)
}

/// A session's files in reading order: the rotated parts, then the active file (each only
/// when it exists).
pub(super) fn parts(dir: &Path, id: &str) -> Vec<PathBuf> {
    let mut parts: Vec<PathBuf> = (1..=rotated_parts(dir, id))
        .map(|n| part_path(dir, id, n))
        .collect();
    let active = active_path(dir, id);
    if active.exists() {
        parts.push(active);
    }
    parts
}

/// The ids of the sessions whose files are in `dir` (none when it does not exist).
pub(super) fn session_ids(dir: &Path) -> io::Result<Vec<String>> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    let mut ids = Vec::new();
    for entry in entries {
        let name = entry?.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(stem) = name.strip_suffix(EXTENSION) else {
            continue;
        };
        // `<id>.jsonl`, or `<id>.<n>.jsonl` of a session whose active file is gone
        let id = stem.split_once('.').map_or(stem, |(id, _)| id);
        if is_session_id(id) && !ids.iter().any(|known| known == id) {
            ids.push(id.to_owned());
        }
    }
    ids.sort();
    Ok(ids)
}

/// Writes the first line of a new session, creating `dir` when needed.
pub(super) fn create(dir: &Path, id: &str, line: &[u8]) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    OpenOptions::new()
        .append(true)
        .create_new(true)
        .open(active_path(dir, id))?
        .write_all(line)
}

/// Appends `line` (one whole record with its newline) in one write, rotating the active
/// file first when the line would take it past `max_bytes` (a file is never left empty by
/// a rotation, so one line longer than the limit still goes in). A torn last line (a crash
/// or a failed write mid-line) is ended first, in the same write, so only it is unreadable.
/// Returns the file written.
pub(super) fn append(dir: &Path, id: &str, line: &[u8], max_bytes: u64) -> io::Result<File> {
    let active = active_path(dir, id);
    let mut file = open_append(&active)?;
    let mut len = file.metadata()?.len();
    let line_len = u64::try_from(line.len()).unwrap_or(u64::MAX);
    if len > 0 && len.saturating_add(line_len) > max_bytes {
        drop(file);
        fs::rename(&active, part_path(dir, id, rotated_parts(dir, id) + 1))?;
        file = open_append(&active)?;
        len = 0;
    }
    if len > 0 && !ends_with_newline(&mut file)? {
        let mut whole = Vec::with_capacity(line.len() + 1);
        whole.push(b'\n');
        whole.extend_from_slice(line);
        file.write_all(&whole)?;
    } else {
        file.write_all(line)?;
    }
    Ok(file)
}

/// Whether the last byte of a non-empty `file` is a newline (writes still append).
fn ends_with_newline(file: &mut File) -> io::Result<bool> {
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

/// Deletes every file of a session.
pub(super) fn remove(dir: &Path, id: &str) -> io::Result<()> {
    for part in parts(dir, id) {
        match fs::remove_file(part) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
            _ => {}
        }
    }
    Ok(())
}

/// `path` opened to append (and read its end), created when missing.
fn open_append(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
}

#[cfg(test)]
mod tests {
    use super::{append, create, parts, session_ids};
    use crate::sessions::read_session;

    const ID: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn a_torn_line_stays_alone_and_rotation_keeps_the_order() {
        let dir = tempfile::tempdir().expect("temp dir");
        let dir = dir.path();
        let line = |n: usize| format!("{{\"kind\":\"end\",\"ts\":\"{n:020}\"}}\n").into_bytes();
        create(dir, ID, &line(0)).expect("create");
        append(dir, ID, b"{\"kind\":\"ca", 1 << 20).expect("torn");
        for n in 1..10 {
            append(dir, ID, &line(n), 100).expect("append");
        }
        assert_eq!(
            parts(dir, ID).len(),
            5,
            "records 0 and 1 with the torn fragment closed between them, then two 43-byte lines per 100-byte file"
        );
        assert_eq!(session_ids(dir).expect("ids"), [ID]);
        let log = read_session(dir, ID).expect("read");
        assert_eq!(log.skipped_lines, 1);
        let stamps: Vec<String> = log.records.iter().map(|r| r.ts().to_owned()).collect();
        let expected: Vec<String> = (0..10).map(|n| format!("{n:020}")).collect();
        assert_eq!(stamps, expected);
    }
}
