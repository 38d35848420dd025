//! The tool catalog's embeddings (see `crate::runtime::CatalogVectors`), kept so that a
//! restarted server does not embed the catalog again: one row, the latest catalog and model,
//! found by the SHA-256 that names them; the vectors as JSON (f32s round-trip exactly).

use std::collections::HashMap;

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError};

/// The catalog-vectors table of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct CatalogVectorRows<'s> {
    store: &'s Store,
}

impl<'s> CatalogVectorRows<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// The vectors saved under `key`, by document id; `None` when none are.
    pub fn load(&self, key: &[u8]) -> Result<Option<HashMap<String, Vec<f32>>>, StoreError> {
        let json: Option<String> = self.store.read(|conn| {
            conn.query_row(
                "SELECT vectors_json FROM catalog_vectors WHERE catalog_key = ?1",
                params![key],
                |row| row.get(0),
            )
            .optional()
        })?;
        Ok(json.map(|json| serde_json::from_str(&json)).transpose()?)
    }

    /// Saves `vectors` under `key` in place of any catalog saved before.
    pub fn save(&self, key: &[u8], vectors: &HashMap<String, Vec<f32>>) -> Result<(), StoreError> {
        let json = serde_json::to_string(vectors)?;
        self.store.write(|tx| {
            tx.execute("DELETE FROM catalog_vectors", [])?;
            tx.execute(
                "INSERT INTO catalog_vectors (catalog_key, vectors_json) VALUES (?1, ?2)",
                params![key, json],
            )?;
            Ok(())
        })
    }
}
