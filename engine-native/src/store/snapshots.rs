//! Snapshots: each file a tool call changed, as it was before the call, grouped by the call
//! (a *change*), so a user can see what an agent changed and take it back. A file that did
//! not exist before is recorded too (undoing the change removes it again).

use rusqlite::{OptionalExtension, Row, params};

use super::{Store, StoreError, check_limit};

/// One file of a change to record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangedFile<'a> {
    /// The canonical vault-relative path.
    pub path: &'a str,
    /// Whether a file was there before the change.
    pub existed: bool,
    /// Its bytes before the change, when it existed and they were kept.
    pub content: Option<&'a [u8]>,
    /// The SHA-256 of the file after the change; `None` when there is no file any more.
    pub after_sha256: Option<&'a str>,
}

/// One tool call's changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewChange<'a> {
    /// The vault.
    pub vault_id: &'a str,
    /// A unique id of the call.
    pub change_id: &'a str,
    /// Who made it.
    pub caller: &'a str,
    /// The tool that made it.
    pub tool: &'a str,
    /// When, Unix seconds.
    pub now: i64,
    /// The files it changed.
    pub files: Vec<ChangedFile<'a>>,
    /// How many snapshots of one path are kept (older ones are dropped); at least 1.
    pub keep_per_path: u32,
}

/// A recorded snapshot, without its content.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct SnapshotInfo {
    /// The snapshot's id.
    pub id: i64,
    /// The change (tool call) it belongs to.
    pub change_id: String,
    /// Who made the change.
    pub caller: String,
    /// The tool that made it.
    pub tool: String,
    /// The file's vault-relative path.
    pub path: String,
    /// Whether the file existed before the change (if not, restoring removes it).
    pub existed: bool,
    /// Whether its content before the change was kept (false for files over 16 MiB or
    /// unreadable ones, which cannot be restored).
    pub kept: bool,
    /// Its size before the change, bytes.
    pub size: Option<u64>,
    /// Its SHA-256 before the change.
    pub sha256: Option<String>,
    /// Its SHA-256 right after the change (`None`: no file after it).
    pub after_sha256: Option<String>,
    /// When the change was made, Unix seconds.
    pub created_at: i64,
    /// When the change was undone, if it was.
    pub undone_at: Option<i64>,
}

/// A snapshot with the file's content before the change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// What it is.
    pub info: SnapshotInfo,
    /// The bytes, when the file existed and they were kept.
    pub content: Option<Vec<u8>>,
}

/// The snapshots repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct Snapshots<'s> {
    store: &'s Store,
}

const INFO_COLUMNS: &str = "snapshot_id, change_id, caller, tool_name, path, existed, \
     content IS NOT NULL, length(content), sha256, after_sha256, created_at, undone_at";

impl<'s> Snapshots<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// Records one change in one transaction, then drops the snapshots of its paths beyond
    /// the newest `keep_per_path`; returns the new snapshots' ids, in the order of
    /// `change.files`. A change without files records nothing.
    pub fn record(&self, change: &NewChange<'_>) -> Result<Vec<i64>, StoreError> {
        if change.files.is_empty() {
            return Ok(Vec::new());
        }
        let keep = i64::from(change.keep_per_path.max(1));
        self.store.write(|tx| {
            let mut insert = tx.prepare(
                "INSERT INTO snapshots (vault_id, change_id, caller, tool_name, path, existed,
                     content, sha256, after_sha256, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?;
            let mut prune = tx.prepare(
                "DELETE FROM snapshots WHERE vault_id = ?1 AND path = ?2 AND snapshot_id NOT IN
                     (SELECT snapshot_id FROM snapshots WHERE vault_id = ?1 AND path = ?2
                      ORDER BY snapshot_id DESC LIMIT ?3)",
            )?;
            let mut ids = Vec::with_capacity(change.files.len());
            for file in &change.files {
                let sha256 = file.content.map(engine_core::hash::sha256_hex);
                insert.execute(params![
                    change.vault_id,
                    change.change_id,
                    change.caller,
                    change.tool,
                    file.path,
                    file.existed,
                    file.content,
                    sha256,
                    file.after_sha256,
                    change.now,
                ])?;
                ids.push(tx.last_insert_rowid());
                prune.execute(params![change.vault_id, file.path, keep])?;
            }
            Ok(ids)
        })
    }

    /// Snapshots of `vault`, newest first: of one `path`, or of every path; at most `limit`,
    /// older than snapshot `before_id` when given (the next page).
    pub fn list(
        &self,
        vault_id: &str,
        path: Option<&str>,
        limit: u32,
        before_id: Option<i64>,
    ) -> Result<Vec<SnapshotInfo>, StoreError> {
        check_limit(limit)?;
        self.store.read(|conn| {
            let mut stmt = conn.prepare(&format!(
                "SELECT {INFO_COLUMNS} FROM snapshots
                 WHERE vault_id = ?1 AND (?2 IS NULL OR path = ?2)
                   AND (?3 IS NULL OR snapshot_id < ?3)
                 ORDER BY snapshot_id DESC LIMIT ?4"
            ))?;
            let rows = stmt.query_map(params![vault_id, path, before_id, limit], info)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// Snapshot `id` of `vault`, with its content.
    pub fn get(&self, vault_id: &str, id: i64) -> Result<Option<Snapshot>, StoreError> {
        self.store.read(|conn| {
            Ok(conn
                .query_row(
                    &format!(
                        "SELECT {INFO_COLUMNS}, content FROM snapshots
                         WHERE vault_id = ?1 AND snapshot_id = ?2"
                    ),
                    params![vault_id, id],
                    with_content,
                )
                .optional()?)
        })
    }

    /// Every snapshot of the newest change `caller` made in `vault` that is not undone and
    /// was not made by one of the tools `except` (an undo is not itself undone by the next
    /// undo), in the order the files were first touched.
    pub fn last_change(
        &self,
        vault_id: &str,
        caller: &str,
        except: &[&str],
    ) -> Result<Vec<Snapshot>, StoreError> {
        self.store.read(|conn| {
            let excluded = serde_json::to_string(except).unwrap_or_else(|_| "[]".to_owned());
            let change: Option<String> = conn
                .query_row(
                    "SELECT change_id FROM snapshots
                     WHERE vault_id = ?1 AND caller = ?2 AND undone_at IS NULL
                       AND tool_name NOT IN (SELECT value FROM json_each(?3))
                     ORDER BY snapshot_id DESC LIMIT 1",
                    params![vault_id, caller, excluded],
                    |row| row.get(0),
                )
                .optional()?;
            let Some(change) = change else {
                return Ok(Vec::new());
            };
            let mut stmt = conn.prepare(&format!(
                "SELECT {INFO_COLUMNS}, content FROM snapshots
                 WHERE vault_id = ?1 AND change_id = ?2 ORDER BY snapshot_id"
            ))?;
            let rows = stmt.query_map(params![vault_id, change], with_content)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// Marks change `change_id` of `vault` undone at `now`.
    pub fn mark_undone(&self, vault_id: &str, change_id: &str, now: i64) -> Result<(), StoreError> {
        self.store.write(|tx| {
            tx.execute(
                "UPDATE snapshots SET undone_at = ?3 WHERE vault_id = ?1 AND change_id = ?2",
                params![vault_id, change_id, now],
            )?;
            Ok(())
        })
    }
}

fn info(row: &Row<'_>) -> rusqlite::Result<SnapshotInfo> {
    Ok(SnapshotInfo {
        id: row.get(0)?,
        change_id: row.get(1)?,
        caller: row.get(2)?,
        tool: row.get(3)?,
        path: row.get(4)?,
        existed: row.get(5)?,
        kept: row.get(6)?,
        size: row.get::<_, Option<i64>>(7)?.map(|n| n.unsigned_abs()),
        sha256: row.get(8)?,
        after_sha256: row.get(9)?,
        created_at: row.get(10)?,
        undone_at: row.get(11)?,
    })
}

fn with_content(row: &Row<'_>) -> rusqlite::Result<Snapshot> {
    Ok(Snapshot {
        info: info(row)?,
        content: row.get(12)?,
    })
}
