//! The index rows of each note (chunks, links, tags, tasks, aliases next to its `notes` row),
//! the failures of notes that could not be indexed, and each vault's index state (its row
//! generation and the lexical snapshot that matches a generation).
//!
//! Every change to a vault's rows bumps its generation in the same transaction, so a saved
//! lexical snapshot is used only when it was taken at the current generation.

use std::collections::HashMap;

use rusqlite::{OptionalExtension, Transaction, params};

use super::{NoteMeta, Store, StoreError};
use crate::note::ParsedNote;

/// What the scanner compares a file with to decide whether to re-read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStamp {
    /// Modification time, Unix milliseconds.
    pub mtime: i64,
    /// Size in bytes.
    pub size: u64,
    /// SHA-256 of the bytes.
    pub sha256: String,
}

/// One stored chunk, as the lexical index and search results need it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkRow {
    /// Its row id (stable until the note changes).
    pub chunk_id: i64,
    /// The note's path.
    pub path: String,
    /// Position in the note, from 0.
    pub ordinal: u32,
    /// The heading breadcrumb, outermost first.
    pub headings: Vec<String>,
    /// The chunk text.
    pub text: String,
}

/// The note-level fields every chunk of a note is found by.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NoteFields {
    /// The note's title (file name without `.md`).
    pub title: String,
    /// Its aliases.
    pub aliases: Vec<String>,
    /// Its tag keys.
    pub tags: Vec<String>,
}

/// One change to a vault's index rows, for [`NoteIndex::apply`].
#[derive(Debug, Clone, Copy)]
pub enum RowChange<'a> {
    /// Replace everything stored for note `meta.path` with `parsed` and clear its failures.
    Replace {
        /// The note's `notes` row.
        meta: &'a NoteMeta,
        /// Its index rows.
        parsed: &'a ParsedNote,
    },
    /// Record a new stamp for a note whose content did not change (a touched file).
    Restamp {
        /// The note's path.
        path: &'a str,
        /// Its new stamp.
        stamp: &'a FileStamp,
    },
    /// Forget the note (its file is gone), failures included.
    Remove {
        /// The note's path.
        path: &'a str,
    },
    /// Record that the note failed at `stage` (a retry counts up its attempts).
    Fail {
        /// The note's path.
        path: &'a str,
        /// What failed (`read`, `frontmatter`).
        stage: &'a str,
        /// Why.
        error: &'a str,
        /// When, Unix seconds.
        now: i64,
    },
}

/// The chunks one [`RowChange`] removed and added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChunkChange {
    /// The ids of the chunks it removed.
    pub removed: Vec<i64>,
    /// The ids of the chunks it added, in note order.
    pub added: Vec<i64>,
}

/// What [`NoteIndex::apply`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// The chunks each change removed and added, in the order of the changes.
    pub chunks: Vec<ChunkChange>,
    /// The vault's generation after the changes.
    pub generation: i64,
}

/// A note that could not be indexed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexFailure {
    /// The note's path.
    pub path: String,
    /// What failed (`read`, `parse`, `embed`).
    pub stage: String,
    /// Why.
    pub error: String,
    /// How many times it failed in a row.
    pub attempts: u32,
    /// When it last failed, Unix seconds.
    pub failed_at: i64,
}

/// The index repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct NoteIndex<'s> {
    store: &'s Store,
}

impl<'s> NoteIndex<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// The stamps of every indexed note of `vault`, by path.
    pub fn stamps(&self, vault: &str) -> Result<HashMap<String, FileStamp>, StoreError> {
        self.store.read(|conn| {
            let mut stmt =
                conn.prepare("SELECT path, mtime, size, sha256 FROM notes WHERE vault_id = ?1")?;
            let rows = stmt.query_map([vault], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    FileStamp {
                        mtime: r.get(1)?,
                        size: u64::try_from(r.get::<_, i64>(2)?).unwrap_or(0),
                        sha256: r.get(3)?,
                    },
                ))
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// Applies `changes` to `vault`'s rows in one transaction (all or none) and moves the
    /// generation on once. Returns, for each change in order, the chunk ids it removed and
    /// the ones it added (in note order), and the generation the rows are now at.
    pub fn apply(&self, vault: &str, changes: &[RowChange<'_>]) -> Result<Applied, StoreError> {
        self.store.write(|tx| {
            let mut chunks = Vec::with_capacity(changes.len());
            for change in changes {
                chunks.push(apply_one(tx, vault, change)?);
            }
            let generation = bump_generation(tx, vault)?;
            Ok(Applied { chunks, generation })
        })
    }

    /// Every chunk of `vault`, by note path then position.
    pub fn chunks(&self, vault: &str) -> Result<Vec<ChunkRow>, StoreError> {
        self.store.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT chunk_id, path, ordinal, headings_json, text FROM chunks
                 WHERE vault_id = ?1 ORDER BY path, ordinal",
            )?;
            let rows = stmt.query_map([vault], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, u32>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (chunk_id, path, ordinal, headings, text) = row?;
                out.push(ChunkRow {
                    chunk_id,
                    path,
                    ordinal,
                    headings: serde_json::from_str(&headings)?,
                    text,
                });
            }
            Ok(out)
        })
    }

    /// The vault and note path of every chunk of every vault, by chunk id.
    pub fn chunk_notes(&self) -> Result<HashMap<i64, (String, String)>, StoreError> {
        self.store.read(|conn| {
            let mut stmt = conn.prepare("SELECT chunk_id, vault_id, path FROM chunks")?;
            let rows = stmt.query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    (r.get::<_, String>(1)?, r.get::<_, String>(2)?),
                ))
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// The text of chunk `chunk_id`, `None` when it is gone.
    pub fn chunk_text(&self, chunk_id: i64) -> Result<Option<String>, StoreError> {
        self.store.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT text FROM chunks WHERE chunk_id = ?1",
                    [chunk_id],
                    |r| r.get(0),
                )
                .optional()?)
        })
    }

    /// The title, aliases and tags of every note of `vault`, by path.
    pub fn note_fields(&self, vault: &str) -> Result<HashMap<String, NoteFields>, StoreError> {
        self.store.read(|conn| {
            let mut fields: HashMap<String, NoteFields> = HashMap::new();
            let mut notes = conn.prepare("SELECT path FROM notes WHERE vault_id = ?1")?;
            for path in notes.query_map([vault], |r| r.get::<_, String>(0))? {
                let path = path?;
                let title = crate::note::title_of(&path);
                fields.insert(
                    path,
                    NoteFields {
                        title,
                        ..NoteFields::default()
                    },
                );
            }
            for (table, column) in [("aliases", "alias"), ("tags", "tag")] {
                let mut stmt = conn.prepare(&format!(
                    "SELECT path, {column} FROM {table} WHERE vault_id = ?1 ORDER BY path, {column}"
                ))?;
                for row in stmt.query_map([vault], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
                })? {
                    let (path, value) = row?;
                    if let Some(note) = fields.get_mut(&path) {
                        match table {
                            "aliases" => note.aliases.push(value),
                            _ => note.tags.push(value),
                        }
                    }
                }
            }
            Ok(fields)
        })
    }

    /// Records that `path` of `vault` failed at `stage` (a retry counts up `attempts`).
    pub fn record_failure(
        &self,
        vault: &str,
        path: &str,
        stage: &str,
        error: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.store
            .write(|tx| insert_failure(tx, vault, path, stage, error, now))
    }

    /// Clears the failure of `path` at `stage` (it succeeded since).
    pub fn clear_failure(&self, vault: &str, path: &str, stage: &str) -> Result<(), StoreError> {
        self.store.write(|tx| {
            tx.execute(
                "DELETE FROM index_failures WHERE vault_id = ?1 AND path = ?2 AND stage = ?3",
                params![vault, path, stage],
            )?;
            Ok(())
        })
    }

    /// The notes of `vault` that could not be indexed, by path.
    pub fn failures(&self, vault: &str) -> Result<Vec<IndexFailure>, StoreError> {
        self.store.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT path, stage, error, attempts, failed_at FROM index_failures
                 WHERE vault_id = ?1 ORDER BY path, stage",
            )?;
            let rows = stmt.query_map([vault], |r| {
                Ok(IndexFailure {
                    path: r.get(0)?,
                    stage: r.get(1)?,
                    error: r.get(2)?,
                    attempts: r.get(3)?,
                    failed_at: r.get(4)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// The generation of `vault`'s rows (0 before anything was indexed).
    pub fn generation(&self, vault: &str) -> Result<i64, StoreError> {
        self.store.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT generation FROM index_state WHERE vault_id = ?1",
                    [vault],
                    |r| r.get(0),
                )
                .optional()?
                .unwrap_or(0))
        })
    }

    /// Saves the lexical snapshot `bytes` taken at `generation`.
    pub fn save_snapshot(
        &self,
        vault: &str,
        generation: i64,
        bytes: &[u8],
    ) -> Result<(), StoreError> {
        self.store.write(|tx| {
            tx.execute(
                "UPDATE index_state SET snapshot = ?3, snapshot_generation = ?2
                 WHERE vault_id = ?1",
                params![vault, generation, bytes],
            )?;
            Ok(())
        })
    }

    /// The lexical snapshot of `vault` if it was taken at the current generation.
    pub fn current_snapshot(&self, vault: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.store.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT snapshot FROM index_state
                     WHERE vault_id = ?1 AND snapshot_generation = generation",
                    [vault],
                    |r| r.get::<_, Option<Vec<u8>>>(0),
                )
                .optional()?
                .flatten())
        })
    }
}

/// Applies one change inside `tx`.
fn apply_one(
    tx: &Transaction<'_>,
    vault: &str,
    change: &RowChange<'_>,
) -> Result<ChunkChange, StoreError> {
    match *change {
        RowChange::Replace { meta, parsed } => {
            let removed = chunk_ids(tx, vault, &meta.path)?;
            delete_rows(tx, vault, &meta.path)?;
            let frontmatter = serde_json::to_string(&meta.frontmatter)?;
            tx.prepare_cached(
                "INSERT INTO notes (vault_id, path, sha256, mtime, size, frontmatter_json)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                vault,
                meta.path,
                meta.sha256,
                meta.mtime,
                int(meta.size),
                frontmatter
            ])?;
            let added = insert_chunks(tx, vault, &meta.path, parsed)?;
            insert_note_fields(tx, vault, &meta.path, parsed)?;
            delete_failures(tx, vault, &meta.path)?;
            Ok(ChunkChange { removed, added })
        }
        RowChange::Restamp { path, stamp } => {
            tx.prepare_cached(
                "UPDATE notes SET mtime = ?3, size = ?4 WHERE vault_id = ?1 AND path = ?2",
            )?
            .execute(params![vault, path, stamp.mtime, int(stamp.size)])?;
            Ok(ChunkChange::default())
        }
        RowChange::Remove { path } => {
            let removed = chunk_ids(tx, vault, path)?;
            delete_rows(tx, vault, path)?;
            delete_failures(tx, vault, path)?;
            Ok(ChunkChange {
                removed,
                added: Vec::new(),
            })
        }
        RowChange::Fail {
            path,
            stage,
            error,
            now,
        } => {
            insert_failure(tx, vault, path, stage, error, now)?;
            Ok(ChunkChange::default())
        }
    }
}

/// Records a failure of `path` at `stage`, or counts up its attempts.
fn insert_failure(
    tx: &Transaction<'_>,
    vault: &str,
    path: &str,
    stage: &str,
    error: &str,
    now: i64,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO index_failures (vault_id, path, stage, error, attempts, failed_at)
         VALUES (?1, ?2, ?3, ?4, 1, ?5)
         ON CONFLICT (vault_id, path, stage)
         DO UPDATE SET error = ?4, attempts = attempts + 1, failed_at = ?5",
    )?
    .execute(params![vault, path, stage, error, now])?;
    Ok(())
}

/// Clears every failure of one note (it was indexed or is gone).
fn delete_failures(tx: &Transaction<'_>, vault: &str, path: &str) -> Result<(), StoreError> {
    tx.prepare_cached("DELETE FROM index_failures WHERE vault_id = ?1 AND path = ?2")?
        .execute(params![vault, path])?;
    Ok(())
}

/// The chunk ids of one note.
fn chunk_ids(tx: &Transaction<'_>, vault: &str, path: &str) -> Result<Vec<i64>, StoreError> {
    let mut stmt =
        tx.prepare_cached("SELECT chunk_id FROM chunks WHERE vault_id = ?1 AND path = ?2")?;
    let ids = stmt.query_map(params![vault, path], |r| r.get(0))?;
    Ok(ids.collect::<Result<_, _>>()?)
}

/// Deletes the `notes` row and every index row of one note.
fn delete_rows(tx: &Transaction<'_>, vault: &str, path: &str) -> Result<(), StoreError> {
    for statement in [
        "DELETE FROM notes WHERE vault_id = ?1 AND path = ?2",
        "DELETE FROM chunks WHERE vault_id = ?1 AND path = ?2",
        "DELETE FROM tags WHERE vault_id = ?1 AND path = ?2",
        "DELETE FROM tasks WHERE vault_id = ?1 AND path = ?2",
        "DELETE FROM aliases WHERE vault_id = ?1 AND path = ?2",
        "DELETE FROM links WHERE vault_id = ?1 AND source_path = ?2",
    ] {
        tx.prepare_cached(statement)?
            .execute(params![vault, path])?;
    }
    Ok(())
}

/// Inserts the chunks of one note; returns their ids in order.
fn insert_chunks(
    tx: &Transaction<'_>,
    vault: &str,
    path: &str,
    parsed: &ParsedNote,
) -> Result<Vec<i64>, StoreError> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO chunks (vault_id, path, ordinal, headings_json, text, start_byte, end_byte)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    let mut ids = Vec::with_capacity(parsed.chunks.len());
    for chunk in &parsed.chunks {
        let headings = serde_json::to_string(&chunk.headings)?;
        stmt.execute(params![
            vault,
            path,
            int(chunk.index),
            headings,
            chunk.text,
            int(chunk.range.start),
            int(chunk.range.end)
        ])?;
        ids.push(tx.last_insert_rowid());
    }
    Ok(ids)
}

/// Inserts the links, tags, tasks and aliases of one note.
fn insert_note_fields(
    tx: &Transaction<'_>,
    vault: &str,
    path: &str,
    parsed: &ParsedNote,
) -> Result<(), StoreError> {
    let mut links = tx.prepare_cached(
        "INSERT INTO links (vault_id, source_path, kind, target, subpath, line)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for link in &parsed.links {
        links.execute(params![
            vault,
            path,
            link.kind.as_str(),
            link.target,
            link.subpath,
            int(link.line)
        ])?;
    }
    let mut tags =
        tx.prepare_cached("INSERT INTO tags (vault_id, path, tag) VALUES (?1, ?2, ?3)")?;
    for tag in &parsed.tags {
        tags.execute(params![vault, path, tag])?;
    }
    let mut aliases = tx.prepare_cached(
        "INSERT OR IGNORE INTO aliases (vault_id, path, alias) VALUES (?1, ?2, ?3)",
    )?;
    for alias in &parsed.aliases {
        aliases.execute(params![vault, path, alias])?;
    }
    let mut tasks = tx.prepare_cached(
        "INSERT OR REPLACE INTO tasks (vault_id, path, line, status, text)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for task in &parsed.tasks {
        tasks.execute(params![
            vault,
            path,
            int(task.line),
            task.status.to_string(),
            task.text
        ])?;
    }
    Ok(())
}

/// A count or offset as SQLite's integer (saturating: none comes near `i64::MAX`).
fn int<N: TryInto<i64>>(n: N) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}

/// Moves `vault`'s generation on (creating its state row); returns the new generation.
fn bump_generation(tx: &Transaction<'_>, vault: &str) -> Result<i64, StoreError> {
    Ok(tx
        .prepare_cached(
            "INSERT INTO index_state (vault_id, generation) VALUES (?1, 1)
             ON CONFLICT (vault_id) DO UPDATE SET generation = generation + 1
             RETURNING generation",
        )?
        .query_row([vault], |r| r.get(0))?)
}
