//! Embedding vectors: persisted per embedding set in sqlite-vec `vec0` tables of `cache.db`,
//! and searched exactly from a contiguous in-memory matrix.
//!
//! - [`VectorStore`]: the persisted vectors of each embedding set (keyed by an opaque
//!   fingerprint with its dimension), tied to `(chunk_id, vault_id, note_key)`; writes go
//!   through the store's writer in one transaction per call. [`VectorStore::load`] reads a set
//!   into a [`VectorMatrix`]; [`VectorStore::knn_sqlite_vec`] is sqlite-vec's own KNN, kept as
//!   the baseline the scan is measured against.
//! - [`SecretFindings`]: the credentials found in chunks bound for a remote provider, by
//!   class and count, and which chunks were withheld.
//! - [`VectorMatrix`]: one set's vectors row-major in one `Vec<f32>`, kept up to date with
//!   upsert and swap-remove; [`VectorMatrix::top_k`] scores every row the [`NoteFilter`] allows
//!   with engine-core's dot product and keeps the best `k` (ties by smaller chunk id).

mod blob;
mod error;
mod filter;
mod matrix;
mod secret_findings;
mod sets;
mod top_k;
mod vector_store;

pub use error::{MatrixError, VectorStoreError};
pub use filter::NoteFilter;
pub use matrix::{VectorMatrix, check_vector};
pub use secret_findings::{ChunkFindings, FindingsSummary, SecretFindings};
pub use sets::{EmbeddingSet, MAX_DIMS};
pub use vector_store::{MAX_KNN_K, PendingChunk, VectorRow, VectorStore};
