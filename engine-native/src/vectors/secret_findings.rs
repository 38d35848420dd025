//! [`SecretFindings`]: the credentials found in chunks bound for a remote embedding provider,
//! per embedding set: for each chunk, the class names and counts (never the text) and whether
//! the chunk was withheld (not sent, so not pending either) or sent redacted.

use std::collections::BTreeMap;

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

    /// What was found in `vault`'s chunks under set `fingerprint`.
    pub fn summary(
        &self,
        fingerprint: &str,
        vault: &str,
    ) -> Result<FindingsSummary, VectorStoreError> {
        self.store.read(|conn| {
            let mut summary = FindingsSummary::default();
            let Some(set) = sets::find(conn, fingerprint)? else {
                return Ok(summary);
            };
            let mut chunks = conn.prepare(
                "SELECT withheld, count(DISTINCT chunk_id) FROM embedding_secrets
                 WHERE set_id = ?1 AND vault_id = ?2 GROUP BY withheld",
            )?;
            let rows = chunks.query_map(params![set.set_id, vault], |row| {
                Ok((row.get::<_, bool>(0)?, row.get::<_, i64>(1)?))
            })?;
            for row in rows {
                let (withheld, count) = row?;
                let count = usize::try_from(count).unwrap_or(0);
                if withheld {
                    summary.withheld_chunks = count;
                } else {
                    summary.redacted_chunks = count;
                }
            }
            let mut classes = conn.prepare(
                "SELECT class, sum(found) FROM embedding_secrets
                 WHERE set_id = ?1 AND vault_id = ?2 GROUP BY class",
            )?;
            let rows = classes.query_map(params![set.set_id, vault], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
            })?;
            for row in rows {
                let (class, found) = row?;
                summary
                    .classes
                    .insert(class, usize::try_from(found).unwrap_or(0));
            }
            Ok(summary)
        })
    }
}
