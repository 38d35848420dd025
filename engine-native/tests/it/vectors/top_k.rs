//! The exact scan over the in-memory matrix: equal to a brute-force sort, ties by chunk id,
//! the note filter applied before ranking, upsert and swap-remove keeping rows consistent.

use obsidian_tc::vectors::{MatrixError, NoteFilter, VectorMatrix};
use proptest::prelude::*;

use crate::support::vectors::brute_force;
use crate::support::vectors::random::Rng;

/// `n` rows of random unit vectors; chunk ids are scattered (not row order), note keys
/// `0..notes`.
fn random_matrix(rng: &mut Rng, n: usize, dims: usize, notes: u32) -> VectorMatrix {
    let mut matrix = VectorMatrix::new(dims).unwrap();
    for i in 0..n {
        let chunk_id = (i as i64 * 7919) % 100_003;
        let note_key = (rng.below(notes as usize)) as u32;
        matrix
            .upsert(chunk_id, note_key, &rng.unit_vector(dims))
            .unwrap();
    }
    matrix
}

#[test]
fn top_k_equals_the_brute_force_ranking() {
    let mut rng = Rng::new(1);
    let matrix = random_matrix(&mut rng, 2000, 48, 300);
    for _ in 0..20 {
        let query = rng.unit_vector(48);
        for k in [1, 10, 100] {
            let got = matrix.top_k(&query, k, &NoteFilter::all()).unwrap();
            assert_eq!(got, brute_force(&matrix, &query, k, &NoteFilter::all()));
            assert_eq!(got.len(), k);
        }
    }
}

#[test]
fn equal_scores_rank_by_smaller_chunk_id() {
    // Only four distinct vectors: hundreds of rows share each score.
    let basis: [[f32; 4]; 4] = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.6, 0.8, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
    ];
    let mut rng = Rng::new(2);
    let mut matrix = VectorMatrix::new(4).unwrap();
    for i in 0..1000i64 {
        let chunk_id = (i * 613) % 1009; // distinct, out of order
        matrix
            .upsert(chunk_id, 0, &basis[rng.below(basis.len())])
            .unwrap();
    }
    let query = [0.8, 0.6, 0.0, 0.0];
    for k in [1, 7, 250, 400, 1000] {
        let got = matrix.top_k(&query, k, &NoteFilter::all()).unwrap();
        assert_eq!(got, brute_force(&matrix, &query, k, &NoteFilter::all()));
    }
    let top = matrix.top_k(&query, 5, &NoteFilter::all()).unwrap();
    assert!(top.windows(2).all(|w| w[0].1 == w[1].1 && w[0].0 < w[1].0));
}

/// A 3-dimensional matrix of `rows` (chunk id, note key, small integer vector) and `query`
/// as floats.
fn coarse(rows: &[(i64, u32, Vec<i8>)], query: &[i8]) -> (VectorMatrix, Vec<f32>) {
    let floats = |v: &[i8]| -> Vec<f32> { v.iter().map(|&x| f32::from(x)).collect() };
    let mut matrix = VectorMatrix::new(3).unwrap();
    for (chunk_id, note_key, v) in rows {
        matrix.upsert(*chunk_id, *note_key, &floats(v)).unwrap();
    }
    (matrix, floats(query))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any small matrix with coarse values (ties everywhere), any filter, any k.
    #[test]
    fn top_k_matches_brute_force_on_arbitrary_input(
        rows in prop::collection::vec((0i64..60, 0u32..12, prop::collection::vec(-2i8..=2, 3)), 0..60),
        query in prop::collection::vec(-2i8..=2, 3),
        allowed in prop::collection::vec(0u32..12, 0..12),
        k in 0usize..70,
    ) {
        let (matrix, query) = coarse(&rows, &query);
        let filter = NoteFilter::from_keys(allowed.iter().copied());
        prop_assert_eq!(
            matrix.top_k(&query, k, &filter).unwrap(),
            brute_force(&matrix, &query, k, &filter)
        );
    }

    /// Deciding notes lazily (only the first candidates', then all when too few pass)
    /// gives exactly the ranking filtered first, whatever share of notes is accepted:
    /// matrices larger than the first candidate window, so both paths run.
    #[test]
    fn deciding_lazily_equals_filtering_first(
        rows in prop::collection::vec((0i64..2000, 0u32..40, prop::collection::vec(-2i8..=2, 3)), 0..400),
        query in prop::collection::vec(-2i8..=2, 3),
        scope in prop::collection::vec(0u32..40, 0..40),
        accepted in prop::collection::vec(0u32..40, 0..40),
        k in 0usize..30,
    ) {
        let (matrix, query) = coarse(&rows, &query);
        let scope_filter = NoteFilter::from_keys(scope.iter().copied());
        let both = NoteFilter::from_keys(scope.iter().copied().filter(|key| accepted.contains(key)));
        let asked = std::cell::Cell::new(0usize);
        let lazily = matrix
            .top_k_deciding(&query, k, &scope_filter, &|key| {
                asked.set(asked.get() + 1);
                accepted.contains(&key)
            })
            .unwrap();
        prop_assert_eq!(lazily, matrix.top_k(&query, k, &both).unwrap());
        // Each note is asked about at most once.
        prop_assert!(asked.get() <= 40);
    }
}

#[test]
fn the_filter_applies_before_top_k_so_results_never_under_fill() {
    let mut rng = Rng::new(3);
    let matrix = random_matrix(&mut rng, 5000, 32, 1000);
    // 2% of the notes are visible.
    let visible: Vec<u32> = (0..1000).filter(|k| k % 50 == 7).collect();
    let filter = NoteFilter::from_keys(visible.iter().copied());
    let visible_rows = matrix
        .note_keys()
        .iter()
        .filter(|k| filter.allows(**k))
        .count();
    assert!(visible_rows >= 10, "the data has at least k visible rows");
    for _ in 0..10 {
        let query = rng.unit_vector(32);
        let got = matrix.top_k(&query, 10, &filter).unwrap();
        assert_eq!(got.len(), 10, "k allowed results come back");
        assert_eq!(got, brute_force(&matrix, &query, 10, &filter));
        for (chunk_id, _) in &got {
            let row = matrix
                .chunk_ids()
                .iter()
                .position(|c| c == chunk_id)
                .unwrap();
            assert!(filter.allows(matrix.note_keys()[row]));
        }
    }
}

#[test]
fn a_hidden_row_never_appears_even_as_the_best_match() {
    let mut rng = Rng::new(4);
    let mut matrix = random_matrix(&mut rng, 500, 16, 50);
    let secret = rng.unit_vector(16);
    matrix.upsert(-1, 999, &secret).unwrap(); // note 999: hidden
    let filter = NoteFilter::from_keys(0..50);

    let open = matrix.top_k(&secret, 10, &NoteFilter::all()).unwrap();
    assert_eq!(
        open[0].0, -1,
        "unfiltered, the secret row is the best match"
    );

    let filtered = matrix.top_k(&secret, 10, &filter).unwrap();
    assert_eq!(filtered.len(), 10);
    assert!(filtered.iter().all(|(id, _)| *id != -1));
    assert_eq!(filtered, brute_force(&matrix, &secret, 10, &filter));
    assert!(
        matrix
            .top_k(&secret, 10, &NoteFilter::none())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn empty_matrix_zero_k_and_k_beyond_the_rows() {
    let empty = VectorMatrix::new(4).unwrap();
    assert!(
        empty
            .top_k(&[1.0, 0.0, 0.0, 0.0], 10, &NoteFilter::all())
            .unwrap()
            .is_empty()
    );

    let mut rng = Rng::new(5);
    let matrix = random_matrix(&mut rng, 7, 4, 3);
    let query = rng.unit_vector(4);
    assert!(
        matrix
            .top_k(&query, 0, &NoteFilter::all())
            .unwrap()
            .is_empty()
    );
    let all = matrix
        .top_k(&query, usize::MAX, &NoteFilter::all())
        .unwrap();
    assert_eq!(all.len(), 7);
    assert_eq!(all, brute_force(&matrix, &query, 7, &NoteFilter::all()));
}

#[test]
fn refused_vectors_and_queries_change_nothing() {
    assert_eq!(VectorMatrix::new(0), Err(MatrixError::ZeroDims));
    let mut matrix = VectorMatrix::new(3).unwrap();
    matrix.upsert(1, 0, &[1.0, 0.0, 0.0]).unwrap();
    let before = matrix.clone();
    assert_eq!(
        matrix.upsert(2, 0, &[1.0, 0.0]),
        Err(MatrixError::WrongLength {
            expected: 3,
            found: 2
        })
    );
    assert_eq!(
        matrix.upsert(1, 0, &[1.0, f32::NAN, 0.0]),
        Err(MatrixError::NonFinite { index: 1 })
    );
    assert_eq!(matrix, before);
    assert_eq!(
        matrix.top_k(&[1.0; 4], 1, &NoteFilter::all()),
        Err(MatrixError::WrongLength {
            expected: 3,
            found: 4
        })
    );
    assert_eq!(
        matrix.top_k(&[f32::INFINITY, 0.0, 0.0], 1, &NoteFilter::all()),
        Err(MatrixError::NonFinite { index: 0 })
    );
    matrix.upsert(2, 0, &[3e38, 0.0, 0.0]).unwrap();
    assert_eq!(
        matrix.top_k(&[3e38, 0.0, 0.0], 1, &NoteFilter::all()),
        Err(MatrixError::ScoreOverflow { chunk_id: 2 })
    );
}

#[test]
fn upsert_replaces_and_swap_remove_keeps_rows_contiguous() {
    let mut rng = Rng::new(6);
    let mut matrix = VectorMatrix::new(8).unwrap();
    let vectors: Vec<Vec<f32>> = (0..10).map(|_| rng.unit_vector(8)).collect();
    for (i, v) in vectors.iter().enumerate() {
        matrix.upsert(i as i64, i as u32, v).unwrap();
    }
    let replacement = rng.unit_vector(8);
    matrix.upsert(4, 40, &replacement).unwrap();
    assert_eq!(matrix.len(), 10, "a replaced chunk keeps one row");
    assert_eq!(matrix.vector(4), Some(&replacement[..]));

    assert!(matrix.remove(2));
    assert!(!matrix.remove(2), "removing twice finds nothing");
    assert!(matrix.remove(9)); // the last row
    assert!(!matrix.remove(77));
    assert_eq!(matrix.len(), 8);
    assert_eq!(matrix.rows().len(), 8 * 8);
    assert_eq!(matrix.vector(2), None);
    for (i, v) in vectors.iter().enumerate() {
        let expected = match i {
            2 | 9 => None,
            4 => Some(&replacement[..]),
            _ => Some(&v[..]),
        };
        assert_eq!(matrix.vector(i as i64), expected, "chunk {i}");
    }
    // Row i of the buffer still belongs to chunk_ids[i] and note_keys[i].
    for (row, (&chunk_id, &key)) in matrix
        .rows()
        .chunks_exact(8)
        .zip(matrix.chunk_ids().iter().zip(matrix.note_keys()))
    {
        assert_eq!(Some(row), matrix.vector(chunk_id));
        assert_eq!(key, if chunk_id == 4 { 40 } else { chunk_id as u32 });
    }
    assert!(matrix.memory_bytes() >= 8 * 8 * 4);
}
