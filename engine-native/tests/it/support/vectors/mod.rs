//! Shared helpers of the vector tests: seeded random data, and the brute-force ranking the
//! scan must equal.
#![allow(dead_code)]

pub mod random;

use obsidian_tc::vectors::{NoteFilter, VectorMatrix};

/// The reference ranking: score every allowed row with engine-core's dot product, sort by
/// score (highest first) then chunk id (smallest first), keep `k`.
pub fn brute_force(
    matrix: &VectorMatrix,
    query: &[f32],
    k: usize,
    allowed: &NoteFilter,
) -> Vec<(i64, f32)> {
    let mut all: Vec<(i64, f32)> = matrix
        .rows()
        .chunks_exact(matrix.dims())
        .zip(matrix.chunk_ids())
        .zip(matrix.note_keys())
        .filter(|(_, key)| allowed.allows(**key))
        .map(|((row, id), _)| {
            let score = engine_core::rank::dot(query, row).expect("finite score");
            (*id, score)
        })
        .collect();
    all.sort_by(|a, b| b.1.partial_cmp(&a.1).expect("no NaN").then(a.0.cmp(&b.0)));
    all.truncate(k);
    all
}
