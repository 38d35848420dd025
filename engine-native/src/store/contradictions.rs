//! Contradictions between chunks of a vault: pairs of semantic neighbours a model judged to
//! contradict each other or to be in tension, with both chunks' places and content hashes,
//! and how far the detector has walked each vault's chunks.
//!
//! A pair's id is a hash of the vault and the two content hashes in sorted order, so the same
//! two texts are one row whichever side was found first. A row stays true only while both
//! sides still hold the text it was judged on: [`Contradictions::current_hashes`] gives what
//! each note holds now, and [`Contradictions::mark_stale`] retires a row whose side changed
//! (the detector then judges the new text, which is a new pair).

use std::collections::{HashMap, HashSet};

use engine_core::hash::sha256_hex;
use rusqlite::{OptionalExtension, Row, params, params_from_iter};

use super::{Store, StoreError};

/// One side of a judged pair.
#[derive(Debug, Clone, PartialEq)]
pub struct PairSide {
    /// The chunk's key (what search results show as `chunk_id`).
    pub chunk_key: String,
    /// The chunk's row id when it was judged.
    pub chunk_row: i64,
    /// The note's vault path.
    pub path: String,
    /// SHA-256 of the chunk's text.
    pub sha256: String,
}

/// A stored judgement of two chunks.
#[derive(Debug, Clone, PartialEq)]
pub struct ContradictionRow {
    /// Hash of the vault and both content hashes (sorted).
    pub id: String,
    /// The vault.
    pub vault_id: String,
    /// The chunk whose neighbours were looked at.
    pub source: PairSide,
    /// The neighbour judged against it.
    pub conflict: PairSide,
    /// Cosine similarity of the two chunks' vectors.
    pub cosine: f64,
    /// `contradiction` or `tension`.
    pub verdict: String,
    /// The judge's one-line reason.
    pub rationale: String,
    /// The model that judged.
    pub judge_model: String,
    /// `open`, or `stale` once a side no longer holds its text.
    pub status: String,
    /// When it was judged, Unix seconds.
    pub detected_at: i64,
}

/// A chunk as the detector reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredChunk {
    /// Its row id.
    pub chunk_id: i64,
    /// The note's path.
    pub path: String,
    /// Its position in the note, from 0.
    pub ordinal: u32,
    /// Its text.
    pub text: String,
}

/// The id of the pair of texts hashed `a` and `b` in `vault` (the same either way round).
pub fn pair_id(vault: &str, a: &str, b: &str) -> String {
    let (low, high) = if a <= b { (a, b) } else { (b, a) };
    let mut id = sha256_hex(format!("{vault}\0{low}\0{high}").as_bytes());
    id.truncate(32);
    id
}

/// How many hex digits of the SHA-256 a chunk key keeps.
const KEY_HEX: usize = 16;

/// A chunk's key: the first 16 hex digits of the SHA-256 of its note's path, its ordinal
/// and its text. It stays the same while the chunk's place and text do (a reindex of an
/// unchanged note keeps it), and it is made of what the caller may read only: a row id would
/// count the hidden chunks indexed before it.
pub fn chunk_key(path: &str, ordinal: u32, text: &str) -> String {
    let mut key = sha256_hex(format!("{path}\0{ordinal}\0{text}").as_bytes());
    key.truncate(KEY_HEX);
    key
}

/// The content hash of a chunk's text.
pub fn content_sha256(text: &str) -> String {
    sha256_hex(text.as_bytes())
}

const COLUMNS: &str = "id, vault_id, source_chunk_key, source_chunk_row, source_path, \
     source_sha256, conflict_chunk_key, conflict_chunk_row, conflict_path, conflict_sha256, \
     cosine, verdict, rationale, judge_model, status, detected_at";

fn row_of(r: &Row<'_>) -> rusqlite::Result<ContradictionRow> {
    Ok(ContradictionRow {
        id: r.get(0)?,
        vault_id: r.get(1)?,
        source: PairSide {
            chunk_key: r.get(2)?,
            chunk_row: r.get(3)?,
            path: r.get(4)?,
            sha256: r.get(5)?,
        },
        conflict: PairSide {
            chunk_key: r.get(6)?,
            chunk_row: r.get(7)?,
            path: r.get(8)?,
            sha256: r.get(9)?,
        },
        cosine: r.get(10)?,
        verdict: r.get(11)?,
        rationale: r.get(12)?,
        judge_model: r.get(13)?,
        status: r.get(14)?,
        detected_at: r.get(15)?,
    })
}

/// The contradictions repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct Contradictions<'s> {
    store: &'s Store,
}

impl<'s> Contradictions<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// Stores `row` as open; a pair already stored (the same two texts) is judged again:
    /// its verdict, places and time are replaced and it is open again.
    pub fn upsert(&self, row: &ContradictionRow) -> Result<(), StoreError> {
        self.store.write(|tx| {
            tx.execute(
                &format!(
                    "INSERT INTO contradictions ({COLUMNS})
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, 'open', ?15)
                     ON CONFLICT (id) DO UPDATE SET
                         source_chunk_key = excluded.source_chunk_key,
                         source_chunk_row = excluded.source_chunk_row,
                         source_path = excluded.source_path,
                         source_sha256 = excluded.source_sha256,
                         conflict_chunk_key = excluded.conflict_chunk_key,
                         conflict_chunk_row = excluded.conflict_chunk_row,
                         conflict_path = excluded.conflict_path,
                         conflict_sha256 = excluded.conflict_sha256,
                         cosine = excluded.cosine, verdict = excluded.verdict,
                         rationale = excluded.rationale, judge_model = excluded.judge_model,
                         status = 'open', detected_at = excluded.detected_at"
                ),
                params![
                    row.id,
                    row.vault_id,
                    row.source.chunk_key,
                    row.source.chunk_row,
                    row.source.path,
                    row.source.sha256,
                    row.conflict.chunk_key,
                    row.conflict.chunk_row,
                    row.conflict.path,
                    row.conflict.sha256,
                    row.cosine,
                    row.verdict,
                    row.rationale,
                    row.judge_model,
                    row.detected_at
                ],
            )?;
            Ok(())
        })
    }

    /// The status of pair `id`, `None` when it was never stored.
    pub fn status(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.store.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT status FROM contradictions WHERE id = ?1",
                    [id],
                    |r| r.get(0),
                )
                .optional()?)
        })
    }

    /// The open rows of `vault` with a side in `paths` (every open row when `paths` is
    /// `None`), oldest first.
    pub fn open(
        &self,
        vault: &str,
        paths: Option<&[String]>,
    ) -> Result<Vec<ContradictionRow>, StoreError> {
        self.store.read(|conn| {
            let mut sql = format!(
                "SELECT {COLUMNS} FROM contradictions WHERE vault_id = ?1 AND status = 'open'"
            );
            let mut values = vec![vault.to_owned()];
            if let Some(paths) = paths {
                let marks = vec!["?"; paths.len()].join(", ");
                sql.push_str(&format!(
                    " AND (source_path IN ({marks}) OR conflict_path IN ({marks}))"
                ));
                values.extend(paths.iter().cloned());
                values.extend(paths.iter().cloned());
            }
            sql.push_str(" ORDER BY detected_at, id");
            let mut stmt = conn.prepare(&sql)?;
            let rows = stmt.query_map(params_from_iter(values), row_of)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// Marks the rows `ids` stale (a side no longer holds its text); returns how many.
    pub fn mark_stale(&self, ids: &[String]) -> Result<usize, StoreError> {
        self.store.write(|tx| {
            let mut stmt = tx.prepare_cached(
                "UPDATE contradictions SET status = 'stale' WHERE id = ?1 AND status = 'open'",
            )?;
            let mut changed = 0;
            for id in ids {
                changed += stmt.execute([id])?;
            }
            Ok(changed)
        })
    }

    /// The content hashes of the chunks each of `paths` holds now (a path without chunks,
    /// deleted or not indexed, is absent).
    pub fn current_hashes<'p>(
        &self,
        vault: &str,
        paths: impl IntoIterator<Item = &'p str>,
    ) -> Result<HashMap<String, HashSet<String>>, StoreError> {
        self.store.read(|conn| {
            let mut stmt =
                conn.prepare_cached("SELECT text FROM chunks WHERE vault_id = ?1 AND path = ?2")?;
            let mut out: HashMap<String, HashSet<String>> = HashMap::new();
            for path in paths {
                if out.contains_key(path) {
                    continue;
                }
                let texts = stmt.query_map(params![vault, path], |r| r.get::<_, String>(0))?;
                let hashes = texts
                    .map(|text| text.map(|text| content_sha256(&text)))
                    .collect::<Result<HashSet<_>, _>>()?;
                if !hashes.is_empty() {
                    out.insert(path.to_owned(), hashes);
                }
            }
            Ok(out)
        })
    }

    /// The last chunk row the detector finished in `vault` (0 before its first run).
    pub fn cursor(&self, vault: &str) -> Result<i64, StoreError> {
        self.store.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT last_chunk_row FROM contradiction_scan WHERE vault_id = ?1",
                    [vault],
                    |r| r.get(0),
                )
                .optional()?
                .unwrap_or(0))
        })
    }

    /// Records that the detector finished every chunk of `vault` up to row `row`.
    pub fn set_cursor(&self, vault: &str, row: i64, now: i64) -> Result<(), StoreError> {
        self.store.write(|tx| {
            tx.execute(
                "INSERT INTO contradiction_scan (vault_id, last_chunk_row, updated_at)
                 VALUES (?1, ?2, ?3)
                 ON CONFLICT (vault_id) DO UPDATE SET
                     last_chunk_row = excluded.last_chunk_row, updated_at = excluded.updated_at",
                params![vault, row, now],
            )?;
            Ok(())
        })
    }

    /// The chunks of `vault` after row `after`, by row id, at most `limit`.
    pub fn chunks_after(
        &self,
        vault: &str,
        after: i64,
        limit: usize,
    ) -> Result<Vec<StoredChunk>, StoreError> {
        self.store.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT chunk_id, path, ordinal, text FROM chunks
                 WHERE vault_id = ?1 AND chunk_id > ?2 ORDER BY chunk_id LIMIT ?3",
            )?;
            let rows = stmt.query_map(
                params![vault, after, i64::try_from(limit).unwrap_or(i64::MAX)],
                stored_chunk,
            )?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// How many chunks of `vault` come after row `after`.
    pub fn count_after(&self, vault: &str, after: i64) -> Result<u64, StoreError> {
        self.store.read(|conn| {
            let count: i64 = conn.query_row(
                "SELECT COUNT(*) FROM chunks WHERE vault_id = ?1 AND chunk_id > ?2",
                params![vault, after],
                |r| r.get(0),
            )?;
            Ok(count.unsigned_abs())
        })
    }

    /// Chunk `chunk_id` of `vault`, `None` when it is gone.
    pub fn chunk(&self, vault: &str, chunk_id: i64) -> Result<Option<StoredChunk>, StoreError> {
        self.store.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT chunk_id, path, ordinal, text FROM chunks
                     WHERE vault_id = ?1 AND chunk_id = ?2",
                    params![vault, chunk_id],
                    stored_chunk,
                )
                .optional()?)
        })
    }
}

fn stored_chunk(r: &Row<'_>) -> rusqlite::Result<StoredChunk> {
    Ok(StoredChunk {
        chunk_id: r.get(0)?,
        path: r.get(1)?,
        ordinal: r.get(2)?,
        text: r.get(3)?,
    })
}
