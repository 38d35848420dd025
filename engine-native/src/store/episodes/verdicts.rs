//! The deterministic evaluator and the verdicts people and agents stamp.
//!
//! The evaluator promotes a `pending` episode to `eligible` unless its verdict is -1, or its
//! cluster (same vault, caller, tool and args hash) both succeeded and failed and it has no
//! verdict yet: those stay `pending` (held out of search). An episode whose content scan
//! found high risk was `ineligible` from its capture and stays so. It reads only the pending
//! rows (a partial index) and probes each one's cluster twice by index (is there an ok call,
//! is there a failed one), so it is cheap to run before every read.

use rusqlite::params;

use super::Episodes;
use crate::store::StoreError;

/// What [`Episodes::stamp`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerdictsStamped {
    /// Episodes that got the verdict.
    pub stamped: usize,
    /// Of those, the eligible ones a -1 sent back to `pending`.
    pub demoted: usize,
}

impl Episodes<'_> {
    /// Promotes every pending episode the rules admit; returns how many.
    pub fn evaluate(&self) -> Result<usize, StoreError> {
        self.store.write(|tx| {
            Ok(tx.execute(
                "UPDATE episodes SET eligibility = 'eligible'
                 WHERE eligibility = 'pending' AND blocked = 0
                   AND (task_result IS NULL OR task_result <> -1)
                   AND (task_result IS NOT NULL OR NOT (
                       EXISTS (SELECT 1 FROM episodes o WHERE o.vault_id = episodes.vault_id
                           AND o.caller = episodes.caller AND o.tool = episodes.tool
                           AND o.args_hash = episodes.args_hash AND o.status = 'ok')
                       AND EXISTS (SELECT 1 FROM episodes o WHERE o.vault_id = episodes.vault_id
                           AND o.caller = episodes.caller AND o.tool = episodes.tool
                           AND o.args_hash = episodes.args_hash AND o.status = 'error')))",
                [],
            )?)
        })
    }

    /// Stamps `verdict` (-1, 0, +1) at `now` on every episode of `caller`'s session
    /// `session_id` in the vault with no verdict yet, up to `as_of`, except the calls of the
    /// tools `except` (the work memory's own and the session tools); a -1 sends the eligible
    /// ones back to `pending`, where the evaluator keeps them.
    pub fn stamp(
        &self,
        (vault_id, caller, session_id): (&str, &str, &str),
        verdict: i64,
        (as_of, now): (i64, i64),
        except: &[&str],
    ) -> Result<VerdictsStamped, StoreError> {
        let except = serde_json::to_string(except).unwrap_or_else(|_| "[]".to_owned());
        let scope = "vault_id = ?1 AND caller = ?2 AND session_id = ?3 AND task_result IS NULL
             AND ts <= ?4 AND blocked = 0
             AND tool NOT IN (SELECT value FROM json_each(?5))";
        self.store.write(|tx| {
            let demoted = if verdict < 0 {
                tx.execute(
                    &format!(
                        "UPDATE episodes SET eligibility = 'pending'
                         WHERE {scope} AND eligibility = 'eligible'"
                    ),
                    params![vault_id, caller, session_id, as_of, except],
                )?
            } else {
                0
            };
            let stamped = tx.execute(
                &format!("UPDATE episodes SET task_result = ?6, verdict_at = ?7 WHERE {scope}"),
                params![vault_id, caller, session_id, as_of, except, verdict, now],
            )?;
            Ok(VerdictsStamped { stamped, demoted })
        })
    }
}
