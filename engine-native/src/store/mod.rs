//! The SQLite store: one `cache.db` holding every vault's rows, each scoped by `vault_id`.
//!
//! # Connections
//! A [`Store`] owns two connections to the same file, each behind a `Mutex`:
//! - the **writer**: every change runs on it inside a `BEGIN IMMEDIATE` transaction, so a
//!   read-decide-write sequence (an idempotency claim, an elicit consume) is atomic against
//!   other threads of this process *and* against other processes or `Store`s on the same file
//!   (SQLite holds the write lock for the whole transaction; `busy_timeout` makes the others wait);
//! - the **reader**: plain queries, which in WAL mode never wait for the writer.
//!
//! `Store` is `Send + Sync`; share it in an `Arc`. Times are Unix seconds passed in by the caller
//! (`now`), never read from the system clock here, so every rule is testable.
//!
//! # Repositories
//! One typed handle per concern: [`Store::idempotency`], [`Store::elicit`], [`Store::events`],
//! [`Store::notes`], [`Store::note_index`], [`Store::note_facts`], [`Store::snapshots`],
//! [`Store::catalog_vectors`], [`Store::capture_queue`], [`Store::retrievals`] (the retrieval
//! log), [`Store::contradictions`], [`Store::note_quality`], [`Store::episodes`] (the work memory), [`Store::counts`] for the metrics, and
//! [`Store::sweep`] for maintenance.

mod capture_queue;
mod catalog_vectors;
mod connection;
mod contradictions;
mod counts;
mod elicit;
mod episodes;
mod error;
mod events;
mod gap_reports;
mod idempotency;
mod in_use;
mod link_graph;
mod migrations;
mod note_facts;
mod note_index;
mod note_quality;
mod notes;
mod random;
mod retrievals;
mod snapshots;
mod sqlite_vec;
mod sweep;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use rusqlite::{Connection, Transaction, TransactionBehavior};

pub use capture_queue::{
    Capture, CapturePage, CaptureQueue, Commit, Enqueued, MAX_CAPTURE_BYTES, NewCapture,
};
pub use catalog_vectors::CatalogVectorRows;
pub use contradictions::{
    ContradictionRow, Contradictions, PairSide, StoredChunk, chunk_key, content_sha256, pair_id,
};
pub use counts::{Counts, IndexCounts, LoggedCalls};
pub use elicit::{ApproveError, Elicit, ElicitError, ElicitRequest, PendingElicit};
pub use episodes::{
    Eligible, EpisodeQuery, EpisodeRow, Episodes, GroupBy, NewEpisode, TextMatch, VerdictsStamped,
};
pub use error::{StoreError, store_fault};
pub use events::{Event, EventFilter, EventLog, LoggedEvent, Outcome};
pub use gap_reports::{GapItem, GapPass, GapReports, NewGapPass};
pub use idempotency::{Claim, Idempotency, IdempotencyPolicy};
pub use in_use::held_by_others;
pub use link_graph::{LinkDetailRow, LinkGraphRows};
pub use migrations::SCHEMA_VERSION;
pub use note_facts::{NoteFacts, NoteFactsRepo};
pub use note_index::{
    Applied, ChunkChange, ChunkRow, FileStamp, IndexFailure, NoteFields, NoteIndex, RowChange,
};
pub use note_quality::{NoteQuality, NoteQualityRow, QualityFacts, Retrieved};
pub use notes::{NoteMeta, NotePage, Notes};
pub use retrievals::{
    Feedback, FeedbackStamped, LoggedRetrieval, Retrieval, RetrievalEvent, RetrievalWindow,
    Retrievals, RetrievedHit,
};
pub use snapshots::{ChangedFile, NewChange, Snapshot, SnapshotInfo, Snapshots};
pub use sweep::{Retention, SweepCounts, VaultRowCounts};

/// A new unique id for one change (tool call) of the snapshots.
pub fn new_change_id() -> Result<String, StoreError> {
    random::token_hex()
}

/// A new unguessable session id (32 hex), for [`crate::sessions`].
pub fn new_session_id() -> Result<String, StoreError> {
    random::token_hex()
}

/// A new random id for a vault folder ([`crate::vault_cache`]'s `vault-id`, 32 hex).
pub fn new_vault_id() -> Result<String, StoreError> {
    random::token_hex()
}

/// The largest page any list in the store returns.
pub const MAX_PAGE: u32 = 1000;

/// The file name of the cache database inside the cache directory.
pub const CACHE_DB_FILE: &str = "cache.db";

/// The cache database: migrated on open, shared by every vault.
#[derive(Debug)]
pub struct Store {
    path: PathBuf,
    writer: Mutex<Connection>,
    reader: Mutex<Connection>,
    idempotency_policy: IdempotencyPolicy,
}

impl Store {
    /// Opens `path` (creating it and its parent directories), applies pending migrations, and
    /// refuses a file written by a newer obsidian-tc with [`StoreError::NewerSchema`].
    /// An invalid `idempotency_policy` is refused before the file is touched.
    pub fn open(path: &Path, idempotency_policy: IdempotencyPolicy) -> Result<Self, StoreError> {
        idempotency_policy.validate()?;
        // vec0 tables (crate::vectors) need sqlite-vec on every connection of the store.
        sqlite_vec::register_sqlite_vec()?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::CreateDir {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let mut writer = connection::open_connection(path)?;
        migrations::migrate(&mut writer)?;
        let reader = connection::open_connection(path)?;
        Ok(Self {
            path: path.to_path_buf(),
            writer: Mutex::new(writer),
            reader: Mutex::new(reader),
            idempotency_policy,
        })
    }

    /// The database file this store was opened on.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version of the open file.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        migrations::schema_version(&lock(&self.reader))
    }

    /// Which of the SQLite features the index relies on this build has (`FTS5`, `JSON1`,
    /// `RTREE`), as `(name, present)`.
    pub fn features(&self) -> Result<Vec<(&'static str, bool)>, StoreError> {
        let reader = lock(&self.reader);
        let mut out = Vec::new();
        for (name, option) in [
            ("FTS5", "ENABLE_FTS5"),
            ("JSON1", "ENABLE_JSON1"),
            ("RTREE", "ENABLE_RTREE"),
        ] {
            let used: bool = if name == "JSON1" {
                // Built in since SQLite 3.38; the compile option only exists to leave it out.
                reader.query_row("SELECT json_valid('{}')", [], |row| row.get(0))?
            } else {
                reader.query_row("SELECT sqlite_compileoption_used(?1)", [option], |row| {
                    row.get(0)
                })?
            };
            out.push((name, used));
        }
        Ok(out)
    }

    /// Idempotency keys: claim, complete, mark indeterminate, release.
    pub fn idempotency(&self) -> Idempotency<'_> {
        Idempotency::new(self, self.idempotency_policy)
    }

    /// Elicit tokens: pending requests, out-of-band approval and minting, single-use consume.
    pub fn elicit(&self) -> Elicit<'_> {
        Elicit::new(self)
    }

    /// The event log (audit rows) of tool calls.
    pub fn events(&self) -> EventLog<'_> {
        EventLog::new(self)
    }

    /// The notes metadata table.
    pub fn notes(&self) -> Notes<'_> {
        Notes::new(self)
    }

    /// The search index rows: chunks, links, tags, tasks, aliases, failures, index state.
    pub fn note_index(&self) -> NoteIndex<'_> {
        NoteIndex::new(self)
    }

    /// The facts of indexed notes that rule-based search filters on.
    pub fn note_facts(&self) -> NoteFactsRepo<'_> {
        NoteFactsRepo::new(self)
    }

    /// Snapshots of files before tool calls changed them: record, list, read, undo.
    pub fn snapshots(&self) -> Snapshots<'_> {
        Snapshots::new(self)
    }

    /// The tool catalog's embeddings, kept across restarts.
    pub fn catalog_vectors(&self) -> CatalogVectorRows<'_> {
        CatalogVectorRows::new(self)
    }

    /// The capture queue: text staged for filing later, until committed to a note.
    pub fn capture_queue(&self) -> CaptureQueue<'_> {
        CaptureQueue::new(self)
    }

    /// The retrieval log: ranked searches, what they returned, and feedback on it.
    pub fn retrievals(&self) -> Retrievals<'_> {
        Retrievals::new(self)
    }

    /// The gap passes: how well the vault answers a query set, per query.
    pub fn gap_reports(&self) -> GapReports<'_> {
        GapReports::new(self)
    }

    /// Contradictions judged between chunks, and how far the detector has walked.
    pub fn contradictions(&self) -> Contradictions<'_> {
        Contradictions::new(self)
    }

    /// The note-quality rollup and what its pass reads.
    pub fn note_quality(&self) -> NoteQuality<'_> {
        NoteQuality::new(self)
    }

    /// Aggregates for the metrics: index sizes, the event log's calls.
    pub fn counts(&self) -> Counts<'_> {
        Counts::new(self)
    }

    /// The rows the link graph is built from: note paths and stored links.
    pub fn link_graph(&self) -> LinkGraphRows<'_> {
        LinkGraphRows::new(self)
    }

    /// Runs `f` in one `IMMEDIATE` transaction on the writer, committing when it returns `Ok`.
    pub(crate) fn write<T, E: From<rusqlite::Error>>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut conn = lock(&self.writer);
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// Runs a read-only `f` on the reader connection.
    pub(crate) fn read<T, E>(&self, f: impl FnOnce(&Connection) -> Result<T, E>) -> Result<T, E> {
        f(&lock(&self.reader))
    }
}

/// Locks a connection. A panic while the lock was held unwound through the open transaction's
/// `Drop`, which rolled it back, so the connection is sound and the poison flag is ignored.
fn lock(conn: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Checks a page size against `1..=MAX_PAGE`.
fn check_limit(limit: u32) -> Result<(), StoreError> {
    if limit == 0 || limit > MAX_PAGE {
        return Err(StoreError::InvalidLimit {
            limit,
            max: MAX_PAGE,
        });
    }
    Ok(())
}

/// Checks that a time-to-live is a positive number of seconds.
fn check_ttl(ttl_seconds: i64) -> Result<(), StoreError> {
    if ttl_seconds <= 0 {
        return Err(StoreError::InvalidTtl { ttl_seconds });
    }
    Ok(())
}
