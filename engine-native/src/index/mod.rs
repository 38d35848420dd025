//! The search index of each vault, kept in `cache.db` and in memory.
//!
//! - [`scan`]: the full scan and the refresh of named paths, incremental by modification
//!   time, size and content hash; deleted notes pruned; failures recorded, retried, reported.
//! - [`lexical`]: engine-core's BM25F over a vault's chunks, saved as a snapshot so a
//!   reopened vault is searchable at once.
//! - [`semantic`]: chunk vectors from the embedding provider, persisted in sqlite-vec and
//!   scanned exactly from memory, vault- and ACL-filtered before the top-k.
//! - [`secret_screen`]: credentials withheld or redacted before chunks go to a remote
//!   embedding provider.
//! - [`mod@embedding_status`]: where semantic search stands (model download, embedding
//!   progress, why search is lexical).
//! - [`query_vectors`]: the vectors of recent queries, so each is embedded once.
//! - [`retrieve`]: lexical, semantic and hybrid (z-scores fused) note rankings.
//! - [`rerank`]: the first notes of a ranking reordered by a cross-encoder (`search.rerank`).
//! - [`graph`]: GraphRAG: the query's ranking raised by a capped personalized-PageRank boost
//!   over resolved links both ways.
//! - [`pagerank`]: personalized PageRank over the notes a query reached.
//! - [`links`]: every link resolved like Obsidian, by source and by target, kept per vault.
//! - [`task_table`]: every task of a vault parsed, kept per vault.
//! - [`generations`]: values derived from the stored rows, kept until the rows change.
//! - [`indexes`]: the live index of every vault, the single-writer rule, the scan status.
//! - [`lock`]: the cross-process writer lock.
//! - [`snippet`]: the passage and highlights shown with a hit.
//! - [`contradictions`]: the contradiction detector (semantic neighbours judged by a model).
//! - [`note_quality`]: the `note-quality` pass (each note's measures, flags and score).

pub mod contradictions;
pub mod embedding_status;
pub mod generations;
pub mod graph;
pub mod indexes;
pub mod lexical;
pub mod links;
pub mod lock;
pub mod note_quality;
pub mod pagerank;
pub mod query_vectors;
pub mod rerank;
pub mod retrieve;
pub mod scan;
pub mod secret_screen;
pub mod semantic;
pub mod snippet;
pub mod task_table;

pub use embedding_status::{
    EmbeddingState, EmbeddingStatus, embedding_status, lexical_reason, off_reason,
};
pub use indexes::{IndexError, IndexStatus, Indexes, VaultIndex};
pub use scan::ScanReport;
