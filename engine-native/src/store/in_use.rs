//! Whether another connection, of this process or another, has a `cache.db` open: the check
//! before the file is moved (a moved database under an open connection would split in two).

use std::path::Path;

use rusqlite::{Connection, ErrorCode, OpenFlags};

use super::StoreError;

/// Whether another connection holds the database file at `path` (which must exist). In WAL
/// mode every open connection keeps a shared lock on the file for as long as it is open, so
/// an exclusive transaction in exclusive locking mode, without waiting, succeeds only when no
/// other connection exists. When it does, closing this last connection checkpoints the WAL
/// into the file and removes `-wal` and `-shm`: the database is then this one file.
pub fn held_by_others(path: &Path) -> Result<bool, StoreError> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE)?;
    let probe = conn.execute_batch(
        "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; \
         SELECT count(*) FROM sqlite_master; COMMIT;",
    );
    match probe {
        Ok(()) => {
            conn.close()
                .map_err(|(_, error)| StoreError::Sqlite(error))?;
            Ok(false)
        }
        Err(error)
            if matches!(
                error.sqlite_error_code(),
                Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
            ) =>
        {
            Ok(true)
        }
        Err(error) => Err(StoreError::Sqlite(error)),
    }
}
