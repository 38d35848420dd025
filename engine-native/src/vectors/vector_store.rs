//! [`VectorStore`]: embedding vectors persisted in `cache.db`, one sqlite-vec `vec0` table per
//! embedding set plus the `embedding_chunks` rows that tie each vector to its vault and note.

use rusqlite::params;

use super::sets::{self, EmbeddingSet};
use super::{VectorMatrix, VectorStoreError, blob, check_vector};
use crate::store::Store;

/// The largest `k` sqlite-vec's KNN accepts.
pub const MAX_KNN_K: usize = 4096;

/// One vector to store: the embedding of chunk `chunk_id` (the chunks table's row id, unique
/// across vaults) of note `note_key` in `vault_id`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VectorRow<'a> {
    /// The chunk the vector embeds.
    pub chunk_id: i64,
    /// The vault of the chunk.
    pub vault_id: &'a str,
    /// The note of the chunk, as the key [`super::NoteFilter`] filters on.
    pub note_key: u32,
    /// The embedding.
    pub vector: &'a [f32],
}

/// A chunk waiting for its vector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingChunk {
    /// Its row id.
    pub chunk_id: i64,
    /// Its note's path.
    pub path: String,
    /// Its heading breadcrumb.
    pub headings: Vec<String>,
    /// Its text.
    pub text: String,
}

/// The vector repository of a [`Store`]. Writes run on the store's writer in one transaction
/// each, so a refused or failed batch changes nothing.
#[derive(Debug, Clone, Copy)]
pub struct VectorStore<'s> {
    store: &'s Store,
}

impl<'s> VectorStore<'s> {
    /// The vectors of `store`.
    pub fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// The embedding set `fingerprint` of `dims`-dimensional vectors, created (with its `vec0`
    /// table) when new. Refuses an empty fingerprint, `dims` outside `1..=MAX_DIMS`, and a
    /// fingerprint already stored with another dimension.
    pub fn ensure_set(
        &self,
        fingerprint: &str,
        dims: usize,
    ) -> Result<EmbeddingSet, VectorStoreError> {
        self.store.write(|tx| sets::ensure(tx, fingerprint, dims))
    }

    /// The embedding set `fingerprint`, if it exists.
    pub fn set(&self, fingerprint: &str) -> Result<Option<EmbeddingSet>, VectorStoreError> {
        self.store.read(|conn| sets::find(conn, fingerprint))
    }

    /// Deletes the embedding set `fingerprint` with all its vectors; `false` when it did not
    /// exist.
    pub fn delete_set(&self, fingerprint: &str) -> Result<bool, VectorStoreError> {
        self.store.write(|tx| sets::drop_set(tx, fingerprint))
    }

    /// Inserts or replaces the vectors of `rows` in set `fingerprint` (a chunk listed twice
    /// keeps its last row). Every row is checked first: a vector of the wrong dimension or with
    /// a non-finite element refuses the whole batch and nothing is written.
    pub fn put_batch(
        &self,
        fingerprint: &str,
        rows: &[VectorRow<'_>],
    ) -> Result<(), VectorStoreError> {
        self.store.write(|tx| {
            let set = sets::require(tx, fingerprint)?;
            for row in rows {
                check_vector(set.dims, row.vector)
                    .map_err(VectorStoreError::invalid_vector(Some(row.chunk_id)))?;
            }
            let table = set.table();
            let mut delete_vector =
                tx.prepare(&format!("DELETE FROM {table} WHERE chunk_id = ?1"))?;
            let mut insert_vector = tx.prepare(&format!(
                "INSERT INTO {table} (chunk_id, embedding) VALUES (?1, ?2)"
            ))?;
            let mut upsert_chunk = tx.prepare(
                "INSERT INTO embedding_chunks (set_id, chunk_id, vault_id, note_key)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (set_id, chunk_id) DO UPDATE SET
                   vault_id = excluded.vault_id, note_key = excluded.note_key",
            )?;
            for row in rows {
                // vec0 has no upsert: a replaced vector is deleted first.
                delete_vector.execute([row.chunk_id])?;
                insert_vector.execute(params![row.chunk_id, blob::encode(row.vector)])?;
                upsert_chunk.execute(params![
                    set.set_id,
                    row.chunk_id,
                    row.vault_id,
                    row.note_key
                ])?;
            }
            Ok(())
        })
    }

    /// Deletes the vectors of `chunk_ids` from set `fingerprint`; returns how many existed.
    /// An unknown set has nothing to delete.
    pub fn delete_chunks(
        &self,
        fingerprint: &str,
        chunk_ids: &[i64],
    ) -> Result<usize, VectorStoreError> {
        self.store.write(|tx| {
            let Some(set) = sets::find(tx, fingerprint)? else {
                return Ok(0);
            };
            let mut delete_vector =
                tx.prepare(&format!("DELETE FROM {} WHERE chunk_id = ?1", set.table()))?;
            let mut delete_chunk =
                tx.prepare("DELETE FROM embedding_chunks WHERE set_id = ?1 AND chunk_id = ?2")?;
            let mut deleted = 0;
            for &chunk_id in chunk_ids {
                if delete_chunk.execute(params![set.set_id, chunk_id])? > 0 {
                    delete_vector.execute([chunk_id])?;
                    deleted += 1;
                }
            }
            Ok(deleted)
        })
    }

    /// Deletes every vector of vault `vault_id` from set `fingerprint`; returns how many.
    pub fn delete_vault(
        &self,
        fingerprint: &str,
        vault_id: &str,
    ) -> Result<usize, VectorStoreError> {
        self.store.write(|tx| {
            let Some(set) = sets::find(tx, fingerprint)? else {
                return Ok(0);
            };
            let deleted = tx.execute(
                &format!(
                    "DELETE FROM {} WHERE chunk_id IN (SELECT chunk_id FROM embedding_chunks
                     WHERE set_id = ?1 AND vault_id = ?2)",
                    set.table()
                ),
                params![set.set_id, vault_id],
            )?;
            tx.execute(
                "DELETE FROM embedding_chunks WHERE set_id = ?1 AND vault_id = ?2",
                params![set.set_id, vault_id],
            )?;
            Ok(deleted)
        })
    }

    /// Up to `limit` chunks of `vault` that have no vector in set `fingerprint` yet, by chunk
    /// id: `(chunk_id, note path, text to embed)`, the text being the note title and heading
    /// breadcrumb over the chunk text (what a reader sees around it).
    pub fn pending(
        &self,
        fingerprint: &str,
        vault: &str,
        limit: usize,
    ) -> Result<Vec<PendingChunk>, VectorStoreError> {
        self.store.read(|conn| {
            let set = sets::require(conn, fingerprint)?;
            let mut query = conn.prepare(
                "SELECT c.chunk_id, c.path, c.headings_json, c.text FROM chunks c
                 WHERE c.vault_id = ?1 AND NOT EXISTS (
                     SELECT 1 FROM embedding_chunks e
                     WHERE e.set_id = ?2 AND e.chunk_id = c.chunk_id)
                 AND NOT EXISTS (
                     SELECT 1 FROM embedding_secrets s
                     WHERE s.set_id = ?2 AND s.chunk_id = c.chunk_id AND s.withheld = 1)
                 ORDER BY c.chunk_id LIMIT ?3",
            )?;
            let limit = i64::try_from(limit).unwrap_or(i64::MAX);
            let rows = query.query_map(params![vault, set.set_id, limit], |row| {
                Ok(PendingChunk {
                    chunk_id: row.get(0)?,
                    path: row.get(1)?,
                    headings: serde_json::from_str(&row.get::<_, String>(2)?).unwrap_or_default(),
                    text: row.get(3)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// Whether chunk `chunk_id` is withheld from set `fingerprint` (a credential in it, under
    /// a remote provider): it gets no vector until the secrets setting changes.
    pub fn withheld(&self, fingerprint: &str, chunk_id: i64) -> Result<bool, VectorStoreError> {
        self.store.read(|conn| {
            let Some(set) = sets::find(conn, fingerprint)? else {
                return Ok(false);
            };
            Ok(conn.query_row(
                "SELECT EXISTS (SELECT 1 FROM embedding_secrets
                 WHERE set_id = ?1 AND chunk_id = ?2 AND withheld = 1)",
                params![set.set_id, chunk_id],
                |row| row.get(0),
            )?)
        })
    }

    /// How many chunks of `vault` have a vector in set `fingerprint`, and how many chunks it
    /// has in all.
    pub fn coverage(
        &self,
        fingerprint: &str,
        vault: &str,
    ) -> Result<(usize, usize), VectorStoreError> {
        self.store.read(|conn| {
            let total: i64 = conn.query_row(
                "SELECT count(*) FROM chunks WHERE vault_id = ?1",
                [vault],
                |row| row.get(0),
            )?;
            let Some(set) = sets::find(conn, fingerprint)? else {
                return Ok((0, usize::try_from(total).unwrap_or(0)));
            };
            let embedded: i64 = conn.query_row(
                "SELECT count(*) FROM embedding_chunks WHERE set_id = ?1 AND vault_id = ?2",
                params![set.set_id, vault],
                |row| row.get(0),
            )?;
            Ok((
                usize::try_from(embedded).unwrap_or(0),
                usize::try_from(total).unwrap_or(0),
            ))
        })
    }

    /// Every vector of set `fingerprint` (all vaults), in a matrix ordered by chunk id;
    /// `None` when the set does not exist.
    pub fn load(&self, fingerprint: &str) -> Result<Option<VectorMatrix>, VectorStoreError> {
        self.store.read(|conn| {
            let Some(set) = sets::find(conn, fingerprint)? else {
                return Ok(None);
            };
            let count: i64 = conn.query_row(
                "SELECT count(*) FROM embedding_chunks WHERE set_id = ?1",
                [set.set_id],
                |row| row.get(0),
            )?;
            let capacity = usize::try_from(count).unwrap_or(0);
            let mut matrix = VectorMatrix::with_capacity(set.dims, capacity)
                .map_err(VectorStoreError::invalid_vector(None))?;
            let mut query = conn.prepare(&format!(
                "SELECT c.chunk_id, c.note_key, v.embedding
                 FROM embedding_chunks c JOIN {} v ON v.chunk_id = c.chunk_id
                 WHERE c.set_id = ?1 ORDER BY c.chunk_id",
                set.table()
            ))?;
            let mut rows = query.query([set.set_id])?;
            let mut vector = Vec::with_capacity(set.dims);
            while let Some(row) = rows.next()? {
                let chunk_id: i64 = row.get(0)?;
                let note_key: u32 = row.get(1)?;
                let bytes = row.get_ref(2)?.as_blob().map_err(rusqlite::Error::from)?;
                blob::decode_into(bytes, set.dims, chunk_id, &mut vector)?;
                matrix
                    .upsert(chunk_id, note_key, &vector)
                    .map_err(VectorStoreError::invalid_vector(Some(chunk_id)))?;
            }
            Ok(Some(matrix))
        })
    }

    /// sqlite-vec's own KNN over set `fingerprint` (`embedding MATCH ? AND k = ?`): the `k`
    /// nearest chunks by L2 distance, nearest first, as `(chunk_id, distance)`. No filter: it is
    /// the baseline [`VectorMatrix::top_k`] is measured against. For unit vectors the order
    /// matches the dot-product ranking (`|a - b|² = 2 - 2 a·b`).
    pub fn knn_sqlite_vec(
        &self,
        fingerprint: &str,
        query: &[f32],
        k: usize,
    ) -> Result<Vec<(i64, f32)>, VectorStoreError> {
        if !(1..=MAX_KNN_K).contains(&k) {
            return Err(VectorStoreError::InvalidK { k, max: MAX_KNN_K });
        }
        self.store.read(|conn| {
            let set = sets::require(conn, fingerprint)?;
            check_vector(set.dims, query).map_err(VectorStoreError::invalid_vector(None))?;
            let mut statement = conn.prepare_cached(&format!(
                "SELECT chunk_id, distance FROM {} WHERE embedding MATCH ?1 AND k = ?2
                 ORDER BY distance",
                set.table()
            ))?;
            let found = statement
                .query_map(params![blob::encode(query), k as i64], |row| {
                    Ok((row.get::<_, i64>(0)?, row.get::<_, f64>(1)? as f32))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(found)
        })
    }
}
