//! [`CatalogVectors`]: the embeddings of the tool catalog's documents, made once per catalog
//! and embedding space and kept for the server's life, so that `find_capability` embeds only
//! its query. The set is keyed by a SHA-256 of the embedding space (the provider's
//! fingerprint) and of every document's id and text: a reload that changes a tool, or another
//! model, embeds the catalog again; the same catalog never does.
//!
//! Kept in memory only, not in `cache.db`: the catalog is about a hundred short documents,
//! embedded in one batch when `find_capability` first ranks by meaning (a second or two with
//! all-MiniLM-L6-v2 on one core), while a table of its own would need a schema migration.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use sha2::{Digest, Sha256};

use crate::errors::ToolError;

/// One document of the catalog: its id (the tool name) and the text embedded for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogDocument {
    /// The tool name.
    pub id: &'static str,
    /// What is embedded.
    pub text: String,
}

/// The vectors of one catalog in one embedding space, by document id.
pub type CatalogSet = HashMap<&'static str, Vec<f32>>;

/// The catalog's vectors of the last catalog and space embedded.
#[derive(Debug, Default)]
pub struct CatalogVectors {
    last: Mutex<Option<(Vec<u8>, Arc<CatalogSet>)>>,
}

impl CatalogVectors {
    /// The vectors of `documents` in the space `space`: the kept set when neither changed,
    /// else `embed(texts)` (one vector per text, in order), kept in place of the last set. A
    /// failure of `embed`, or an answer of another length (`internal`), keeps nothing.
    /// Concurrent callers wait for one embedding rather than each making their own.
    pub fn get_or_embed(
        &self,
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
        let texts: Vec<&str> = documents.iter().map(|doc| doc.text.as_str()).collect();
        let vectors = embed(&texts)?;
        if vectors.len() != documents.len() {
            return Err(ToolError::internal(format!(
                "the catalog's {} documents were embedded as {} vectors",
                documents.len(),
                vectors.len()
            )));
        }
        let set: Arc<CatalogSet> = Arc::new(
            documents
                .iter()
                .map(|doc| doc.id)
                .zip(vectors)
                .collect::<HashMap<_, _>>(),
        );
        *last = Some((key, Arc::clone(&set)));
        Ok(set)
    }
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
