//! The note-quality rollup: one row per note written by the `note-quality` pass
//! (`crate::index::note_quality`), and the per-note facts the pass reads: each note's
//! modification time and chunk texts, its retrievals from the retrieval log, and the open
//! contradictions it takes part in.

use std::collections::HashMap;

use rusqlite::{Row, params};

use super::{Store, StoreError};

/// The measures of one note.
#[derive(Debug, Clone, PartialEq)]
pub struct NoteQualityRow {
    /// The note's vault path.
    pub path: String,
    /// How many chunks it has.
    pub chunk_count: u32,
    /// How many of them have a text another note also has.
    pub dup_chunk_count: u32,
    /// `dup_chunk_count / chunk_count` (0 without chunks).
    pub dup_ratio: f64,
    /// Whole days since it was last modified.
    pub age_days: i64,
    /// When a search last returned it, Unix seconds.
    pub last_retrieved_at: Option<i64>,
    /// How many times searches returned it.
    pub retrievals: u32,
    /// How many links from other notes resolve to it.
    pub in_degree: u32,
    /// How many of its links resolve to another note.
    pub out_degree: u32,
    /// How many open contradictions it is a side of.
    pub contradictions_open: u32,
    /// Its flags, in a fixed order (`duplicate`, `orphan`, `stale_edit`, `stale_access`,
    /// `contradicted`).
    pub flags: Vec<String>,
    /// 0 (every flag) to 1 (none).
    pub quality_score: f64,
    /// When the pass measured it, Unix seconds.
    pub computed_at: i64,
}

/// A note's retrievals in the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Retrieved {
    /// How many times searches returned it.
    pub count: u32,
    /// The latest, Unix seconds.
    pub last: Option<i64>,
}

/// What the pass reads of one vault.
#[derive(Debug, Clone, Default)]
pub struct QualityFacts {
    /// Each indexed note's modification time (Unix milliseconds), by path.
    pub mtimes: HashMap<String, i64>,
    /// Each note's chunk texts, by path.
    pub chunks: HashMap<String, Vec<String>>,
    /// Each retrieved note's retrievals, by path.
    pub retrieved: HashMap<String, Retrieved>,
    /// The two paths of every open contradiction.
    pub contradictions: Vec<(String, String)>,
    /// When each note was last measured, by path.
    pub computed_at: HashMap<String, i64>,
}

fn quality_row(r: &Row<'_>) -> rusqlite::Result<NoteQualityRow> {
    let flags: String = r.get(11)?;
    Ok(NoteQualityRow {
        path: r.get(0)?,
        chunk_count: r.get(1)?,
        dup_chunk_count: r.get(2)?,
        dup_ratio: r.get(3)?,
        age_days: r.get(4)?,
        last_retrieved_at: r.get(5)?,
        retrievals: r.get(6)?,
        in_degree: r.get(7)?,
        out_degree: r.get(8)?,
        contradictions_open: r.get(9)?,
        quality_score: r.get(10)?,
        flags: flags
            .split(',')
            .filter(|flag| !flag.is_empty())
            .map(str::to_owned)
            .collect(),
        computed_at: r.get(12)?,
    })
}

/// The note-quality repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct NoteQuality<'s> {
    store: &'s Store,
}

impl<'s> NoteQuality<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// Reads what the pass measures `vault` from.
    pub fn facts(&self, vault: &str) -> Result<QualityFacts, StoreError> {
        self.store.read(|conn| {
            let mut facts = QualityFacts::default();
            let mut stmt = conn.prepare("SELECT path, mtime FROM notes WHERE vault_id = ?1")?;
            for row in stmt.query_map([vault], |r| Ok((r.get(0)?, r.get(1)?)))? {
                let (path, mtime): (String, i64) = row?;
                facts.mtimes.insert(path, mtime);
            }
            let mut stmt = conn.prepare("SELECT path, text FROM chunks WHERE vault_id = ?1")?;
            for row in stmt.query_map([vault], |r| Ok((r.get(0)?, r.get(1)?)))? {
                let (path, text): (String, String) = row?;
                facts.chunks.entry(path).or_default().push(text);
            }
            let mut stmt = conn.prepare(
                "SELECT h.path, COUNT(*), MAX(e.ts) FROM retrieval_hits h
                 JOIN retrieval_events e ON e.id = h.event_id
                 WHERE h.vault_id = ?1 GROUP BY h.path",
            )?;
            for row in stmt.query_map([vault], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))? {
                let (path, count, last): (String, u32, Option<i64>) = row?;
                facts.retrieved.insert(path, Retrieved { count, last });
            }
            let mut stmt = conn.prepare(
                "SELECT source_path, conflict_path FROM contradictions
                 WHERE vault_id = ?1 AND status = 'open'",
            )?;
            for row in stmt.query_map([vault], |r| Ok((r.get(0)?, r.get(1)?)))? {
                facts.contradictions.push(row?);
            }
            let mut stmt =
                conn.prepare("SELECT path, computed_at FROM note_quality WHERE vault_id = ?1")?;
            for row in stmt.query_map([vault], |r| Ok((r.get(0)?, r.get(1)?)))? {
                let (path, at): (String, i64) = row?;
                facts.computed_at.insert(path, at);
            }
            Ok(facts)
        })
    }

    /// Writes `rows` for `vault` (replacing each note's earlier row) and, when `complete`,
    /// removes the rows of notes no longer in `present`; one transaction.
    pub fn save(
        &self,
        vault: &str,
        rows: &[NoteQualityRow],
        complete: Option<&HashMap<String, i64>>,
    ) -> Result<(), StoreError> {
        self.store.write(|tx| {
            let mut insert = tx.prepare_cached(
                "INSERT OR REPLACE INTO note_quality (vault_id, path, chunk_count, dup_chunk_count,
                     dup_ratio, age_days, last_retrieved_at, retrievals, in_degree, out_degree,
                     contradictions_open, quality_score, flags, computed_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            )?;
            for row in rows {
                insert.execute(params![
                    vault,
                    row.path,
                    row.chunk_count,
                    row.dup_chunk_count,
                    row.dup_ratio,
                    row.age_days,
                    row.last_retrieved_at,
                    row.retrievals,
                    row.in_degree,
                    row.out_degree,
                    row.contradictions_open,
                    row.quality_score,
                    row.flags.join(","),
                    row.computed_at
                ])?;
            }
            if let Some(present) = complete {
                let stored: Vec<String> = tx
                    .prepare("SELECT path FROM note_quality WHERE vault_id = ?1")?
                    .query_map([vault], |r| r.get(0))?
                    .collect::<Result<_, _>>()?;
                let mut delete = tx
                    .prepare_cached("DELETE FROM note_quality WHERE vault_id = ?1 AND path = ?2")?;
                for path in stored.iter().filter(|path| !present.contains_key(*path)) {
                    delete.execute(params![vault, path])?;
                }
            }
            Ok(())
        })
    }

    /// Every row of `vault`, by path.
    pub fn rows(&self, vault: &str) -> Result<Vec<NoteQualityRow>, StoreError> {
        self.store.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT path, chunk_count, dup_chunk_count, dup_ratio, age_days,
                        last_retrieved_at, retrievals, in_degree, out_degree,
                        contradictions_open, quality_score, flags, computed_at
                 FROM note_quality WHERE vault_id = ?1 ORDER BY path",
            )?;
            let rows = stmt.query_map([vault], quality_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }
}
