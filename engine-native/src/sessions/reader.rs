//! Reading a session's trace back: every line of every part, in order. A line that is not a
//! whole record (torn by a crash mid-write, or damaged) is skipped and counted, never fatal.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use super::files::parts;
use super::record::Record;

/// How much of a file's end is read to find its last record.
const TAIL_BYTES: u64 = 1024 * 1024;

/// A session's records and how many lines could not be read.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct SessionLog {
    /// The records, in the order they were written.
    pub records: Vec<Record>,
    /// Lines that are not a whole record (a torn last line after a crash).
    pub skipped_lines: u64,
}

/// Every record of session `id` in `dir`.
pub fn read_session(dir: &Path, id: &str) -> io::Result<SessionLog> {
    let mut log = SessionLog::default();
    for part in parts(dir, id) {
        let mut bytes = Vec::new();
        File::open(part)?.read_to_end(&mut bytes)?;
        for line in bytes.split(|&b| b == b'\n').filter(|line| !line.is_empty()) {
            match serde_json::from_slice(line) {
                Ok(record) => log.records.push(record),
                Err(_) => log.skipped_lines += 1,
            }
        }
    }
    Ok(log)
}

/// The first record of session `id` (its start, unless the file is damaged).
pub(super) fn first_record(dir: &Path, id: &str) -> io::Result<Option<Record>> {
    let Some(first) = parts(dir, id).into_iter().next() else {
        return Ok(None);
    };
    let mut line = Vec::new();
    BufReader::new(File::open(first)?).read_until(b'\n', &mut line)?;
    Ok(serde_json::from_slice(&line).ok())
}

/// The last whole record of session `id`.
pub(super) fn last_record(dir: &Path, id: &str) -> io::Result<Option<Record>> {
    for part in parts(dir, id).iter().rev() {
        if let Some(record) = last_in_file(part)? {
            return Ok(Some(record));
        }
    }
    Ok(None)
}

/// The last whole record among the last [`TAIL_BYTES`] of a file.
fn last_in_file(path: &Path) -> io::Result<Option<Record>> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    let start = len.saturating_sub(TAIL_BYTES);
    file.seek(SeekFrom::Start(start))?;
    let mut tail = Vec::new();
    file.read_to_end(&mut tail)?;
    let mut lines: Vec<&[u8]> = tail.split(|&b| b == b'\n').collect();
    if start > 0 && !lines.is_empty() {
        // the window starts inside a line
        lines.remove(0);
    }
    Ok(lines
        .iter()
        .rev()
        .filter(|line| !line.is_empty())
        .find_map(|line| serde_json::from_slice(line).ok()))
}
