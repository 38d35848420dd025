//! Ranking: BM25F over an in-memory inverted index, vector similarity, and rank fusion.
//!
//! # BM25F
//!
//! A document has five fields ([`Field`]: title, aliases, headings, tags, body), each a
//! list of analyzed terms. For a document `d`, a query term `t` and a field `f`:
//!
//! - `tf_f` is the number of occurrences of `t` in field `f` of `d`, `len_f` the number of
//!   terms in that field, `avglen_f = (Σ_d len_f) / N` over the `N` indexed documents.
//! - `df` is the number of documents containing `t` in any field, and
//!   `idf = ln(1 + (N - df + 0.5) / (df + 0.5))` (Lucene's BM25 IDF, always positive).
//! - the weighted, length-normalised frequency is
//!   `tf~ = Σ_f w_f · tf_f / ((1 - b) + b · len_f / avglen_f)`
//!   over the fields with `w_f > 0`, `tf_f > 0` (a field with no term in any document
//!   takes no part);
//! - saturation is applied once, after the fields are combined:
//!   `s = (k1 + 1) · tf~ / (k1 + tf~)`;
//! - `score(d) = Σ_t idf_t · s_t` over the distinct query terms: a term repeated in the
//!   query counts once (on SciFact train this beats weighting by query term frequency).
//!
//! Documents that contain no query term in a field of positive weight are not returned.
//!
//! ## Exact order of operations
//!
//! So that every build produces bit-identical scores, the arithmetic is fixed:
//!
//! 1. `idf` is computed in `f64` (`libm::log`) and rounded once to `f32`.
//! 2. Per query and field, `slope_f = (b as f64 / (Σ_d len_f as f64 / N as f64)) as f32`.
//! 3. Per (term, document), in `f32`: for each field in the order title, aliases,
//!    headings, tags, body: `sum += (w_f * tf_f) / ((1 - b) + slope_f * len_f)`, starting
//!    from `sum = 0`.
//! 4. `s = (k1 + 1) / (1 + k1 / sum)` — algebraically `(k1 + 1) · sum / (k1 + sum)`, but
//!    finite even when a huge weight makes `sum` infinite.
//! 5. `score += idf * s`, over the distinct query terms in the order of their first
//!    occurrence in the query, starting from `score = 0`.
//!
//! Results are ranked by score descending, then by id ascending (byte order).
//!
//! ## Per-caller statistics
//!
//! A caller that may see only some documents searches through a [`Visible`] view:
//! `N`, `df` and `avglen_f` are then those of the visible documents, so every visible
//! document scores bit-identically to an index holding the visible documents alone.
//!
//! # Vectors and fusion
//!
//! [`dot`] and [`cosine`] work on `f32` slices with a fixed summation order; [`rrf`] and
//! [`fuse_scores`] combine ranked lists (see their modules for the exact definitions).

mod chunk_key;
mod codec;
mod field;
mod fusion;
mod fuzzy;
mod index;
mod lexical;
mod notes;
pub(crate) mod params;
mod plan;
mod postings;
mod scoring;
mod snapshot;
mod topk;
mod vector;
mod visible;
mod wire;

pub use chunk_key::{chunk_key, chunk_key_path};
pub use codec::{AnalyzerStamp, DecodeError, FORMAT_VERSION, MAGIC};
pub use field::{Field, FieldWeights};
pub use fusion::{FusionError, Hit, Normalization, RankedList, ScoredList, fuse_scores, rrf};
pub use index::{IndexError, InvertedIndex, MAX_DOCS};
pub use lexical::{AnalyzedDocument, Document, LexicalDecodeError, LexicalIndex};
pub use notes::{NoteHit, NoteRanking, best_per_note};
pub use params::{Bm25Params, MAX_K1, ParamsError};
pub use postings::MAX_TF;
pub use scoring::idf;
pub use snapshot::{
    SNAPSHOT_MAGIC, SNAPSHOT_VERSION, SavedNote, SnapshotError, decode_snapshot, encode_snapshot,
};
pub use topk::ScoredDoc;
pub use vector::{VectorError, cosine, dot};
pub use visible::{StaleView, Visible};

/// A hash map with a fixed-seed hasher: nothing in this module depends on a random seed.
pub(crate) type FixedMap<K, V> = hashbrown::HashMap<K, V, foldhash::fast::FixedState>;
