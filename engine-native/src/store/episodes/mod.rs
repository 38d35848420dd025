//! The work memory's episodes: one row per tool call bound to a vault, per caller (what it
//! was, how it went, the files it changed, the caller's previous episode), with the
//! evaluator's eligibility and a person's or agent's verdict, and the hash-chained log of
//! what was forgotten. Kept in `cache.db` but not a cache: a vault reset keeps them
//! ([`Store::delete_vault_rows`] does not touch them); the sweep ages them out.
//!
//! - this module: the row types and [`Episodes::record`] (capture);
//! - `query`: reads ([`EpisodeQuery`]), one episode, the k-anonymous counts;
//! - `verdicts`: the evaluator ([`Episodes::evaluate`]) and [`Episodes::stamp`];
//! - `forget`: [`Episodes::forget`] and the forget log's verification.
//!
//! Every read takes the caller it is for (or none, for an admin's `any_caller`) and puts it
//! in the SQL, so a caller's rows are never read for another.

mod forget;
mod query;
mod verdicts;

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError, random};

pub use query::{Eligible, EpisodeQuery, GroupBy, TextMatch};
pub use verdicts::VerdictsStamped;

/// The random part of an episode id: 18 hex characters after `ep_`.
const ID_HEX: usize = 18;

/// One tool call to keep as an episode.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEpisode<'a> {
    /// The vault the call was bound to.
    pub vault_id: &'a str,
    /// When it finished, Unix seconds.
    pub ts: i64,
    /// The caller's session open in the vault then, if any.
    pub session_id: Option<&'a str>,
    /// Who called.
    pub caller: &'a str,
    /// The tool.
    pub tool: &'a str,
    /// The error code when it failed; `None` when it succeeded.
    pub error_code: Option<&'a str>,
    /// How long it took.
    pub duration_ms: i64,
    /// The size of its JSON result, bytes (0 for an error).
    pub result_size: i64,
    /// The call's args hash.
    pub args_hash: &'a str,
    /// Its arguments, redacted and capped, when they are kept.
    pub args_json: Option<&'a str>,
    /// The files it changed that the caller may read.
    pub paths: &'a [String],
    /// The highest risk the content scan found in what it wrote (`suspect`, `high`).
    pub scan_risk: Option<&'a str>,
    /// Space-separated tags: the content scan's flags and credential classes.
    pub tags: &'a str,
    /// The trust the capture gives it (0..1).
    pub trust: f64,
    /// The deterministic receipt: tool, outcome, how many files changed.
    pub summary: &'a str,
}

/// An episode as read back.
#[derive(Debug, Clone, PartialEq)]
pub struct EpisodeRow {
    /// `ep_` and 18 hex.
    pub id: String,
    /// When, Unix seconds.
    pub ts: i64,
    /// The session it belongs to, if any.
    pub session_id: Option<String>,
    /// Who called.
    pub caller: String,
    /// The tool.
    pub tool: String,
    /// `ok` or `error`.
    pub status: String,
    /// The error code of a failed call.
    pub error_code: Option<String>,
    /// How long it took.
    pub duration_ms: i64,
    /// The size of its JSON result, bytes.
    pub result_size: i64,
    /// The call's args hash.
    pub args_hash: String,
    /// Its redacted arguments, when kept.
    pub args_json: Option<String>,
    /// The caller's previous episode in the vault.
    pub prev_id: Option<String>,
    /// The content scan's highest risk.
    pub scan_risk: Option<String>,
    /// The content scan's tags, space-separated.
    pub tags: String,
    /// The trust the capture gave it.
    pub trust: Option<f64>,
    /// `pending`, `eligible` or `ineligible`.
    pub eligibility: String,
    /// The verdict stamped on it (-1, 0, +1).
    pub task_result: Option<i64>,
    /// The receipt text.
    pub summary: String,
    /// The files it changed, as kept (the reader's ACL filters them again).
    pub paths: Vec<String>,
}

/// The episodes repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct Episodes<'s> {
    store: &'s Store,
}

impl<'s> Episodes<'s> {
    pub(in crate::store) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// Keeps one episode in one transaction: its id, the caller's previous episode in the
    /// vault as `prev_id`, its paths. High scan risk makes it `ineligible`, else `pending`.
    /// When its outcome differs from an earlier call of the same caller, tool and args hash,
    /// that cluster's unstamped eligible episodes go back to `pending` (the evaluator holds a
    /// cluster that both succeeded and failed). Returns the new id.
    pub fn record(&self, new: &NewEpisode<'_>) -> Result<String, StoreError> {
        let id = format!("ep_{}", &random::token_hex()?[..ID_HEX]);
        let status = if new.error_code.is_some() {
            "error"
        } else {
            "ok"
        };
        let eligibility = if new.scan_risk == Some("high") {
            "ineligible"
        } else {
            "pending"
        };
        self.store.write(|tx| {
            let prev_id: Option<String> = tx
                .query_row(
                    "SELECT id FROM episodes WHERE vault_id = ?1 AND caller = ?2
                     ORDER BY seq DESC LIMIT 1",
                    params![new.vault_id, new.caller],
                    |row| row.get(0),
                )
                .optional()?;
            tx.execute(
                "INSERT INTO episodes (id, ts, vault_id, session_id, caller, tool, status,
                     error_code, duration_ms, result_size, args_hash, args_json, prev_id,
                     scan_risk, tags, trust, eligibility, summary)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                     ?17, ?18)",
                params![
                    id,
                    new.ts,
                    new.vault_id,
                    new.session_id,
                    new.caller,
                    new.tool,
                    status,
                    new.error_code,
                    new.duration_ms,
                    new.result_size,
                    new.args_hash,
                    new.args_json,
                    prev_id,
                    new.scan_risk,
                    new.tags,
                    new.trust,
                    eligibility,
                    new.summary,
                ],
            )?;
            let seq = tx.last_insert_rowid();
            let mut insert_path = tx.prepare_cached(
                "INSERT OR IGNORE INTO episode_paths (episode_seq, path) VALUES (?1, ?2)",
            )?;
            for path in new.paths {
                insert_path.execute(params![seq, path])?;
            }
            tx.execute(
                "UPDATE episodes SET eligibility = 'pending'
                 WHERE vault_id = ?1 AND caller = ?2 AND tool = ?3 AND args_hash = ?4
                   AND eligibility = 'eligible' AND task_result IS NULL
                   AND EXISTS (SELECT 1 FROM episodes o WHERE o.vault_id = ?1 AND o.caller = ?2
                       AND o.tool = ?3 AND o.args_hash = ?4 AND o.status = ?5)",
                params![
                    new.vault_id,
                    new.caller,
                    new.tool,
                    new.args_hash,
                    if status == "ok" { "error" } else { "ok" }
                ],
            )?;
            Ok(id)
        })
    }
}

impl Store {
    /// The work memory's episodes: capture, reads, the evaluator, verdicts, forgetting.
    pub fn episodes(&self) -> Episodes<'_> {
        Episodes::new(self)
    }
}
