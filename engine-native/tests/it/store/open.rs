//! Opening cache.db: creation, migrations, reopening, refusing a newer schema.

use obsidian_tc::store::{IdempotencyPolicy, NoteMeta, SCHEMA_VERSION, Store, StoreError};
use rusqlite::Connection;
use serde_json::json;

use crate::support;

fn note(path: &str) -> NoteMeta {
    NoteMeta {
        path: path.to_owned(),
        sha256: "ab".repeat(32),
        mtime: 1_700_000_000_000,
        size: 42,
        frontmatter: json!({"tags": ["a"]}),
    }
}

#[test]
fn open_creates_parent_dirs_and_migrates_an_empty_file() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    assert!(path.is_file());
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);

    let conn = Connection::open(&path).unwrap();
    let mut tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master
                 WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    tables.sort();
    assert_eq!(
        tables,
        [
            "aliases",
            "capture_queue",
            "catalog_vectors",
            "chunks",
            "contradiction_scan",
            "contradictions",
            "elicit_tokens",
            "embedding_chunks",
            "embedding_secrets",
            "embedding_sets",
            "episode_paths",
            "episodes",
            "episodes_fts",
            "episodes_fts_config",
            "episodes_fts_data",
            "episodes_fts_docsize",
            "episodes_fts_idx",
            "event_log",
            "event_paths",
            "forget_log",
            "gap_passes",
            "gap_reports",
            "idempotency_keys",
            "index_failures",
            "index_state",
            "links",
            "note_quality",
            "notes",
            "retrieval_events",
            "retrieval_hits",
            "snapshots",
            "tags",
            "tasks"
        ]
    );
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    // Every table of vault data is scoped by vault_id (embedding_sets only names the embedding
    // models, and catalog_vectors holds the tool catalog's embeddings, both shared by every
    // vault and holding nothing of any vault; episode_paths and the episodes' full-text index
    // belong to an episode row, which is scoped, and go with it).
    for table in tables.iter().filter(|t| {
        !["embedding_sets", "catalog_vectors", "episode_paths"].contains(&t.as_str())
            && !t.starts_with("episodes_fts")
    }) {
        let has_vault: bool = conn
            .query_row(
                &format!(
                    "SELECT count(*) FROM pragma_table_info('{table}') WHERE name = 'vault_id'"
                ),
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert!(has_vault, "{table} has no vault_id");
    }
}

#[test]
fn reopening_keeps_data_and_does_not_migrate_again() {
    let (_dir, path) = support::store::db_path();
    support::store::open(&path)
        .notes()
        .upsert("main", &note("a.md"))
        .unwrap();
    let store = support::store::open(&path);
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(
        store.notes().get("main", "a.md").unwrap(),
        Some(note("a.md"))
    );
}

/// Processes started together (two MCP clients launching the server, racing `obsidian-tc call`s)
/// all open one new `cache.db`: none may fail with "database is locked". Threads of one process
/// take the same file locks, so they stand in for the processes here.
#[test]
fn a_new_file_opened_by_many_at_once_opens_for_every_one() {
    const OPENERS: usize = 8;
    for _round in 0..40 {
        let (_dir, path) = support::store::db_path();
        let barrier = std::sync::Barrier::new(OPENERS);
        let results: Vec<Result<Store, StoreError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..OPENERS)
                .map(|_| {
                    scope.spawn(|| {
                        barrier.wait();
                        Store::open(&path, IdempotencyPolicy::default())
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("thread"))
                .collect()
        });
        for result in results {
            let store = result.expect("every opener gets the store");
            assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        }
    }
}

#[test]
fn a_newer_schema_is_refused_and_left_untouched() {
    let (_dir, path) = support::store::db_path();
    support::store::open(&path)
        .notes()
        .upsert("main", &note("a.md"))
        .unwrap();
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .unwrap();

    let err = Store::open(&path, IdempotencyPolicy::default()).unwrap_err();
    match &err {
        StoreError::NewerSchema { found, supported } => {
            assert_eq!(*found, SCHEMA_VERSION + 1);
            assert_eq!(*supported, SCHEMA_VERSION);
        }
        other => panic!("expected NewerSchema, got {other:?}"),
    }
    assert!(err.to_string().contains("upgrade obsidian-tc"));

    let conn = Connection::open(&path).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION + 1);
    let notes: i64 = conn
        .query_row("SELECT count(*) FROM notes", [], |r| r.get(0))
        .unwrap();
    assert_eq!(notes, 1);
}

#[test]
fn an_invalid_policy_is_refused_before_the_file_is_created() {
    let (_dir, path) = support::store::db_path();
    let policy = IdempotencyPolicy {
        ttl_seconds: 86_400,
        reclaim_seconds: 0,
    };
    let err = Store::open(&path, policy).unwrap_err();
    assert!(matches!(err, StoreError::InvalidTtl { ttl_seconds: 0 }));
    assert!(!path.exists());
}

#[test]
fn an_uncreatable_cache_dir_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, b"not a dir").unwrap();
    let err = Store::open(&blocker.join("cache.db"), IdempotencyPolicy::default()).unwrap_err();
    assert!(matches!(err, StoreError::CreateDir { .. }), "{err:?}");
    assert!(err.to_string().contains("writable cache directory"));
}
