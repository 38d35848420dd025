//! [`CatalogVectors`]: the embeddings of the tool catalog's documents, made once per catalog
//! and embedding space, so that `find_capability` embeds only its query. The set is keyed by
//! a SHA-256 of the embedding space (the provider's fingerprint) and of every document's id
//! and text: a reload that changes a tool, or another model, embeds the catalog again; the
//! same catalog never does. It is kept in memory for the server's life and in `cache.db`
//! ([`crate::store::CatalogVectorRows`]), so a restart reads it back instead of embedding
//! the hundred-odd documents again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use sha2::{Digest, Sha256};

use crate::errors::ToolError;
use crate::store::Store;

/// One document of the catalog: its id (unique in the catalog) and the text embedded for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogDocument {
    /// What the document is known by: a tool name, or another id its caller chooses.
    pub id: String,
    /// What is embedded.
    pub text: String,
}

/// The vectors of one catalog in one embedding space, by document id.
pub type CatalogSet = HashMap<String, Vec<f32>>;

/// The catalog's vectors of the last catalog and space embedded.
#[derive(Debug, Default)]
pub struct CatalogVectors {
    last: Mutex<Option<(Vec<u8>, Arc<CatalogSet>)>>,
}

impl CatalogVectors {
    /// The vectors of `documents` in the space `space`: the set kept in memory, else the one
    /// `store` saved, when neither changed; else `embed(texts)` (one vector per text, in
    /// order), kept and saved in place of the last set. A failure of `embed`, or an answer of
    /// another length (`internal`), keeps nothing; a store that cannot be read or written is
    /// logged and only costs an embedding. Concurrent callers wait for one embedding rather
    /// than each making their own.
    pub fn get_or_embed(
        &self,
        store: &Store,
        space: &str,
        documents: &[CatalogDocument],
        embed: impl FnOnce(&[&str]) -> Result<Vec<Vec<f32>>, ToolError>,
    ) -> Result<Arc<CatalogSet>, ToolError> {
        let key = catalog_key(space, documents);
        let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((kept, set)) = last.as_ref()
            && *kept == key
        {
            return Ok(Arc::clone(set));
        }
        if let Some(saved) = saved_set(store, &key, documents) {
            let set = Arc::new(saved);
            *last = Some((key, Arc::clone(&set)));
            return Ok(set);
        }
        let texts: Vec<&str> = documents.iter().map(|doc| doc.text.as_str()).collect();
        let vectors = embed(&texts)?;
        if vectors.len() != documents.len() {
            return Err(ToolError::internal(format!(
                "the catalog's {} documents were embedded as {} vectors",
                documents.len(),
                vectors.len()
            )));
        }
        let set: CatalogSet = documents
            .iter()
            .map(|doc| doc.id.clone())
            .zip(vectors)
            .collect();
        if let Err(error) = store.catalog_vectors().save(&key, &set) {
            tracing::warn!("the catalog's embeddings were not saved: {error}");
        }
        let set = Arc::new(set);
        *last = Some((key, Arc::clone(&set)));
        Ok(set)
    }
}

/// The set `store` saved under `key`, when it has one vector for each of `documents`.
fn saved_set(store: &Store, key: &[u8], documents: &[CatalogDocument]) -> Option<CatalogSet> {
    let saved = store.catalog_vectors().load(key).unwrap_or_else(|error| {
        tracing::warn!("the catalog's saved embeddings could not be read: {error}");
        None
    })?;
    let complete =
        saved.len() == documents.len() && documents.iter().all(|doc| saved.contains_key(&doc.id));
    complete.then_some(saved)
}

/// The SHA-256 of `space` and every document's id and text, each NUL-terminated so
/// that no two catalogs share a key.
fn catalog_key(space: &str, documents: &[CatalogDocument]) -> Vec<u8> {
    let mut hash = Sha256::new();
    hash.update(space.as_bytes());
    hash.update([0]);
    for doc in documents {
        hash.update(doc.id.as_bytes());
        hash.update([0]);
        hash.update(doc.text.as_bytes());
        hash.update([0]);
    }
    hash.finalize().to_vec()
}
