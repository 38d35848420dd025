//! Vectors as SQLite blobs: little-endian `f32`s, the format sqlite-vec's `float[N]` reads.

use super::VectorStoreError;

/// The bytes of `vector` as little-endian `f32`s.
pub(super) fn encode(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Replaces `out` with the `dims` `f32`s of `bytes`, stored for `chunk_id`; refuses a blob of
/// another length.
pub(super) fn decode_into(
    bytes: &[u8],
    dims: usize,
    chunk_id: i64,
    out: &mut Vec<f32>,
) -> Result<(), VectorStoreError> {
    if bytes.len() != dims * size_of::<f32>() {
        return Err(VectorStoreError::CorruptVector {
            chunk_id,
            bytes: bytes.len(),
        });
    }
    out.clear();
    out.extend(
        bytes
            .chunks_exact(size_of::<f32>())
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
    );
    Ok(())
}
