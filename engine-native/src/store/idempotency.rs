//! Idempotency keys (v1 §2.6): a claim row per `(vault_id, key)` makes a retried write run at
//! most once and replay its first result.
//!
//! Lifecycle: [`Idempotency::claim`] inserts an `in_flight` row; the dispatcher then calls
//! [`Idempotency::complete`] with the result, [`Idempotency::mark_indeterminate`] after a fault
//! that may have followed the effect, or [`Idempotency::release`] after a failure before the
//! handler ran. Rows past their `expires_at` are treated as absent.

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError, check_ttl};

/// The time rules of idempotency keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdempotencyPolicy {
    /// How long a key is remembered, counted from its claim and again from its completion.
    pub ttl_seconds: i64,
    /// After how long an `in_flight` row is considered abandoned (its holder crashed) and may be
    /// taken over by a new claim.
    pub reclaim_seconds: i64,
}

impl IdempotencyPolicy {
    /// Checks that both durations are positive (a zero reclaim window would let two calls run).
    pub fn validate(&self) -> Result<(), StoreError> {
        check_ttl(self.ttl_seconds)?;
        check_ttl(self.reclaim_seconds)
    }
}

impl Default for IdempotencyPolicy {
    /// The shipped defaults: 24 h ttl, 60 s reclaim.
    fn default() -> Self {
        Self {
            ttl_seconds: 86_400,
            reclaim_seconds: 60,
        }
    }
}

/// What a claim found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// No live row existed: this caller now holds the key and must run the handler.
    Fresh,
    /// An abandoned in-flight row (older than the reclaim window) was taken over: run the handler.
    Reclaimed,
    /// The key completed with the same tool and arguments: return this result, do not run.
    Replay(String),
    /// Another call holds the key right now (`idempotency_in_flight`): do not run.
    InFlight,
    /// The key was used with another tool or other arguments (`idempotency_key_mismatch`).
    Mismatch,
    /// An earlier call faulted after its effect may have happened: running again could apply it
    /// twice, so the key stays spent until it expires.
    Indeterminate,
}

/// The idempotency-key repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct Idempotency<'s> {
    store: &'s Store,
    policy: IdempotencyPolicy,
}

impl<'s> Idempotency<'s> {
    pub(super) fn new(store: &'s Store, policy: IdempotencyPolicy) -> Self {
        Self { store, policy }
    }

    /// Atomically claims `key` for a call of `tool` with `args_hash` in `vault`.
    pub fn claim(
        &self,
        vault: &str,
        key: &str,
        tool: &str,
        args_hash: &str,
        now: i64,
    ) -> Result<Claim, StoreError> {
        let expires_at = now.saturating_add(self.policy.ttl_seconds);
        self.store.write(|tx| {
            let row = tx
                .query_row(
                    "SELECT tool_name, args_hash, state, started_at, result, expires_at
                     FROM idempotency_keys WHERE vault_id = ?1 AND key = ?2",
                    params![vault, key],
                    |r| {
                        Ok(StoredClaim {
                            tool: r.get(0)?,
                            args_hash: r.get(1)?,
                            state: r.get(2)?,
                            started_at: r.get(3)?,
                            result: r.get(4)?,
                            expires_at: r.get(5)?,
                        })
                    },
                )
                .optional()?;
            let row = match row {
                Some(row) if row.expires_at > now => row,
                _ => {
                    tx.execute(
                        "INSERT OR REPLACE INTO idempotency_keys
                         (vault_id, key, tool_name, args_hash, state, started_at, expires_at)
                         VALUES (?1, ?2, ?3, ?4, 'in_flight', ?5, ?6)",
                        params![vault, key, tool, args_hash, now, expires_at],
                    )?;
                    return Ok(Claim::Fresh);
                }
            };
            if row.tool != tool || row.args_hash != args_hash {
                return Ok(Claim::Mismatch);
            }
            match row.state.as_str() {
                // The schema's CHECK guarantees a completed row has a result.
                "completed" => Ok(Claim::Replay(row.result.unwrap_or_default())),
                "indeterminate" => Ok(Claim::Indeterminate),
                _ if now.saturating_sub(row.started_at) >= self.policy.reclaim_seconds => {
                    tx.execute(
                        "UPDATE idempotency_keys SET started_at = ?3, expires_at = ?4
                         WHERE vault_id = ?1 AND key = ?2",
                        params![vault, key, now, expires_at],
                    )?;
                    Ok(Claim::Reclaimed)
                }
                _ => Ok(Claim::InFlight),
            }
        })
    }

    /// Records the result of the in-flight claim on `key`; replays return it until the key
    /// expires (`ttl_seconds` after `now`).
    pub fn complete(
        &self,
        vault: &str,
        key: &str,
        result: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let size = i64::try_from(result.len()).map_err(|_| StoreError::OutOfRange {
            what: "the result size",
        })?;
        let expires_at = now.saturating_add(self.policy.ttl_seconds);
        let changed = self.store.write(|tx| {
            tx.execute(
                "UPDATE idempotency_keys
                 SET state = 'completed', completed_at = ?3, result = ?4, result_size = ?5,
                     expires_at = ?6
                 WHERE vault_id = ?1 AND key = ?2 AND state = 'in_flight'",
                params![vault, key, now, result, size, expires_at],
            )
        })?;
        no_claim_unless_changed(changed, vault, key)
    }

    /// Keeps the in-flight claim on `key` as `indeterminate` after a fault that may have followed
    /// the effect: the call is never run again under this key (at-most-once).
    pub fn mark_indeterminate(&self, vault: &str, key: &str) -> Result<(), StoreError> {
        let changed = self.store.write(|tx| {
            tx.execute(
                "UPDATE idempotency_keys SET state = 'indeterminate'
                 WHERE vault_id = ?1 AND key = ?2 AND state = 'in_flight'",
                params![vault, key],
            )
        })?;
        no_claim_unless_changed(changed, vault, key)
    }

    /// Deletes the in-flight claim on `key` after a failure before the handler ran, so a retry
    /// starts fresh. Returns whether a claim was deleted; completed keys are never deleted.
    pub fn release(&self, vault: &str, key: &str) -> Result<bool, StoreError> {
        let deleted = self.store.write(|tx| {
            tx.execute(
                "DELETE FROM idempotency_keys
                 WHERE vault_id = ?1 AND key = ?2 AND state = 'in_flight'",
                params![vault, key],
            )
        })?;
        Ok(deleted > 0)
    }
}

/// A row of `idempotency_keys` as `claim` reads it.
struct StoredClaim {
    tool: String,
    args_hash: String,
    state: String,
    started_at: i64,
    result: Option<String>,
    expires_at: i64,
}

fn no_claim_unless_changed(changed: usize, vault: &str, key: &str) -> Result<(), StoreError> {
    if changed == 0 {
        return Err(StoreError::NoClaim {
            vault_id: vault.to_owned(),
            key: key.to_owned(),
        });
    }
    Ok(())
}
