//! Embedding sets: one row per fingerprint (provider/model/dims/pooling, defined elsewhere and
//! opaque here) with its dimension, and the `vec0` table that holds its vectors.

use rusqlite::{Connection, OptionalExtension, params};

use super::VectorStoreError;

/// The largest dimension a set may have (the schema's `CHECK`; sqlite-vec's own limit is higher).
pub const MAX_DIMS: usize = 8192;

/// A stored embedding set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbeddingSet {
    /// The fingerprint that names the set.
    pub fingerprint: String,
    /// The dimension of its vectors.
    pub dims: usize,
    /// The row id, which names the set's `vec0` table.
    pub(super) set_id: i64,
}

impl EmbeddingSet {
    /// The set's sqlite-vec table. Built from the integer id only, so no caller text ever
    /// reaches the SQL.
    pub(super) fn table(&self) -> String {
        format!("vec_{}", self.set_id)
    }
}

/// The set named `fingerprint`, if stored.
pub(super) fn find(
    conn: &Connection,
    fingerprint: &str,
) -> Result<Option<EmbeddingSet>, VectorStoreError> {
    let found = conn
        .query_row(
            "SELECT set_id, dims FROM embedding_sets WHERE fingerprint = ?1",
            [fingerprint],
            |row| Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?)),
        )
        .optional()?;
    Ok(found.map(|(set_id, dims)| EmbeddingSet {
        fingerprint: fingerprint.to_owned(),
        // The schema keeps dims in 1..=MAX_DIMS.
        dims: usize::try_from(dims).unwrap_or(0),
        set_id,
    }))
}

/// The set named `fingerprint`, or [`VectorStoreError::UnknownSet`].
pub(super) fn require(
    conn: &Connection,
    fingerprint: &str,
) -> Result<EmbeddingSet, VectorStoreError> {
    find(conn, fingerprint)?.ok_or_else(|| VectorStoreError::UnknownSet {
        fingerprint: fingerprint.to_owned(),
    })
}

/// The set named `fingerprint`, created with its `vec0` table when new; refuses an existing
/// set of another dimension. Run inside a write transaction.
pub(super) fn ensure(
    conn: &Connection,
    fingerprint: &str,
    dims: usize,
) -> Result<EmbeddingSet, VectorStoreError> {
    if fingerprint.is_empty() {
        return Err(VectorStoreError::EmptyFingerprint);
    }
    if !(1..=MAX_DIMS).contains(&dims) {
        return Err(VectorStoreError::InvalidDims {
            dims,
            max: MAX_DIMS,
        });
    }
    if let Some(set) = find(conn, fingerprint)? {
        if set.dims != dims {
            return Err(VectorStoreError::DimsConflict {
                fingerprint: fingerprint.to_owned(),
                stored: set.dims,
                requested: dims,
            });
        }
        return Ok(set);
    }
    conn.execute(
        "INSERT INTO embedding_sets (fingerprint, dims) VALUES (?1, ?2)",
        params![fingerprint, dims as i64],
    )?;
    let set = EmbeddingSet {
        fingerprint: fingerprint.to_owned(),
        dims,
        set_id: conn.last_insert_rowid(),
    };
    conn.execute_batch(&format!(
        "CREATE VIRTUAL TABLE {} USING vec0(chunk_id INTEGER PRIMARY KEY, embedding float[{dims}])",
        set.table()
    ))?;
    Ok(set)
}

/// Drops the set named `fingerprint`, its `vec0` table and its chunk rows; `false` when there
/// was no such set. Run inside a write transaction.
pub(super) fn drop_set(conn: &Connection, fingerprint: &str) -> Result<bool, VectorStoreError> {
    let Some(set) = find(conn, fingerprint)? else {
        return Ok(false);
    };
    conn.execute_batch(&format!("DROP TABLE {}", set.table()))?;
    // The chunk rows go with the set (ON DELETE CASCADE).
    conn.execute("DELETE FROM embedding_sets WHERE set_id = ?1", [set.set_id])?;
    Ok(true)
}
