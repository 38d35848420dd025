//! The errors of the vector layer: every failure is typed and says what to do.

use std::fmt;

/// A vector or query the in-memory matrix refuses, or a score it cannot compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatrixError {
    /// A matrix of zero dimensions was asked for.
    ZeroDims,
    /// A vector or query whose length is not the matrix's dimension.
    WrongLength {
        /// The matrix's dimension.
        expected: usize,
        /// The length that was given.
        found: usize,
    },
    /// A vector or query with a NaN or infinite element.
    NonFinite {
        /// Position of the first such element.
        index: usize,
    },
    /// The query's score against a row overflows `f32` (both are finite but huge).
    ScoreOverflow {
        /// The chunk whose row overflowed.
        chunk_id: i64,
    },
}

impl fmt::Display for MatrixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ZeroDims => write!(f, "a vector matrix needs at least one dimension"),
            Self::WrongLength { expected, found } => write!(
                f,
                "the vector has {found} dimensions but the embedding set has {expected}; \
                 embed it with the set's model"
            ),
            Self::NonFinite { index } => write!(
                f,
                "the vector has a NaN or infinite element at index {index}; \
                 only finite embeddings can be stored or searched"
            ),
            Self::ScoreOverflow { chunk_id } => write!(
                f,
                "the score against chunk {chunk_id} overflows f32; normalise the embeddings"
            ),
        }
    }
}

impl std::error::Error for MatrixError {}

/// A failure of the persisted vectors ([`super::VectorStore`]).
#[derive(Debug)]
pub enum VectorStoreError {
    /// SQLite (or sqlite-vec) refused an operation.
    Sqlite(rusqlite::Error),
    /// An empty embedding-set fingerprint.
    EmptyFingerprint,
    /// A dimension outside `1..=MAX_DIMS`.
    InvalidDims {
        /// The dimension that was asked for.
        dims: usize,
        /// The largest supported dimension.
        max: usize,
    },
    /// No embedding set has this fingerprint.
    UnknownSet {
        /// The fingerprint that was looked up.
        fingerprint: String,
    },
    /// The fingerprint is stored with another dimension.
    DimsConflict {
        /// The set's fingerprint.
        fingerprint: String,
        /// The dimension stored for it.
        stored: usize,
        /// The dimension that was asked for.
        requested: usize,
    },
    /// A vector (of `chunk_id`, or the query when `None`) the matrix rules refuse.
    InvalidVector {
        /// The chunk the vector belongs to; `None` for a query.
        chunk_id: Option<i64>,
        /// Why it was refused.
        reason: MatrixError,
    },
    /// A stored vector whose bytes are not `dims` little-endian `f32`s.
    CorruptVector {
        /// The chunk whose vector is corrupt.
        chunk_id: i64,
        /// The number of bytes found.
        bytes: usize,
    },
    /// A `k` outside `1..=MAX_KNN_K` for the sqlite-vec search.
    InvalidK {
        /// The `k` that was asked for.
        k: usize,
        /// The largest `k` sqlite-vec accepts.
        max: usize,
    },
}

impl fmt::Display for VectorStoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sqlite(e) => write!(f, "vector store database error: {e}"),
            Self::EmptyFingerprint => write!(
                f,
                "the embedding-set fingerprint is empty; pass the provider/model fingerprint"
            ),
            Self::InvalidDims { dims, max } => write!(
                f,
                "{dims} dimensions is out of range; embeddings need 1 to {max} dimensions"
            ),
            Self::UnknownSet { fingerprint } => write!(
                f,
                "no embedding set {fingerprint:?}; create it with ensure_set first"
            ),
            Self::DimsConflict {
                fingerprint,
                stored,
                requested,
            } => write!(
                f,
                "embedding set {fingerprint:?} holds {stored}-dimensional vectors, not \
                 {requested}; a model with another dimension needs its own fingerprint"
            ),
            Self::InvalidVector {
                chunk_id: Some(chunk_id),
                reason,
            } => write!(f, "chunk {chunk_id}: {reason}"),
            Self::InvalidVector {
                chunk_id: None,
                reason,
            } => write!(f, "query: {reason}"),
            Self::CorruptVector { chunk_id, bytes } => write!(
                f,
                "the stored vector of chunk {chunk_id} has {bytes} bytes, not a whole vector; \
                 delete the embedding set and re-embed the vault"
            ),
            Self::InvalidK { k, max } => {
                write!(f, "k = {k} is out of range; ask for 1 to {max} neighbours")
            }
        }
    }
}

impl VectorStoreError {
    /// Wraps a refusal of the vector of `chunk_id` (`None`: the query).
    pub(super) fn invalid_vector(chunk_id: Option<i64>) -> impl Fn(MatrixError) -> Self {
        move |reason| Self::InvalidVector { chunk_id, reason }
    }
}

impl std::error::Error for VectorStoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Sqlite(e) => Some(e),
            Self::InvalidVector { reason, .. } => Some(reason),
            _ => None,
        }
    }
}

impl From<rusqlite::Error> for VectorStoreError {
    fn from(e: rusqlite::Error) -> Self {
        Self::Sqlite(e)
    }
}
