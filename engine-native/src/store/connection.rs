//! Opening one SQLite connection to `cache.db` with the pragmas every connection needs.

use std::path::Path;
use std::time::{Duration, Instant};

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
    switch_to_wal(&conn)?;
    conn.execute_batch("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;")?;
    Ok(conn)
}

/// Puts the file in WAL mode, retrying while another connection holds the lock the switch needs.
///
/// On a new file the switch first reads the header under a shared lock and then asks for the
/// write lock; SQLite answers `SQLITE_BUSY` at once there, without the busy handler, because
/// waiting while holding the shared lock could deadlock. Several processes opening one new
/// `cache.db` together met exactly that, so the whole statement is retried for up to
/// [`BUSY_TIMEOUT`]. `journal_mode` answers with the mode in force: a filesystem without shared
/// memory keeps its rollback journal, and SQLite stays correct, only slower.
fn switch_to_wal(conn: &Connection) -> Result<(), rusqlite::Error> {
    let deadline = Instant::now() + BUSY_TIMEOUT;
    loop {
        match conn.query_row("PRAGMA journal_mode = WAL", [], |row| {
            row.get::<_, String>(0)
        }) {
            Ok(_mode) => return Ok(()),
            Err(error)
                if error.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                    && Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(error) => return Err(error),
        }
    }
}
