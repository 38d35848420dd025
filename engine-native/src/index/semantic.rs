//! The semantic side of the index: chunk vectors from the configured embedding provider,
//! persisted in sqlite-vec under the provider's fingerprint and scanned exactly from one
//! contiguous in-memory matrix. Vectors of another fingerprint are never read (a different
//! model, size or pooling is a different set), so vectors never mix.
//!
//! Embedding runs apart from scanning: a scan stores chunks and makes them searchable
//! lexically at once; [`SemanticIndex::embed_pending`] then fills in their vectors, and a
//! query reports how much of the vault has them. Queries filter by vault and ACL through a
//! per-note bitmap before the top-k is cut, so a hidden note neither shows nor takes a place.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use super::query_vectors::QueryVectors;
use super::secret_screen::{PassFindings, screen};
use crate::content::secrets::SecretsAction;
use crate::embed::{EmbedError, EmbedKind, EmbeddingProvider, Throughput};
use crate::store::{Store, StoreError};
use crate::telemetry::spans;
use crate::vectors::{
    MatrixError, NoteFilter, PendingChunk, SecretFindings, VectorMatrix, VectorRow, VectorStore,
    VectorStoreError,
};

/// Why the semantic index could not do something.
#[derive(Debug)]
pub enum SemanticError {
    /// The provider failed.
    Embed(EmbedError),
    /// The vector store failed.
    Vectors(VectorStoreError),
    /// A vector did not fit the matrix (a provider that changed its output size).
    Matrix(MatrixError),
    /// The cache database failed.
    Store(StoreError),
}

impl std::fmt::Display for SemanticError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SemanticError::Embed(error) => error.fmt(f),
            SemanticError::Vectors(error) => write!(f, "the vector store failed: {error}"),
            SemanticError::Matrix(error) => write!(f, "a vector did not fit: {error}"),
            SemanticError::Store(error) => write!(f, "the cache database failed: {error}"),
        }
    }
}

impl std::error::Error for SemanticError {}

impl SemanticError {
    /// The tool error a caller sees: the provider's own (`embedding_provider_error`, with its
    /// retry advice) or `internal` for the vectors and the database.
    pub fn into_tool_error(self) -> crate::errors::ToolError {
        match self {
            SemanticError::Embed(error) => error.to_tool_error(),
            other => crate::errors::ToolError::internal(other.to_string()),
        }
    }
}

impl From<EmbedError> for SemanticError {
    fn from(error: EmbedError) -> Self {
        SemanticError::Embed(error)
    }
}

impl From<VectorStoreError> for SemanticError {
    fn from(error: VectorStoreError) -> Self {
        SemanticError::Vectors(error)
    }
}

impl From<MatrixError> for SemanticError {
    fn from(error: MatrixError) -> Self {
        SemanticError::Matrix(error)
    }
}

impl From<StoreError> for SemanticError {
    fn from(error: StoreError) -> Self {
        SemanticError::Store(error)
    }
}

/// Dense keys for notes across vaults (what the matrix's per-row note key and the query
/// bitmap use).
#[derive(Debug, Default)]
struct NoteKeys {
    by_note: HashMap<(String, String), u32>,
    notes: Vec<(String, String)>,
}

impl NoteKeys {
    /// The key of `(vault, path)`, assigned on first use.
    fn key(&mut self, vault: &str, path: &str) -> u32 {
        let note = (vault.to_owned(), path.to_owned());
        if let Some(key) = self.by_note.get(&note) {
            return *key;
        }
        let key = u32::try_from(self.notes.len()).unwrap_or(u32::MAX);
        self.by_note.insert(note.clone(), key);
        self.notes.push(note);
        key
    }

    /// The notes of the vaults for which `keep(vault)` holds, as a scan filter.
    fn filter(&self, keep: impl Fn(&str) -> bool) -> NoteFilter {
        let mut filter = NoteFilter::none();
        for (key, (vault, _)) in self.notes.iter().enumerate() {
            if keep(vault) {
                filter.allow(u32::try_from(key).unwrap_or(u32::MAX));
            }
        }
        filter
    }

    /// Records a key read back from the store.
    fn restore(&mut self, key: u32, vault: String, path: String) {
        let index = key as usize;
        if self.notes.len() <= index {
            self.notes.resize(index + 1, (String::new(), String::new()));
        }
        self.notes[index] = (vault.clone(), path.clone());
        self.by_note.insert((vault, path), key);
    }
}

/// The failure stage of a note whose chunks could not be embedded.
pub const EMBED_STAGE: &str = "embed";

/// How many chunks go to a local engine per round. It sorts a round by word pieces and
/// encodes it in micro-batches of its own size, so a round much larger than a micro-batch
/// pads less (over pf2e-srd's chunks: 4.7% of the computed pieces padding in rounds of 128,
/// 1.2% in rounds of 512). Rounds keep the index visibly progressing (a round of the default
/// model takes about 15 s on two cores) and the texts in memory few.
const LOCAL_EMBED_ROUND: usize = 512;

/// How many chunks go to a remote provider per round, which splits it into requests of its
/// `max_batch`: a round is kept or lost whole, so it stays small.
const REMOTE_EMBED_ROUND: usize = 128;

/// How a chunk becomes the text its vector is made of ([`embedding_text`]), named in the
/// vector set's id so that vectors of another rendering are never mixed with these: `reading`
/// is the title and headings over the text with links read as shown.
const DOCUMENT_TEXT: &str = "text:reading";

/// How many chunks of a vault have vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Coverage {
    /// Chunks with a vector.
    pub embedded: usize,
    /// Chunks in all.
    pub chunks: usize,
}

/// The vectors of every vault under one provider.
pub struct SemanticIndex {
    provider: Box<dyn EmbeddingProvider>,
    fingerprint: String,
    matrix: RwLock<VectorMatrix>,
    keys: RwLock<NoteKeys>,
    embedding: Mutex<()>,
    /// The pace of the running (or last) embedding pass, for an ETA.
    pace: Mutex<Throughput>,
    queries: QueryVectors,
}

impl std::fmt::Debug for SemanticIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SemanticIndex")
            .field("fingerprint", &self.fingerprint)
            .finish_non_exhaustive()
    }
}

impl SemanticIndex {
    /// Opens the vectors `provider` made before (its fingerprint's set), creating the set on
    /// first use.
    pub fn open(
        store: &Store,
        provider: Box<dyn EmbeddingProvider>,
    ) -> Result<Self, SemanticError> {
        let fingerprint = format!("{}|{DOCUMENT_TEXT}", provider.fingerprint().id());
        let vectors = VectorStore::new(store);
        let set = vectors.ensure_set(&fingerprint, provider.fingerprint().dimensions)?;
        let matrix = match vectors.load(&fingerprint)? {
            Some(matrix) => matrix,
            None => VectorMatrix::new(set.dims)?,
        };
        let notes = store.note_index().chunk_notes()?;
        let mut keys = NoteKeys::default();
        for (chunk_id, key) in matrix.chunk_ids().iter().zip(matrix.note_keys()) {
            if let Some((vault, path)) = notes.get(chunk_id) {
                keys.restore(*key, vault.clone(), path.clone());
            }
        }
        Ok(SemanticIndex {
            provider,
            fingerprint,
            matrix: RwLock::new(matrix),
            keys: RwLock::new(keys),
            embedding: Mutex::new(()),
            pace: Mutex::new(Throughput::default()),
            queries: QueryVectors::default(),
        })
    }

    /// How many chunks are embedded per round: 512 for a local engine (so that its length
    /// sort pads less), 128 for a remote provider.
    pub fn batch_size(&self) -> usize {
        if self.provider.fingerprint().provider == "local" {
            LOCAL_EMBED_ROUND
        } else {
            REMOTE_EMBED_ROUND
        }
    }

    /// Drops every vector of `vault` from memory (its rows went with its chunks).
    pub fn forget_vault(&self, vault: &str) {
        let keys: Vec<u32> = {
            let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
            keys.notes
                .iter()
                .enumerate()
                .filter(|(_, (note_vault, _))| note_vault == vault)
                .filter_map(|(key, _)| u32::try_from(key).ok())
                .collect()
        };
        let mut matrix = self.matrix.write().unwrap_or_else(PoisonError::into_inner);
        let gone: Vec<i64> = matrix
            .chunk_ids()
            .iter()
            .zip(matrix.note_keys())
            .filter(|(_, key)| keys.contains(key))
            .map(|(id, _)| *id)
            .collect();
        for id in gone {
            matrix.remove(id);
        }
    }

    /// What runs the provider's model (see [`EmbeddingProvider::engine`]).
    pub fn engine(&self) -> Option<&str> {
        self.provider.engine()
    }

    /// The id of the vector set: the provider's fingerprint and how chunks are rendered.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// Embeds the chunks of `vault` that have no vector yet, `batch` at a time, reporting
    /// `progress(note paths)` after each batch with the note of every chunk it embedded (so a
    /// caller can count only the chunks it may see); returns how many it embedded. One embedder runs at a time.
    /// With `secrets` (a remote provider), each chunk is scanned for credentials first and
    /// withheld or sent redacted (see [`crate::index::secret_screen`]); a withheld chunk stays
    /// without a vector and is no longer pending.
    pub fn embed_pending(
        &self,
        store: &Store,
        vault: &str,
        batch: usize,
        now: i64,
        secrets: Option<SecretsAction>,
        progress: &mut dyn FnMut(&[&str]),
    ) -> Result<usize, SemanticError> {
        let _one = self
            .embedding
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let vectors = VectorStore::new(store);
        let findings = SecretFindings::new(store);
        if secrets != Some(SecretsAction::Skip) {
            findings.release_withheld(&self.fingerprint, vault)?;
        }
        let mut found = PassFindings::default();
        let provider = self.provider.fingerprint().provider.clone();
        let batch = batch.max(1);
        let mut done = 0;
        loop {
            let pending = vectors.pending(&self.fingerprint, vault, batch)?;
            if pending.is_empty() {
                found.log(vault, &provider);
                return Ok(done);
            }
            if done == 0 {
                if pending.len() == batch {
                    // More than one batch: room for every row now, not by doubling.
                    let (embedded, chunks) = vectors.coverage(&self.fingerprint, vault)?;
                    self.matrix
                        .write()
                        .unwrap_or_else(PoisonError::into_inner)
                        .reserve(chunks.saturating_sub(embedded));
                }
                let mut pace = Throughput::default();
                pace.observe(0);
                *self.pace.lock().unwrap_or_else(PoisonError::into_inner) = pace;
            }
            let texts: Vec<String> = pending.iter().map(embedding_text).collect();
            let chunk_ids: Vec<i64> = pending.iter().map(|chunk| chunk.chunk_id).collect();
            let screened = screen(vault, &chunk_ids, texts, secrets);
            found.add(&screened);
            findings.record(&self.fingerprint, &screened.withheld, true)?;
            let pending: Vec<&PendingChunk> =
                screened.send.iter().map(|(at, _)| &pending[*at]).collect();
            if pending.is_empty() {
                continue;
            }
            let refs: Vec<&str> = screened
                .send
                .iter()
                .map(|(_, text)| text.as_str())
                .collect();
            let mut paths: Vec<&str> = pending.iter().map(|chunk| chunk.path.as_str()).collect();
            paths.sort_unstable();
            paths.dedup();
            let embedded = match self.embed(&refs, EmbedKind::Document) {
                Ok(embedded) => embedded,
                Err(error) => {
                    // Reported by get_index_status until a later pass embeds them.
                    for path in &paths {
                        store.note_index().record_failure(
                            vault,
                            path,
                            EMBED_STAGE,
                            &error.to_string(),
                            now,
                        )?;
                    }
                    return Err(error.into());
                }
            };
            let keys: Vec<u32> = {
                let mut keys = self.keys.write().unwrap_or_else(PoisonError::into_inner);
                pending
                    .iter()
                    .map(|chunk| keys.key(vault, &chunk.path))
                    .collect()
            };
            let rows: Vec<VectorRow<'_>> = pending
                .iter()
                .zip(&embedded)
                .zip(&keys)
                .map(|((chunk, vector), key)| VectorRow {
                    chunk_id: chunk.chunk_id,
                    vault_id: vault,
                    note_key: *key,
                    vector,
                })
                .collect();
            vectors.put_batch(&self.fingerprint, &rows)?;
            findings.record(&self.fingerprint, &screened.redacted, false)?;
            let mut matrix = self.matrix.write().unwrap_or_else(PoisonError::into_inner);
            for row in &rows {
                matrix.upsert(row.chunk_id, row.note_key, row.vector)?;
            }
            drop(matrix);
            for path in &paths {
                store.note_index().clear_failure(vault, path, EMBED_STAGE)?;
            }
            done += rows.len();
            self.pace
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .observe(done as u64);
            let embedded: Vec<&str> = pending.iter().map(|chunk| chunk.path.as_str()).collect();
            progress(&embedded);
        }
    }

    /// Drops the vectors of chunks that no longer exist (a note changed or was deleted).
    pub fn forget(&self, store: &Store, chunk_ids: &[i64]) -> Result<(), SemanticError> {
        if chunk_ids.is_empty() {
            return Ok(());
        }
        VectorStore::new(store).delete_chunks(&self.fingerprint, chunk_ids)?;
        let mut matrix = self.matrix.write().unwrap_or_else(PoisonError::into_inner);
        for id in chunk_ids {
            matrix.remove(*id);
        }
        Ok(())
    }

    /// The embedding of `query` (embedded once while it is among the recent queries).
    pub fn query_vector(&self, query: &str) -> Result<Arc<[f32]>, SemanticError> {
        Ok(self.queries.get_or_embed(query, || {
            Ok::<_, EmbedError>(
                self.embed(&[query], EmbedKind::Query)?
                    .pop()
                    .unwrap_or_default(),
            )
        })?)
    }

    /// The embeddings of `texts` as queries (with the model's query prefix; nothing is stored
    /// or cached), in order: `find_capability` ranks the tool catalog's one-line summaries by
    /// them, texts of the same kind as the requests it is asked.
    pub fn embed_queries(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, SemanticError> {
        Ok(self.embed(texts, EmbedKind::Query)?)
    }

    /// `texts` embedded as `kind` by the provider, in a span of its own inside a tool call.
    fn embed(&self, texts: &[&str], kind: EmbedKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        let kind_name = match kind {
            EmbedKind::Query => "query",
            EmbedKind::Document => "document",
        };
        let model = &self.provider.fingerprint().model;
        spans::embed(kind_name, texts.len(), model).in_scope(|| self.provider.embed(texts, kind))
    }

    /// The `k` chunks of `vault` nearest to the query vector `query` among the notes
    /// `allowed` admits, best first, as `(chunk_id, cosine)`.
    pub fn search(
        &self,
        vault: &str,
        query: &[f32],
        k: usize,
        allowed: &dyn Fn(&str) -> bool,
    ) -> Result<Vec<(i64, f32)>, SemanticError> {
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        let in_vault = keys.filter(|note_vault| note_vault == vault);
        let matrix = self.matrix.read().unwrap_or_else(PoisonError::into_inner);
        // The ACL is asked only about the notes of the first candidates (asking about every
        // note of a large vault costs more than the scan); the result is the same.
        let allowed_key = |key: u32| {
            keys.notes
                .get(key as usize)
                .is_some_and(|(_, path)| allowed(path))
        };
        Ok(matrix.top_k_deciding(query, k, &in_vault, &allowed_key)?)
    }

    /// Whether chunk `chunk_id` is withheld from embedding (a credential in it): it will not
    /// get a vector, unlike a chunk still pending.
    pub fn withheld(&self, store: &Store, chunk_id: i64) -> Result<bool, SemanticError> {
        Ok(VectorStore::new(store).withheld(&self.fingerprint, chunk_id)?)
    }

    /// The `k` chunks of `vault` nearest to chunk `chunk_id` (itself left out), best first,
    /// as `(chunk_id, cosine)`; `None` when the chunk has no vector (yet).
    pub fn neighbours(
        &self,
        vault: &str,
        chunk_id: i64,
        k: usize,
    ) -> Result<Option<Vec<(i64, f32)>>, SemanticError> {
        let vector = {
            let matrix = self.matrix.read().unwrap_or_else(PoisonError::into_inner);
            match matrix.vector(chunk_id) {
                Some(vector) => vector.to_vec(),
                None => return Ok(None),
            }
        };
        let found = self.search(vault, &vector, k + 1, &|_| true)?;
        Ok(Some(
            found
                .into_iter()
                .filter(|(id, _)| *id != chunk_id)
                .take(k)
                .collect(),
        ))
    }

    /// The note (vault-relative path) chunk `chunk_id` belongs to, if it has a vector.
    pub fn note_of_chunk(&self, chunk_id: i64) -> Option<String> {
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        let matrix = self.matrix.read().unwrap_or_else(PoisonError::into_inner);
        let key = matrix.note_key(chunk_id)?;
        keys.notes.get(key as usize).map(|(_, path)| path.clone())
    }

    /// One vector per note of `vault` that `allowed` admits: the mean of its chunks'
    /// vectors, normalised (what note-to-note similarity compares), by path.
    pub fn note_vectors(
        &self,
        vault: &str,
        allowed: &dyn Fn(&str) -> bool,
    ) -> Vec<(String, Vec<f32>)> {
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        let matrix = self.matrix.read().unwrap_or_else(PoisonError::into_inner);
        let dims = matrix.dims();
        let mut sums: HashMap<u32, Vec<f32>> = HashMap::new();
        let mut decided: HashMap<u32, bool> = HashMap::new();
        for (row, key) in matrix.note_keys().iter().enumerate() {
            let admitted = *decided.entry(*key).or_insert_with(|| {
                keys.notes
                    .get(*key as usize)
                    .is_some_and(|(in_vault, path)| in_vault == vault && allowed(path))
            });
            if !admitted {
                continue;
            }
            let sum = sums.entry(*key).or_insert_with(|| vec![0.0; dims]);
            for (total, value) in sum
                .iter_mut()
                .zip(&matrix.rows()[row * dims..(row + 1) * dims])
            {
                *total += value;
            }
        }
        let mut out: Vec<(String, Vec<f32>)> = sums
            .into_iter()
            .filter_map(|(key, mut sum)| {
                let norm = sum.iter().map(|value| value * value).sum::<f32>().sqrt();
                if norm == 0.0 {
                    return None;
                }
                sum.iter_mut().for_each(|value| *value /= norm);
                let (_, path) = keys.notes.get(key as usize)?;
                Some((path.clone(), sum))
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// Seconds until `remaining` more chunks are embedded at the pace of the running (or
    /// last) pass; `None` before any pass of this process.
    pub fn eta_seconds(&self, remaining: usize) -> Option<u64> {
        self.pace
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .eta_seconds(remaining as u64)
    }

    /// How many chunks of `vault` have a vector among the notes `readable` admits (asked
    /// once per note): what a caller who may read only those notes is told is embedded.
    pub fn embedded_readable(&self, vault: &str, readable: &dyn Fn(&str) -> bool) -> usize {
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        let matrix = self.matrix.read().unwrap_or_else(PoisonError::into_inner);
        let mut decided: HashMap<u32, bool> = HashMap::new();
        matrix
            .note_keys()
            .iter()
            .filter(|&&key| {
                *decided.entry(key).or_insert_with(|| {
                    keys.notes
                        .get(key as usize)
                        .is_some_and(|(in_vault, path)| in_vault == vault && readable(path))
                })
            })
            .count()
    }

    /// How much of `vault` has vectors.
    pub fn coverage(&self, store: &Store, vault: &str) -> Result<Coverage, SemanticError> {
        let (embedded, chunks) = VectorStore::new(store).coverage(&self.fingerprint, vault)?;
        Ok(Coverage { embedded, chunks })
    }
}

/// What is embedded for a chunk: its note's title and heading breadcrumb over its text with
/// the links read as shown ([`engine_core::markdown::reading_text`]).
fn embedding_text(chunk: &crate::vectors::PendingChunk) -> String {
    let title = crate::note::title_of(&chunk.path);
    let mut context = vec![title.as_str()];
    context.extend(chunk.headings.iter().map(String::as_str));
    format!(
        "{}\n\n{}",
        context.join(" > "),
        engine_core::markdown::reading_text(&chunk.text)
    )
}
