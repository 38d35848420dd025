//! Opening one SQLite connection to `cache.db` with the pragmas every connection needs.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use super::StoreError;

/// How long a connection waits for another writer before failing with `SQLITE_BUSY`.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Opens (creating if needed) the database file and applies the per-connection pragmas.
///
/// `busy_timeout` is installed first, before `journal_mode`, which itself needs a lock: setting
/// it later made a second process fail at start-up with "database is locked" (v1 bug §9.8).
pub(super) fn open_connection(path: &Path) -> Result<Connection, StoreError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // journal_mode answers with the mode in force (a filesystem without shared memory keeps
    // its rollback journal; SQLite stays correct, only slower).
    let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
    conn.execute_batch("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;")?;
    Ok(conn)
}
