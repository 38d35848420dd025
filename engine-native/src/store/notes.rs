//! Notes metadata: what the indexer knows about each note file, per vault.

use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use super::{Store, StoreError, check_limit};

/// The stored metadata of one note.
#[derive(Debug, Clone, PartialEq)]
pub struct NoteMeta {
    /// The vault-relative path (`Folder/Note.md`).
    pub path: String,
    /// SHA-256 of the file's bytes, lowercase hex.
    pub sha256: String,
    /// Modification time, Unix milliseconds.
    pub mtime: i64,
    /// File size in bytes.
    pub size: u64,
    /// The parsed frontmatter (`{}` when there is none).
    pub frontmatter: Value,
}

/// One page of [`Notes::list`].
#[derive(Debug, Clone, PartialEq)]
pub struct NotePage {
    /// The notes, ordered by path (byte order).
    pub items: Vec<NoteMeta>,
    /// Pass back to get the next page; `None` on the last page. Opaque to callers.
    pub cursor: Option<String>,
}

/// The notes-metadata repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct Notes<'s> {
    store: &'s Store,
}

impl<'s> Notes<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// Inserts or replaces the metadata of `note` in `vault`.
    pub fn upsert(&self, vault: &str, note: &NoteMeta) -> Result<(), StoreError> {
        let size = i64::try_from(note.size).map_err(|_| StoreError::OutOfRange {
            what: "the note size",
        })?;
        let frontmatter = serde_json::to_string(&note.frontmatter)?;
        self.store.write(|tx| {
            tx.execute(
                "INSERT INTO notes (vault_id, path, sha256, mtime, size, frontmatter_json)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (vault_id, path) DO UPDATE SET
                   sha256 = excluded.sha256, mtime = excluded.mtime, size = excluded.size,
                   frontmatter_json = excluded.frontmatter_json",
                params![vault, note.path, note.sha256, note.mtime, size, frontmatter],
            )?;
            Ok(())
        })
    }

    /// The metadata of `path` in `vault`, if stored.
    pub fn get(&self, vault: &str, path: &str) -> Result<Option<NoteMeta>, StoreError> {
        self.store.read(|conn| {
            let row = conn
                .query_row(
                    "SELECT path, sha256, mtime, size, frontmatter_json FROM notes
                     WHERE vault_id = ?1 AND path = ?2",
                    params![vault, path],
                    raw_note,
                )
                .optional()?;
            row.map(RawNote::into_note).transpose()
        })
    }

    /// Up to `limit` (1..=1000) notes of `vault` whose path starts with `prefix`, after `cursor`.
    pub fn list(
        &self,
        vault: &str,
        prefix: Option<&str>,
        cursor: Option<&str>,
        limit: u32,
    ) -> Result<NotePage, StoreError> {
        check_limit(limit)?;
        let prefix = prefix.unwrap_or("");
        self.store.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT path, sha256, mtime, size, frontmatter_json FROM notes
                 WHERE vault_id = ?1 AND substr(path, 1, length(?2)) = ?2
                   AND (?3 IS NULL OR path > ?3)
                 ORDER BY path LIMIT ?4",
            )?;
            // One row more than the page tells whether another page follows.
            let rows = stmt.query_map(params![vault, prefix, cursor, limit + 1], raw_note)?;
            let mut items = rows
                .map(|row| row.map_err(StoreError::from).and_then(RawNote::into_note))
                .collect::<Result<Vec<_>, _>>()?;
            let more = items.len() > limit as usize;
            items.truncate(limit as usize);
            let cursor = more
                .then(|| items.last().map(|note| note.path.clone()))
                .flatten();
            Ok(NotePage { items, cursor })
        })
    }

    /// Deletes the metadata of `path` in `vault`; returns whether it was stored.
    pub fn delete(&self, vault: &str, path: &str) -> Result<bool, StoreError> {
        let deleted = self.store.write(|tx| {
            tx.execute(
                "DELETE FROM notes WHERE vault_id = ?1 AND path = ?2",
                params![vault, path],
            )
        })?;
        Ok(deleted > 0)
    }
}

/// A `notes` row before its JSON and size are decoded.
struct RawNote {
    path: String,
    sha256: String,
    mtime: i64,
    size: i64,
    frontmatter: String,
}

impl RawNote {
    fn into_note(self) -> Result<NoteMeta, StoreError> {
        Ok(NoteMeta {
            size: u64::try_from(self.size).map_err(|_| StoreError::OutOfRange {
                what: "a stored note size",
            })?,
            frontmatter: serde_json::from_str(&self.frontmatter)?,
            path: self.path,
            sha256: self.sha256,
            mtime: self.mtime,
        })
    }
}

fn raw_note(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawNote> {
    Ok(RawNote {
        path: r.get(0)?,
        sha256: r.get(1)?,
        mtime: r.get(2)?,
        size: r.get(3)?,
        frontmatter: r.get(4)?,
    })
}
