//! The [`EmbeddingProvider`] trait and the batching every provider shares.

use crate::embed::error::EmbedError;
use crate::embed::fingerprint::EmbeddingFingerprint;
use crate::embed::vector::l2_normalize;

/// What a text is embedded as: some providers encode search queries differently from the
/// documents searched (voyage `input_type`, cohere `search_query`/`search_document`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EmbedKind {
    /// A search query.
    Query,
    /// A chunk of a note, to be searched.
    Document,
}

/// Something that turns texts into L2-normalised vectors of one embedding space. Blocking:
/// call it from a blocking thread (`tokio::task::spawn_blocking`), never from async code.
pub trait EmbeddingProvider: Send + Sync {
    /// The embedding space of every vector this provider returns.
    fn fingerprint(&self) -> &EmbeddingFingerprint;

    /// The most texts sent to the model in one request; [`EmbeddingProvider::embed`] splits
    /// longer lists itself.
    fn max_batch(&self) -> usize;

    /// One vector per text, in order, each of `fingerprint().dimensions` values and unit
    /// length.
    fn embed(&self, texts: &[&str], kind: EmbedKind) -> Result<Vec<Vec<f32>>, EmbedError>;

    /// What runs an in-process model and why that engine, e.g. `onnx (ONNX Runtime 1.32 from
    /// …)` or `candle (…; ONNX Runtime not used: …)`; `None` for remote providers.
    fn engine(&self) -> Option<&str> {
        None
    }
}

/// Embeds `texts` in batches of at most `max_batch` with `embed_batch`, each batch's vectors
/// [`checked_batch`].
pub(crate) fn embed_in_batches(
    fingerprint: &EmbeddingFingerprint,
    provider: &'static str,
    max_batch: usize,
    texts: &[&str],
    mut embed_batch: impl FnMut(&[&str]) -> Result<Vec<Vec<f32>>, EmbedError>,
) -> Result<Vec<Vec<f32>>, EmbedError> {
    let mut out = Vec::with_capacity(texts.len());
    for batch in texts.chunks(max_batch.max(1)) {
        out.extend(checked_batch(
            fingerprint,
            provider,
            batch.len(),
            embed_batch(batch)?,
        )?);
    }
    Ok(out)
}

/// The `vectors` `provider` answered for a batch of `texts` texts, checked to be one vector
/// of `fingerprint.dimensions` values per text and L2-normalised. An all-zero vector
/// (nothing to normalise) is refused: it would match nothing.
pub(crate) fn checked_batch(
    fingerprint: &EmbeddingFingerprint,
    provider: &'static str,
    texts: usize,
    vectors: Vec<Vec<f32>>,
) -> Result<Vec<Vec<f32>>, EmbedError> {
    if vectors.len() != texts {
        return Err(EmbedError::bad_response(
            provider,
            format!("{} vectors for {texts} texts", vectors.len()),
        ));
    }
    vectors
        .into_iter()
        .map(|mut vector| {
            if vector.len() != fingerprint.dimensions {
                return Err(EmbedError::bad_response(
                    provider,
                    format!(
                        "a vector of {} values where {} were expected (set embeddings.dimensions to the model's size, or drop it to use the model's own)",
                        vector.len(),
                        fingerprint.dimensions
                    ),
                ));
            }
            if !l2_normalize(&mut vector) {
                return Err(EmbedError::bad_response(
                    provider,
                    "a vector of zeros or non-finite values",
                ));
            }
            Ok(vector)
        })
        .collect()
}
