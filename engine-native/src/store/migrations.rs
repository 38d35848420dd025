//! Versioned schema migrations, tracked in SQLite's `user_version`.
//!
//! Steps are append-only: a released step is never edited, a change is a new step. Each pending
//! step runs in one `IMMEDIATE` transaction together with the bump of `user_version`, so a
//! crash leaves the file at the previous version and two processes never migrate at once.

use rusqlite::{Connection, TransactionBehavior};

use super::StoreError;

/// One step of the schema: applied when the file's version is below `version`.
struct Migration {
    version: i64,
    sql: &'static str,
}

/// Every step, in order. Version numbers are consecutive from 1.
const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        sql: r#"
CREATE TABLE notes (
    vault_id         TEXT    NOT NULL,
    path             TEXT    NOT NULL,
    sha256           TEXT    NOT NULL,
    mtime            INTEGER NOT NULL,
    size             INTEGER NOT NULL,
    frontmatter_json TEXT    NOT NULL,
    PRIMARY KEY (vault_id, path)
) WITHOUT ROWID;

CREATE TABLE idempotency_keys (
    vault_id     TEXT    NOT NULL,
    key          TEXT    NOT NULL,
    tool_name    TEXT    NOT NULL,
    args_hash    TEXT    NOT NULL,
    state        TEXT    NOT NULL CHECK (state IN ('in_flight', 'completed', 'indeterminate')),
    started_at   INTEGER NOT NULL,
    completed_at INTEGER,
    result       TEXT,
    result_size  INTEGER,
    expires_at   INTEGER NOT NULL,
    PRIMARY KEY (vault_id, key),
    CHECK (state <> 'completed' OR result IS NOT NULL)
);
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);

CREATE TABLE elicit_tokens (
    token                TEXT    PRIMARY KEY,
    vault_id             TEXT    NOT NULL,
    tool_name            TEXT    NOT NULL,
    args_hash            TEXT    NOT NULL,
    proposed_change_json TEXT    NOT NULL,
    caller               TEXT    NOT NULL,
    created_at           INTEGER NOT NULL,
    approved_at          INTEGER,
    expires_at           INTEGER NOT NULL,
    consumed_at          INTEGER
);
CREATE INDEX elicit_tokens_binding ON elicit_tokens (args_hash, vault_id, caller);
CREATE INDEX elicit_tokens_expires_at ON elicit_tokens (expires_at);

CREATE TABLE event_log (
    id           INTEGER PRIMARY KEY,
    vault_id     TEXT    NOT NULL,
    ts           INTEGER NOT NULL,
    tool         TEXT    NOT NULL,
    caller       TEXT    NOT NULL,
    outcome      TEXT    NOT NULL CHECK (outcome IN ('ok', 'error')),
    code         TEXT,
    duration_ms  INTEGER NOT NULL,
    args_hash    TEXT    NOT NULL,
    details_json TEXT    NOT NULL,
    CHECK ((outcome = 'ok') = (code IS NULL))
);
CREATE INDEX event_log_vault_id ON event_log (vault_id, id);
CREATE INDEX event_log_ts ON event_log (ts);
"#,
    },
    Migration {
        version: 2,
        sql: r#"
CREATE TABLE chunks (
    chunk_id      INTEGER PRIMARY KEY AUTOINCREMENT,
    vault_id      TEXT    NOT NULL,
    path          TEXT    NOT NULL,
    ordinal       INTEGER NOT NULL,
    headings_json TEXT    NOT NULL,
    text          TEXT    NOT NULL,
    start_byte    INTEGER NOT NULL,
    end_byte      INTEGER NOT NULL,
    UNIQUE (vault_id, path, ordinal)
);

CREATE TABLE links (
    vault_id    TEXT    NOT NULL,
    source_path TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('wikilink', 'embed', 'markdown', 'frontmatter')),
    target      TEXT    NOT NULL,
    subpath     TEXT,
    line        INTEGER NOT NULL
);
CREATE INDEX links_by_source ON links (vault_id, source_path);
CREATE INDEX links_by_target ON links (vault_id, target);

CREATE TABLE tags (
    vault_id TEXT NOT NULL,
    path     TEXT NOT NULL,
    tag      TEXT NOT NULL,
    PRIMARY KEY (vault_id, path, tag)
) WITHOUT ROWID;
CREATE INDEX tags_by_tag ON tags (vault_id, tag);

CREATE TABLE tasks (
    vault_id TEXT    NOT NULL,
    path     TEXT    NOT NULL,
    line     INTEGER NOT NULL,
    status   TEXT    NOT NULL,
    text     TEXT    NOT NULL,
    PRIMARY KEY (vault_id, path, line)
) WITHOUT ROWID;

CREATE TABLE aliases (
    vault_id TEXT NOT NULL,
    path     TEXT NOT NULL,
    alias    TEXT NOT NULL,
    PRIMARY KEY (vault_id, path, alias)
) WITHOUT ROWID;

CREATE TABLE index_failures (
    vault_id  TEXT    NOT NULL,
    path      TEXT    NOT NULL,
    stage     TEXT    NOT NULL,
    error     TEXT    NOT NULL,
    attempts  INTEGER NOT NULL,
    failed_at INTEGER NOT NULL,
    PRIMARY KEY (vault_id, path, stage)
) WITHOUT ROWID;

CREATE TABLE index_state (
    vault_id            TEXT    PRIMARY KEY,
    generation          INTEGER NOT NULL,
    snapshot            BLOB,
    snapshot_generation INTEGER
);
"#,
    },
    // Embedding vectors (crate::vectors). Each set's vectors live in a `vec_<set_id>` sqlite-vec
    // `vec0` table created when the set is, since vec0 fixes the dimension in its declaration.
    Migration {
        version: 3,
        sql: r#"
CREATE TABLE embedding_sets (
    set_id      INTEGER PRIMARY KEY,
    fingerprint TEXT    NOT NULL UNIQUE,
    dims        INTEGER NOT NULL CHECK (dims BETWEEN 1 AND 8192)
);

CREATE TABLE embedding_chunks (
    set_id   INTEGER NOT NULL REFERENCES embedding_sets (set_id) ON DELETE CASCADE,
    chunk_id INTEGER NOT NULL,
    vault_id TEXT    NOT NULL,
    note_key INTEGER NOT NULL CHECK (note_key BETWEEN 0 AND 4294967295),
    PRIMARY KEY (set_id, chunk_id)
) WITHOUT ROWID;
CREATE INDEX embedding_chunks_vault ON embedding_chunks (set_id, vault_id);

-- A chunk that goes takes its vectors' rows with it (chunk ids are never reused:
-- AUTOINCREMENT), so no vector outlives the text it was computed from.
CREATE TRIGGER chunk_vectors_go_with_the_chunk AFTER DELETE ON chunks
BEGIN
    DELETE FROM embedding_chunks WHERE chunk_id = OLD.chunk_id;
END;
"#,
    },
    // Snapshots (crate::store::snapshots): each file a tool call changed, as it was before,
    // so the change can be listed, read back and undone.
    Migration {
        version: 4,
        sql: r#"
CREATE TABLE snapshots (
    snapshot_id  INTEGER PRIMARY KEY AUTOINCREMENT,
    vault_id     TEXT    NOT NULL,
    change_id    TEXT    NOT NULL,
    caller       TEXT    NOT NULL,
    tool_name    TEXT    NOT NULL,
    path         TEXT    NOT NULL,
    existed      INTEGER NOT NULL CHECK (existed IN (0, 1)),
    content      BLOB,
    sha256       TEXT,
    after_sha256 TEXT,
    created_at   INTEGER NOT NULL,
    undone_at    INTEGER,
    CHECK (existed = 1 OR content IS NULL)
);
CREATE INDEX snapshots_by_path ON snapshots (vault_id, path, snapshot_id);
CREATE INDEX snapshots_by_caller ON snapshots (vault_id, caller, snapshot_id);
CREATE INDEX snapshots_by_change ON snapshots (change_id);
CREATE INDEX snapshots_by_age ON snapshots (created_at);
"#,
    },
    // Credentials found in chunks bound for a remote embedding provider (crate::content::secrets,
    // crate::vectors::secret_findings): the class and count per chunk, never the text; a
    // withheld chunk was not sent and is not pending.
    Migration {
        version: 5,
        sql: r#"
CREATE TABLE embedding_secrets (
    set_id   INTEGER NOT NULL REFERENCES embedding_sets (set_id) ON DELETE CASCADE,
    chunk_id INTEGER NOT NULL,
    vault_id TEXT    NOT NULL,
    class    TEXT    NOT NULL,
    found    INTEGER NOT NULL CHECK (found >= 1),
    withheld INTEGER NOT NULL CHECK (withheld IN (0, 1)),
    PRIMARY KEY (set_id, chunk_id, class)
) WITHOUT ROWID;
CREATE INDEX embedding_secrets_vault ON embedding_secrets (set_id, vault_id);

CREATE TRIGGER chunk_secrets_go_with_the_chunk AFTER DELETE ON chunks
BEGIN
    DELETE FROM embedding_secrets WHERE chunk_id = OLD.chunk_id;
END;
"#,
    },
    // The tool catalog's embeddings (crate::store::catalog_vectors): the latest catalog and
    // model only, so that find_capability does not embed the catalog again after a restart.
    Migration {
        version: 6,
        sql: r#"
CREATE TABLE catalog_vectors (
    catalog_key  BLOB PRIMARY KEY,
    vectors_json TEXT NOT NULL
);
"#,
    },
    // A note with no text past its frontmatter is now searched by one chunk of its own
    // (engine-core's `index_chunks`): the notes indexed without any chunk are read again at the
    // next scan (a stamp with no hash and a time before 1970 never matches the file's).
    Migration {
        version: 7,
        sql: r#"
UPDATE notes SET sha256 = '', mtime = -1
WHERE NOT EXISTS (
    SELECT 1 FROM chunks WHERE chunks.vault_id = notes.vault_id AND chunks.path = notes.path
);
"#,
    },
    // The capture queue (crate::store::capture_queue): content staged for filing later, per
    // vault, until a commit writes it to a note. One pending capture per content hash.
    // `IF NOT EXISTS`: a file whose version was set back (a test of an older build's cache)
    // runs this step again over its table.
    Migration {
        version: 8,
        sql: r#"
CREATE TABLE IF NOT EXISTS capture_queue (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT,
    capture_id       TEXT    NOT NULL UNIQUE,
    vault_id         TEXT    NOT NULL,
    caller           TEXT    NOT NULL,
    content          TEXT    NOT NULL,
    content_sha256   TEXT    NOT NULL,
    title            TEXT,
    suggested_path   TEXT,
    tags_json        TEXT    NOT NULL DEFAULT '[]',
    created_at       INTEGER NOT NULL,
    committed_at     INTEGER,
    committed_path   TEXT,
    committed_sha256 TEXT,
    CHECK ((committed_at IS NULL) = (committed_path IS NULL)),
    CHECK ((committed_at IS NULL) = (committed_sha256 IS NULL))
);
CREATE UNIQUE INDEX IF NOT EXISTS capture_queue_pending ON capture_queue (vault_id, content_sha256)
    WHERE committed_at IS NULL;
CREATE INDEX IF NOT EXISTS capture_queue_by_vault ON capture_queue (vault_id, seq);
"#,
    },
    // The vault paths each audited call named or changed (crate::store::events), for the audit
    // log's path-prefix filter; removed with their event row.
    Migration {
        version: 9,
        sql: r#"
CREATE TABLE IF NOT EXISTS event_paths (
    event_id INTEGER NOT NULL REFERENCES event_log (id) ON DELETE CASCADE,
    vault_id TEXT    NOT NULL,
    path     TEXT    NOT NULL,
    PRIMARY KEY (event_id, path)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS event_paths_by_path ON event_paths (vault_id, path);
"#,
    },
    // The retrieval log (crate::store::retrievals): every ranked search, its caller and
    // session, and the chunks it returned with their rank, score and any feedback. Kept by
    // path, ordinal and chunk key (a hash of the chunk's text), since chunk rows die with a
    // reindex; `chunk_row` is the chunk's row id when it was returned (rows are never reused).
    Migration {
        version: 10,
        sql: r#"
CREATE TABLE IF NOT EXISTS retrieval_events (
    id         INTEGER PRIMARY KEY,
    vault_id   TEXT    NOT NULL,
    ts         INTEGER NOT NULL,
    caller     TEXT    NOT NULL,
    session_id TEXT,
    surface    TEXT    NOT NULL,
    query      TEXT    NOT NULL,
    args_hash  TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS retrieval_events_by_caller ON retrieval_events (vault_id, caller, id);
CREATE INDEX IF NOT EXISTS retrieval_events_ts ON retrieval_events (ts);

CREATE TABLE IF NOT EXISTS retrieval_hits (
    event_id    INTEGER NOT NULL REFERENCES retrieval_events (id) ON DELETE CASCADE,
    vault_id    TEXT    NOT NULL,
    rank        INTEGER NOT NULL CHECK (rank >= 1),
    path        TEXT    NOT NULL,
    chunk_key   TEXT,
    ordinal     INTEGER,
    chunk_row   INTEGER,
    score       REAL    NOT NULL,
    feedback    INTEGER CHECK (feedback IN (-1, 0, 1)),
    feedback_at INTEGER,
    PRIMARY KEY (event_id, rank),
    CHECK ((feedback IS NULL) = (feedback_at IS NULL))
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS retrieval_hits_by_chunk ON retrieval_hits (chunk_key, event_id);
"#,
    },
    // The work memory (crate::store::episodes): one episode per tool call per caller, the
    // files it changed, a full-text index of what a search matches, and the hash-chained log of
    // what was forgotten. Not a cache: a vault reset keeps them; the sweep ages them out.
    Migration {
        version: 11,
        sql: r#"
CREATE TABLE IF NOT EXISTS episodes (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT    NOT NULL UNIQUE,
    ts           INTEGER NOT NULL,
    vault_id     TEXT    NOT NULL,
    session_id   TEXT,
    caller       TEXT    NOT NULL,
    tool         TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('ok', 'error')),
    error_code   TEXT,
    duration_ms  INTEGER NOT NULL,
    result_size  INTEGER NOT NULL,
    args_hash    TEXT    NOT NULL,
    args_json    TEXT,
    prev_id      TEXT,
    scan_risk    TEXT    CHECK (scan_risk IN ('suspect', 'high')),
    tags         TEXT    NOT NULL DEFAULT '',
    trust        REAL,
    eligibility  TEXT    NOT NULL DEFAULT 'pending'
                         CHECK (eligibility IN ('pending', 'eligible', 'ineligible')),
    blocked      INTEGER NOT NULL DEFAULT 0 CHECK (blocked IN (0, 1)),
    task_result  INTEGER CHECK (task_result IN (-1, 0, 1)),
    verdict_at   INTEGER,
    summary      TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS episodes_by_caller ON episodes (vault_id, caller, seq);
CREATE INDEX IF NOT EXISTS episodes_by_cluster ON episodes (vault_id, caller, tool, args_hash, status);
CREATE INDEX IF NOT EXISTS episodes_by_session ON episodes (session_id) WHERE session_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS episodes_by_ts ON episodes (ts);
CREATE INDEX IF NOT EXISTS episodes_pending ON episodes (seq) WHERE eligibility = 'pending';
CREATE TABLE IF NOT EXISTS episode_paths (
    episode_seq INTEGER NOT NULL REFERENCES episodes (seq) ON DELETE CASCADE,
    path        TEXT    NOT NULL,
    PRIMARY KEY (episode_seq, path)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS episodes_fts USING fts5 (
    tool, summary, tags, args_json,
    content = 'episodes', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS episodes_fts_insert AFTER INSERT ON episodes BEGIN
    INSERT INTO episodes_fts (rowid, tool, summary, tags, args_json)
        VALUES (new.seq, new.tool, new.summary, new.tags, new.args_json);
END;
CREATE TRIGGER IF NOT EXISTS episodes_fts_delete AFTER DELETE ON episodes WHEN old.blocked = 0 BEGIN
    INSERT INTO episodes_fts (episodes_fts, rowid, tool, summary, tags, args_json)
        VALUES ('delete', old.seq, old.tool, old.summary, old.tags, old.args_json);
END;
CREATE TRIGGER IF NOT EXISTS episodes_fts_forget AFTER UPDATE OF blocked ON episodes
    WHEN old.blocked = 0 AND new.blocked = 1 BEGIN
    INSERT INTO episodes_fts (episodes_fts, rowid, tool, summary, tags, args_json)
        VALUES ('delete', old.seq, old.tool, old.summary, old.tags, old.args_json);
END;
CREATE TABLE IF NOT EXISTS forget_log (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    ts           INTEGER NOT NULL,
    vault_id     TEXT    NOT NULL,
    episode_id   TEXT    NOT NULL,
    forgotten_by TEXT    NOT NULL,
    prev_hash    TEXT    NOT NULL,
    hash         TEXT    NOT NULL
);
"#,
    },
    // The gap passes (crate::store::gap_reports): each run of a query set through the ranked
    // search (`obsidian-tc gaps`, `run_gap_pass`), its settings, and per query the top score,
    // the result count, whether it is a gap and the nearest notes. Derived, kept per vault
    // (the newest few passes).
    Migration {
        version: 12,
        sql: r#"
CREATE TABLE IF NOT EXISTS gap_passes (
    id          INTEGER PRIMARY KEY,
    vault_id    TEXT    NOT NULL,
    computed_at INTEGER NOT NULL,
    source      TEXT    NOT NULL CHECK (source IN ('queries', 'titles')),
    mode        TEXT    NOT NULL,
    threshold   REAL    NOT NULL,
    min_results INTEGER NOT NULL CHECK (min_results >= 1),
    complete    INTEGER NOT NULL CHECK (complete IN (0, 1))
);
CREATE INDEX IF NOT EXISTS gap_passes_by_vault ON gap_passes (vault_id, id);
CREATE TABLE IF NOT EXISTS gap_reports (
    pass_id     INTEGER NOT NULL REFERENCES gap_passes (id) ON DELETE CASCADE,
    vault_id    TEXT    NOT NULL,
    id          INTEGER NOT NULL CHECK (id >= 1),
    query       TEXT    NOT NULL,
    source_path TEXT,
    top_score   REAL,
    results     INTEGER NOT NULL,
    gap         INTEGER NOT NULL CHECK (gap IN (0, 1)),
    nearest     TEXT    NOT NULL,
    PRIMARY KEY (pass_id, id)
);
"#,
    },
    // Contradictions between chunks (crate::store::contradictions): pairs of semantic
    // neighbours a model judged to contradict or be in tension, keyed by the vault and both
    // chunks' content hashes (so a pair is judged once while its texts stand); `stale` once a
    // side no longer holds that text. `contradiction_scan`: how far the detector has walked
    // each vault's chunks (row ids only grow, so an edited note's chunks are new to it).
    Migration {
        version: 13,
        sql: r#"
CREATE TABLE IF NOT EXISTS contradictions (
    id                 TEXT    PRIMARY KEY,
    vault_id           TEXT    NOT NULL,
    source_chunk_key   TEXT    NOT NULL,
    source_chunk_row   INTEGER NOT NULL,
    source_path        TEXT    NOT NULL,
    source_sha256      TEXT    NOT NULL,
    conflict_chunk_key TEXT    NOT NULL,
    conflict_chunk_row INTEGER NOT NULL,
    conflict_path      TEXT    NOT NULL,
    conflict_sha256    TEXT    NOT NULL,
    cosine             REAL    NOT NULL,
    verdict            TEXT    NOT NULL CHECK (verdict IN ('contradiction', 'tension')),
    rationale          TEXT    NOT NULL,
    judge_model        TEXT    NOT NULL,
    status             TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'stale')),
    detected_at        INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS contradictions_by_source ON contradictions (vault_id, source_path);
CREATE INDEX IF NOT EXISTS contradictions_by_conflict ON contradictions (vault_id, conflict_path);
CREATE TABLE IF NOT EXISTS contradiction_scan (
    vault_id       TEXT    PRIMARY KEY,
    last_chunk_row INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
) WITHOUT ROWID;
"#,
    },
    // The note-quality rollup (crate::store::note_quality), written by the `note-quality`
    // pass: one row per note with its measures, flags and score.
    Migration {
        version: 14,
        sql: r#"
CREATE TABLE IF NOT EXISTS note_quality (
    vault_id            TEXT    NOT NULL,
    path                TEXT    NOT NULL,
    chunk_count         INTEGER NOT NULL,
    dup_chunk_count     INTEGER NOT NULL,
    dup_ratio           REAL    NOT NULL,
    age_days            INTEGER NOT NULL,
    last_retrieved_at   INTEGER,
    retrievals          INTEGER NOT NULL,
    in_degree           INTEGER NOT NULL,
    out_degree          INTEGER NOT NULL,
    contradictions_open INTEGER NOT NULL,
    flags               TEXT    NOT NULL,
    quality_score       REAL    NOT NULL,
    computed_at         INTEGER NOT NULL,
    PRIMARY KEY (vault_id, path)
) WITHOUT ROWID;
"#,
    },
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].version;

/// Reads the file's schema version (`PRAGMA user_version`).
pub(super) fn schema_version(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn.query_row("PRAGMA user_version", [], |row| row.get(0))?)
}

/// Brings the file up to [`SCHEMA_VERSION`], or refuses a file from a newer build unchanged.
pub(super) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    for step in MIGRATIONS {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let found = schema_version(&tx)?;
        if found > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema {
                found,
                supported: SCHEMA_VERSION,
            });
        }
        if found >= step.version {
            continue;
        }
        tx.execute_batch(step.sql)?;
        tx.pragma_update(None, "user_version", step.version)?;
        tx.commit()?;
    }
    Ok(())
}
