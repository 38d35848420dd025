//! The errors of the store: every failure is typed and says what to do.

use std::fmt;
use std::path::PathBuf;

use crate::errors::ToolError;

/// A failure of the store.
#[derive(Debug)]
pub enum StoreError {
    /// SQLite refused an operation.
    Sqlite(rusqlite::Error),
    /// The directory that holds `cache.db` could not be created.
    CreateDir {
        /// The directory that could not be created.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The database was written by a newer obsidian-tc; this one refuses to touch it.
    NewerSchema {
        /// The schema version found in the file.
        found: i64,
        /// The newest schema version this build knows.
        supported: i64,
    },
    /// A page size outside `1..=max`.
    InvalidLimit {
        /// The limit that was asked for.
        limit: u32,
        /// The largest allowed limit.
        max: u32,
    },
    /// A time-to-live that is not a positive number of seconds.
    InvalidTtl {
        /// The ttl that was given, in seconds.
        ttl_seconds: i64,
    },
    /// A number that does not fit SQLite's signed 64-bit integers.
    OutOfRange {
        /// Which value was too large.
        what: &'static str,
    },
    /// A JSON column could not be read or written.
    Json(serde_json::Error),
    /// `complete`/`mark_indeterminate` found no in-flight claim for the key.
    NoClaim {
        /// The vault of the key.
        vault_id: String,
        /// The idempotency key.
        key: String,
    },
    /// The operating system's random number generator failed.
    Random(getrandom::Error),
    /// Content to queue is larger than the capture queue keeps.
    CaptureTooLarge {
        /// Its size, bytes.
        size: usize,
        /// The largest size kept, bytes.
        max: usize,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sqlite(e) => write!(f, "cache database error: {e}"),
            Self::CreateDir { path, source } => write!(
                f,
                "cannot create the cache directory {}: {source}; choose a writable cache directory",
                path.display()
            ),
            Self::NewerSchema { found, supported } => write!(
                f,
                "cache.db has schema version {found}, newer than the {supported} this obsidian-tc \
                 supports; upgrade obsidian-tc or point it at another cache directory"
            ),
            Self::InvalidLimit { limit, max } => {
                write!(
                    f,
                    "limit {limit} is out of range; use a limit from 1 to {max}"
                )
            }
            Self::InvalidTtl { ttl_seconds } => write!(
                f,
                "time-to-live {ttl_seconds} s is not positive; give a ttl of at least 1 second"
            ),
            Self::OutOfRange { what } => {
                write!(f, "{what} is larger than the cache database can store")
            }
            Self::Json(e) => write!(f, "invalid JSON in the cache database: {e}"),
            Self::NoClaim { vault_id, key } => write!(
                f,
                "no in-flight idempotency claim for key {key:?} in vault {vault_id:?}; claim it first"
            ),
            Self::Random(e) => write!(f, "the operating system's random generator failed: {e}"),
            Self::CaptureTooLarge { size, max } => write!(
                f,
                "the capture is {size} bytes, more than the {max} bytes the queue keeps; \
                 write it as a note with write_note instead, or queue a shorter text"
            ),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Sqlite(e) => Some(e),
            Self::CreateDir { source, .. } => Some(source),
            Self::Json(e) => Some(e),
            _ => None,
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        Self::Sqlite(e)
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        Self::Json(e)
    }
}

/// The tool error for a failure of the cache database: `internal`.
pub fn store_fault(error: StoreError) -> ToolError {
    ToolError::internal(format!("the cache database failed: {error}"))
}
