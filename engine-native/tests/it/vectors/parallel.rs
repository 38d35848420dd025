//! The exact scan split over threads returns exactly what the sequential scan returns: the
//! same ids, scores and order, ties by smaller chunk id, with the note filter applied before
//! ranking, for any matrix, any filter, any k and any number of threads.

use obsidian_tc::vectors::{NoteFilter, VectorMatrix};
use proptest::prelude::*;

use crate::support::vectors::brute_force;
use crate::support::vectors::random::Rng;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Coarse values force ties everywhere; chunk ids are arbitrary (upserts may replace).
    #[test]
    fn every_split_equals_the_sequential_scan(
        rows in prop::collection::vec((0i64..400, 0u32..20, prop::collection::vec(-2i8..=2, 4)), 0..300),
        query in prop::collection::vec(-2i8..=2, 4),
        allowed in prop::option::of(prop::collection::vec(0u32..20, 0..20)),
        k in 0usize..40,
        threads in 1usize..9,
    ) {
        let mut matrix = VectorMatrix::new(4).unwrap();
        for (chunk_id, note_key, v) in &rows {
            let v: Vec<f32> = v.iter().map(|&x| f32::from(x)).collect();
            matrix.upsert(*chunk_id, *note_key, &v).unwrap();
        }
        let filter = allowed.map_or_else(NoteFilter::all, NoteFilter::from_keys);
        let query: Vec<f32> = query.iter().map(|&x| f32::from(x)).collect();
        let sequential = matrix.top_k_on(&query, k, &filter, 1).unwrap();
        let split = matrix.top_k_on(&query, k, &filter, threads).unwrap();
        prop_assert_eq!(&split, &sequential);
        prop_assert_eq!(&split, &brute_force(&matrix, &query, k, &filter));
        prop_assert_eq!(&matrix.top_k(&query, k, &filter).unwrap(), &sequential);
    }
}

#[test]
fn a_large_matrix_scanned_on_threads_equals_the_sequential_scan() {
    // Large enough that `top_k` itself splits it (more than 2^20 floats per thread for two).
    let dims = 64;
    let mut rng = Rng::new(9);
    let mut matrix = VectorMatrix::new(dims).unwrap();
    // Few distinct vectors, so scores tie across the split points.
    let basis: Vec<Vec<f32>> = (0..16).map(|_| rng.unit_vector(dims)).collect();
    for i in 0..40_000i64 {
        let chunk_id = (i * 7919) % 40_009;
        let note = rng.below(500) as u32;
        matrix
            .upsert(chunk_id, note, &basis[rng.below(basis.len())])
            .unwrap();
    }
    let filter = NoteFilter::from_keys((0..500).filter(|n| n % 3 != 0));
    for _ in 0..5 {
        let query = rng.unit_vector(dims);
        for k in [1, 10, 500] {
            let sequential = matrix.top_k_on(&query, k, &filter, 1).unwrap();
            assert_eq!(matrix.top_k(&query, k, &filter).unwrap(), sequential);
            for threads in [2, 3, 7] {
                assert_eq!(
                    matrix.top_k_on(&query, k, &filter, threads).unwrap(),
                    sequential
                );
            }
            assert_eq!(sequential, brute_force(&matrix, &query, k, &filter));
        }
    }
}

#[test]
fn an_overflowing_row_is_the_same_error_on_every_split() {
    let mut matrix = VectorMatrix::new(1).unwrap();
    for i in 0..100i64 {
        // Rows 40 and 70 overflow against a huge query; 40 comes first in row order.
        let value = if i == 40 || i == 70 { f32::MAX } else { 1.0 };
        matrix.upsert(1000 - i, 0, &[value]).unwrap();
    }
    let query = [f32::MAX];
    let sequential = matrix
        .top_k_on(&query, 5, &NoteFilter::all(), 1)
        .unwrap_err();
    for threads in 2..6 {
        assert_eq!(
            matrix
                .top_k_on(&query, 5, &NoteFilter::all(), threads)
                .unwrap_err(),
            sequential
        );
    }
}
