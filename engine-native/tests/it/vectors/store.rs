//! The persisted vectors on a real `cache.db`: round trip through sqlite-vec, deletes by chunk
//! and by vault, embedding sets kept apart, refused batches writing nothing, and sqlite-vec's
//! KNN agreeing with the in-memory scan.

use obsidian_tc::store::SCHEMA_VERSION;
use obsidian_tc::vectors::{
    MatrixError, NoteFilter, VectorMatrix, VectorRow, VectorStore, VectorStoreError,
};

use crate::support;
use crate::support::vectors::random::Rng;

const SET: &str = "fastembed/all-MiniLM-L6-v2/384/mean";

/// Owned rows: `(chunk_id, vault, note_key, vector)`.
type Owned = Vec<(i64, String, u32, Vec<f32>)>;

fn random_rows(rng: &mut Rng, ids: std::ops::Range<i64>, vault: &str, dims: usize) -> Owned {
    ids.map(|id| (id, vault.to_owned(), (id / 3) as u32, rng.unit_vector(dims)))
        .collect()
}

fn borrow(rows: &Owned) -> Vec<VectorRow<'_>> {
    rows.iter()
        .map(|(chunk_id, vault, note_key, vector)| VectorRow {
            chunk_id: *chunk_id,
            vault_id: vault,
            note_key: *note_key,
            vector,
        })
        .collect()
}

/// The matrix the rows should load as: upserted in chunk-id order.
fn expected_matrix(dims: usize, rows: &Owned) -> VectorMatrix {
    let mut sorted = rows.clone();
    sorted.sort_by_key(|r| r.0);
    let mut matrix = VectorMatrix::new(dims).unwrap();
    for (chunk_id, _, note_key, vector) in &sorted {
        matrix.upsert(*chunk_id, *note_key, vector).unwrap();
    }
    matrix
}

#[test]
fn put_then_load_gives_the_identical_matrix_and_survives_reopen() {
    let (_dir, path) = support::store::db_path();
    let mut rng = Rng::new(10);
    let mut rows = random_rows(&mut rng, 0..300, "work", 384);
    rows.reverse(); // stored out of order
    {
        let store = support::store::open(&path);
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        let vectors = VectorStore::new(&store);
        let set = vectors.ensure_set(SET, 384).unwrap();
        assert_eq!((set.fingerprint.as_str(), set.dims), (SET, 384));
        assert_eq!(vectors.ensure_set(SET, 384).unwrap(), set, "idempotent");
        vectors.put_batch(SET, &borrow(&rows)).unwrap();
        assert_eq!(
            vectors.load(SET).unwrap(),
            Some(expected_matrix(384, &rows))
        );
    }
    let store = support::store::open(&path);
    let vectors = VectorStore::new(&store);
    let loaded = vectors.load(SET).unwrap().expect("the set is still there");
    assert_eq!(loaded, expected_matrix(384, &rows));
    assert_eq!(loaded.chunk_ids()[..3], [0, 1, 2], "ordered by chunk id");
}

#[test]
fn put_replaces_a_chunks_vector_vault_and_note() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let vectors = VectorStore::new(&store);
    vectors.ensure_set(SET, 4).unwrap();
    let first = vec![(1, "a".to_owned(), 1, vec![1.0, 0.0, 0.0, 0.0])];
    vectors.put_batch(SET, &borrow(&first)).unwrap();
    let second = vec![
        (1, "b".to_owned(), 2, vec![0.0, 1.0, 0.0, 0.0]),
        (2, "b".to_owned(), 2, vec![0.0, 0.0, 1.0, 0.0]),
        (2, "b".to_owned(), 3, vec![0.0, 0.0, 0.0, 1.0]), // listed twice: the last wins
    ];
    vectors.put_batch(SET, &borrow(&second)).unwrap();
    let loaded = vectors.load(SET).unwrap().unwrap();
    assert_eq!(loaded.chunk_ids(), [1, 2]);
    assert_eq!(loaded.note_keys(), [2, 3]);
    assert_eq!(loaded.vector(1), Some(&[0.0, 1.0, 0.0, 0.0][..]));
    assert_eq!(loaded.vector(2), Some(&[0.0, 0.0, 0.0, 1.0][..]));
    // Vault a no longer owns chunk 1.
    assert_eq!(vectors.delete_vault(SET, "a").unwrap(), 0);
    assert_eq!(vectors.delete_vault(SET, "b").unwrap(), 2);
}

#[test]
fn delete_chunks_and_delete_vault_remove_exactly_their_rows() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let vectors = VectorStore::new(&store);
    vectors.ensure_set(SET, 16).unwrap();
    let mut rng = Rng::new(11);
    let mut rows = random_rows(&mut rng, 0..50, "a", 16);
    rows.extend(random_rows(&mut rng, 50..80, "b", 16));
    vectors.put_batch(SET, &borrow(&rows)).unwrap();

    assert_eq!(
        vectors.delete_chunks(SET, &[3, 4, 60, 999]).unwrap(),
        3,
        "999 was never stored"
    );
    rows.retain(|r| ![3, 4, 60].contains(&r.0));
    assert_eq!(vectors.load(SET).unwrap(), Some(expected_matrix(16, &rows)));

    assert_eq!(vectors.delete_vault(SET, "a").unwrap(), 48);
    rows.retain(|r| r.1 != "a");
    let loaded = vectors.load(SET).unwrap().unwrap();
    assert_eq!(loaded, expected_matrix(16, &rows));
    assert_eq!(loaded.len(), 29);
    // The vec0 table lost them too: its KNN only finds vault b's chunks.
    let found = vectors
        .knn_sqlite_vec(SET, &rng.unit_vector(16), 100)
        .unwrap();
    assert_eq!(found.len(), 29);
    assert!(
        found
            .iter()
            .all(|(id, _)| (50..80).contains(id) && *id != 60)
    );
    assert_eq!(vectors.delete_vault(SET, "a").unwrap(), 0);
    assert_eq!(vectors.delete_chunks("no such set", &[51]).unwrap(), 0);
}

#[test]
fn embedding_sets_never_mix_even_with_the_same_chunk_ids() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let vectors = VectorStore::new(&store);
    let other = "ollama/nomic-embed-text/768/mean";
    vectors.ensure_set(SET, 384).unwrap();
    vectors.ensure_set(other, 8).unwrap();
    let mut rng = Rng::new(12);
    let big = random_rows(&mut rng, 0..20, "v", 384);
    let small = random_rows(&mut rng, 0..20, "v", 8);
    vectors.put_batch(SET, &borrow(&big)).unwrap();
    vectors.put_batch(other, &borrow(&small)).unwrap();

    assert_eq!(vectors.load(SET).unwrap(), Some(expected_matrix(384, &big)));
    assert_eq!(
        vectors.load(other).unwrap(),
        Some(expected_matrix(8, &small))
    );

    assert_eq!(vectors.delete_chunks(other, &[0, 1]).unwrap(), 2);
    assert_eq!(vectors.delete_vault(other, "v").unwrap(), 18);
    assert_eq!(vectors.load(other).unwrap().unwrap().len(), 0);
    assert_eq!(
        vectors.load(SET).unwrap(),
        Some(expected_matrix(384, &big)),
        "the first set is untouched"
    );

    assert!(vectors.delete_set(other).unwrap());
    assert!(!vectors.delete_set(other).unwrap());
    assert_eq!(vectors.load(other).unwrap(), None);
    assert_eq!(vectors.set(other).unwrap(), None);
    assert_eq!(vectors.load(SET).unwrap().unwrap().len(), 20);
}

#[test]
fn refused_input_is_typed_and_writes_nothing() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let vectors = VectorStore::new(&store);
    assert!(matches!(
        vectors.ensure_set("", 4),
        Err(VectorStoreError::EmptyFingerprint)
    ));
    assert!(matches!(
        vectors.ensure_set(SET, 0),
        Err(VectorStoreError::InvalidDims { dims: 0, .. })
    ));
    assert!(matches!(
        vectors.ensure_set(SET, 100_000),
        Err(VectorStoreError::InvalidDims { .. })
    ));
    assert_eq!(vectors.set(SET).unwrap(), None);
    assert_eq!(vectors.load(SET).unwrap(), None);
    let rows = vec![(1, "v".to_owned(), 0, vec![1.0, 0.0, 0.0, 0.0])];
    assert!(matches!(
        vectors.put_batch(SET, &borrow(&rows)),
        Err(VectorStoreError::UnknownSet { .. })
    ));

    vectors.ensure_set(SET, 4).unwrap();
    let err = vectors.ensure_set(SET, 8).unwrap_err();
    assert!(matches!(
        err,
        VectorStoreError::DimsConflict {
            stored: 4,
            requested: 8,
            ..
        }
    ));
    assert!(err.to_string().contains("its own fingerprint"));

    // One bad row refuses the batch: the good row before it is not written either.
    let batch = vec![
        (1, "v".to_owned(), 0, vec![1.0, 0.0, 0.0, 0.0]),
        (2, "v".to_owned(), 0, vec![1.0, 0.0, 0.0]),
    ];
    assert!(matches!(
        vectors.put_batch(SET, &borrow(&batch)),
        Err(VectorStoreError::InvalidVector {
            chunk_id: Some(2),
            reason: MatrixError::WrongLength {
                expected: 4,
                found: 3
            }
        })
    ));
    let nan = vec![(3, "v".to_owned(), 0, vec![f32::NAN, 0.0, 0.0, 0.0])];
    assert!(matches!(
        vectors.put_batch(SET, &borrow(&nan)),
        Err(VectorStoreError::InvalidVector {
            chunk_id: Some(3),
            reason: MatrixError::NonFinite { index: 0 }
        })
    ));
    assert_eq!(vectors.load(SET).unwrap().unwrap().len(), 0);

    assert!(matches!(
        vectors.knn_sqlite_vec(SET, &[1.0, 0.0, 0.0, 0.0], 0),
        Err(VectorStoreError::InvalidK { k: 0, .. })
    ));
    assert!(matches!(
        vectors.knn_sqlite_vec(SET, &[1.0, 0.0], 1),
        Err(VectorStoreError::InvalidVector { chunk_id: None, .. })
    ));
    assert!(matches!(
        vectors.knn_sqlite_vec("missing", &[1.0], 1),
        Err(VectorStoreError::UnknownSet { .. })
    ));
}

#[test]
fn sqlite_vec_knn_agrees_with_top_k_on_unit_vectors() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let vectors = VectorStore::new(&store);
    vectors.ensure_set(SET, 64).unwrap();
    let mut rng = Rng::new(13);
    let rows = random_rows(&mut rng, 0..3000, "v", 64);
    vectors.put_batch(SET, &borrow(&rows)).unwrap();
    let matrix = vectors.load(SET).unwrap().unwrap();
    for _ in 0..20 {
        let query = rng.unit_vector(64);
        let knn = vectors.knn_sqlite_vec(SET, &query, 10).unwrap();
        let top = matrix.top_k(&query, 10, &NoteFilter::all()).unwrap();
        let knn_ids: Vec<i64> = knn.iter().map(|r| r.0).collect();
        let top_ids: Vec<i64> = top.iter().map(|r| r.0).collect();
        assert_eq!(knn_ids, top_ids);
        for ((_, distance), (_, score)) in knn.iter().zip(&top) {
            // |a - b|² = 2 - 2 a·b for unit vectors.
            assert!((distance * distance - (2.0 - 2.0 * score)).abs() < 1e-4);
        }
    }
}
