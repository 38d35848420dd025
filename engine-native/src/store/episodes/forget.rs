//! Forgetting: an episode is blocked (never read again, out of the full-text index, its
//! arguments and paths dropped, and the next episode's `prev_id` no longer names it, so a
//! chain ends there) and, in the same transaction, a row is appended to the
//! forget log, each row's hash covering the previous row's, so a changed or removed row
//! shows in [`Episodes::forget_log_verified`].

use engine_core::hash::sha256_hex;
use rusqlite::{OptionalExtension, params};

use super::Episodes;
use crate::store::StoreError;

/// The hash before the first row of the forget log.
const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// One forget-log row's hash: over the previous hash and every field of the row.
fn row_hash(prev_hash: &str, ts: i64, vault_id: &str, episode_id: &str, by: &str) -> String {
    let text = serde_json::json!([prev_hash, ts, vault_id, episode_id, by]).to_string();
    sha256_hex(text.as_bytes())
}

impl Episodes<'_> {
    /// Forgets episode `id` of the vault, of `caller` (any caller's when `None`), for `by`
    /// at `now`; whether it was forgotten. A forgotten, foreign or unknown id is `false`,
    /// and logs nothing.
    pub fn forget(
        &self,
        vault_id: &str,
        caller: Option<&str>,
        id: &str,
        (by, now): (&str, i64),
    ) -> Result<bool, StoreError> {
        self.store.write(|tx| {
            let seq: Option<i64> = tx
                .query_row(
                    "SELECT seq FROM episodes WHERE id = ?1 AND vault_id = ?2
                       AND (?3 IS NULL OR caller = ?3) AND blocked = 0",
                    params![id, vault_id, caller],
                    |row| row.get(0),
                )
                .optional()?;
            let Some(seq) = seq else {
                return Ok(false);
            };
            tx.execute(
                "UPDATE episodes SET blocked = 1, args_json = NULL WHERE seq = ?1",
                [seq],
            )?;
            tx.execute("DELETE FROM episode_paths WHERE episode_seq = ?1", [seq])?;
            tx.execute(
                "UPDATE episodes SET prev_id = NULL WHERE prev_id = ?1 AND vault_id = ?2",
                params![id, vault_id],
            )?;
            let prev_hash: String = tx
                .query_row(
                    "SELECT hash FROM forget_log ORDER BY seq DESC LIMIT 1",
                    [],
                    |row| row.get(0),
                )
                .optional()?
                .unwrap_or_else(|| GENESIS.to_owned());
            let hash = row_hash(&prev_hash, now, vault_id, id, by);
            tx.execute(
                "INSERT INTO forget_log (ts, vault_id, episode_id, forgotten_by, prev_hash, hash)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![now, vault_id, id, by, prev_hash, hash],
            )?;
            Ok(true)
        })
    }

    /// Whether the forget log is intact: each row's `prev_hash` is the row before's `hash`
    /// (the first's is all zeros) and each `hash` is the hash of its row.
    pub fn forget_log_verified(&self) -> Result<bool, StoreError> {
        self.store.read(|conn| {
            let mut statement = conn.prepare_cached(
                "SELECT ts, vault_id, episode_id, forgotten_by, prev_hash, hash
                 FROM forget_log ORDER BY seq",
            )?;
            let mut rows = statement.query([])?;
            let mut expected_prev = GENESIS.to_owned();
            while let Some(row) = rows.next()? {
                let (ts, vault, episode, by): (i64, String, String, String) =
                    (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?);
                let (prev_hash, hash): (String, String) = (row.get(4)?, row.get(5)?);
                if prev_hash != expected_prev
                    || hash != row_hash(&prev_hash, ts, &vault, &episode, &by)
                {
                    return Ok(false);
                }
                expected_prev = hash;
            }
            Ok(true)
        })
    }
}
