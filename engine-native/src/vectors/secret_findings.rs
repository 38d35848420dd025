//! [`SecretFindings`]: the credentials found in chunks bound for a remote embedding provider,
//! per embedding set: for each chunk, the class names and counts (never the text) and whether
//! the chunk was withheld (not sent, so not pending either) or sent redacted.

use std::collections::{BTreeMap, BTreeSet};

use rusqlite::params;

use super::{VectorStoreError, sets};
use crate::store::Store;

/// What was found in one chunk: `(class name, count)` pairs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkFindings<'a> {
    /// The chunk.
    pub chunk_id: i64,
    /// Its classes and how many of each.
    pub classes: Vec<(&'static str, usize)>,
    /// Its vault.
    pub vault_id: &'a str,
}

/// What was found in a vault's chunks under one embedding set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FindingsSummary {
    /// Chunks not sent.
    pub withheld_chunks: usize,
    /// Chunks sent with their credentials redacted.
    pub redacted_chunks: usize,
    /// Credentials found, by class name.
    pub classes: BTreeMap<String, usize>,
}

/// The secret findings of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct SecretFindings<'s> {
    store: &'s Store,
}

impl<'s> SecretFindings<'s> {
    /// The findings of `store`.
    pub fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// Records `chunks` of set `fingerprint` as withheld (`withheld`) or sent redacted,
    /// replacing what was recorded for them before.
    pub fn record(
        &self,
        fingerprint: &str,
        chunks: &[ChunkFindings<'_>],
        withheld: bool,
    ) -> Result<(), VectorStoreError> {
        if chunks.is_empty() {
            return Ok(());
        }
        self.store.write(|tx| {
            let set = sets::require(tx, fingerprint)?;
            let mut clear =
                tx.prepare("DELETE FROM embedding_secrets WHERE set_id = ?1 AND chunk_id = ?2")?;
            let mut insert = tx.prepare(
                "INSERT INTO embedding_secrets (set_id, chunk_id, vault_id, class, found, withheld)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for chunk in chunks {
                clear.execute(params![set.set_id, chunk.chunk_id])?;
                for (class, found) in &chunk.classes {
                    insert.execute(params![
                        set.set_id,
                        chunk.chunk_id,
                        chunk.vault_id,
                        class,
                        i64::try_from(*found).unwrap_or(i64::MAX),
                        withheld
                    ])?;
                }
            }
            Ok(())
        })
    }

    /// Makes the withheld chunks of `vault` in set `fingerprint` pending again (the setting
    /// no longer withholds them); returns how many.
    pub fn release_withheld(
        &self,
        fingerprint: &str,
        vault: &str,
    ) -> Result<usize, VectorStoreError> {
        self.store.write(|tx| {
            let Some(set) = sets::find(tx, fingerprint)? else {
                return Ok(0);
            };
            let released: i64 = tx.query_row(
                "SELECT count(DISTINCT chunk_id) FROM embedding_secrets
                 WHERE set_id = ?1 AND vault_id = ?2 AND withheld = 1",
                params![set.set_id, vault],
                |row| row.get(0),
            )?;
            tx.execute(
                "DELETE FROM embedding_secrets WHERE set_id = ?1 AND vault_id = ?2 AND withheld = 1",
                params![set.set_id, vault],
            )?;
            Ok(usize::try_from(released).unwrap_or(0))
        })
    }

    /// What was found in the chunks of `vault`'s notes that `readable` admits, under set
    /// `fingerprint` (a caller learns nothing of the notes it may not read).
    pub fn summary(
        &self,
        fingerprint: &str,
        vault: &str,
        readable: &dyn Fn(&str) -> bool,
    ) -> Result<FindingsSummary, VectorStoreError> {
        self.store.read(|conn| {
            let mut summary = FindingsSummary::default();
            let Some(set) = sets::find(conn, fingerprint)? else {
                return Ok(summary);
            };
            let mut rows = conn.prepare(
                "SELECT s.chunk_id, c.path, s.class, s.found, s.withheld
                 FROM embedding_secrets s JOIN chunks c ON c.chunk_id = s.chunk_id
                 WHERE s.set_id = ?1 AND s.vault_id = ?2",
            )?;
            let rows = rows.query_map(params![set.set_id, vault], |row| {
                Ok((
                    row.get::<_, i64>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, i64>(3)?,
                    row.get::<_, bool>(4)?,
                ))
            })?;
            let mut withheld_chunks = BTreeSet::new();
            let mut redacted_chunks = BTreeSet::new();
            for row in rows {
                let (chunk_id, path, class, found, withheld) = row?;
                if !readable(&path) {
                    continue;
                }
                if withheld {
                    withheld_chunks.insert(chunk_id);
                } else {
                    redacted_chunks.insert(chunk_id);
                }
                *summary.classes.entry(class).or_default() += usize::try_from(found).unwrap_or(0);
            }
            summary.withheld_chunks = withheld_chunks.len();
            summary.redacted_chunks = redacted_chunks.len();
            Ok(summary)
        })
    }
}
