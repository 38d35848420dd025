//! Elicit tokens (v1 §2.5): single-use approvals of one exact call, bound to
//! `(vault_id, args_hash, caller)` (the tool name is inside `args_hash`), 32 lowercase hex from
//! the OS random generator, never handed out by an MCP tool.
//!
//! Two ways to approve a gated call, both out of band:
//! 1. **Request, then approve.** The HITL gate records the refused call with
//!    [`Elicit::request`] and answers `elicit_required` with the `args_hash` (no token). A human
//!    runs `obsidian-tc elicit approve <args_hash>` ([`Elicit::approve`]); the agent retries the
//!    identical call and the gate takes the approval with [`Elicit::consume_approved`] — or the
//!    agent passes the token `approve` printed, checked by [`Elicit::consume`].
//! 2. **Confirmed in the client.** Under protocol 2026-07-28 the server asks the user through
//!    the client (an input-required result); the retry carrying the user's yes takes the
//!    recorded request with [`Elicit::confirm_pending`].
//! 3. **Direct mint.** `obsidian-tc elicit --hash … --tool …` ([`Elicit::mint`]) issues an
//!    approved token for a call nobody requested yet; the call passes it as `elicit_token`.
//!
//! Every consume is one `UPDATE … WHERE consumed_at IS NULL` inside the writer's transaction:
//! of any number of concurrent consumers exactly one wins.

use std::fmt;

use rusqlite::{OptionalExtension, params};
use serde_json::Value;

use super::{Store, StoreError, check_ttl, random};

/// The call an elicit token approves.
#[derive(Debug, Clone, PartialEq)]
pub struct ElicitRequest {
    /// The vault the call acts on.
    pub vault_id: String,
    /// The tool's name (shown to the human; the binding itself is `args_hash`).
    pub tool_name: String,
    /// The call's args hash (engine-core `args_hash`, `elicit_token` stripped).
    pub args_hash: String,
    /// The caller identity the approval is bound to (`"stdio"` on stdio).
    pub caller: String,
    /// What the call would change, shown to the human who approves it.
    pub proposed_change: Value,
}

/// A request or token that can still be approved or consumed (unconsumed, unexpired).
#[derive(Debug, Clone, PartialEq)]
pub struct PendingElicit {
    /// The call it is for.
    pub request: ElicitRequest,
    /// When it was recorded, Unix seconds.
    pub created_at: i64,
    /// When it stops being usable, Unix seconds.
    pub expires_at: i64,
    /// Whether a human approved it (only approved tokens can be consumed).
    pub approved: bool,
}

/// Why a presented elicit token was refused (`elicit_invalid`).
#[derive(Debug)]
pub enum ElicitError {
    /// No such token (never issued, or swept after expiry).
    Unknown,
    /// The token exists but is bound to another vault, call or caller.
    WrongBinding,
    /// The token belongs to a request nobody has approved yet.
    NotApproved,
    /// The token was already used; each token approves one call.
    AlreadyUsed,
    /// The token's time-to-live has passed.
    Expired,
    /// The store failed.
    Store(StoreError),
}

impl fmt::Display for ElicitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unknown => f.write_str("unknown elicit token; ask the user to approve the call"),
            Self::WrongBinding => f.write_str(
                "the elicit token approves a different call, vault or caller; retry the exact \
                 approved call or ask for a new approval",
            ),
            Self::NotApproved => f.write_str(
                "the elicit request has not been approved yet; ask the user to run \
                 `obsidian-tc elicit approve <args_hash>`",
            ),
            Self::AlreadyUsed => {
                f.write_str("the elicit token was already used; ask the user for a new approval")
            }
            Self::Expired => {
                f.write_str("the elicit token has expired; ask the user for a new approval")
            }
            Self::Store(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ElicitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Store(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StoreError> for ElicitError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

impl From<rusqlite::Error> for ElicitError {
    fn from(e: rusqlite::Error) -> Self {
        Self::Store(e.into())
    }
}

/// Why `elicit approve <args_hash>` approved nothing.
#[derive(Debug)]
pub enum ApproveError {
    /// No unapproved, unexpired request has this args hash (in the given vault / for the caller).
    NoPending {
        /// The args hash that was looked up.
        args_hash: String,
    },
    /// Several pending requests share the args hash; narrow it with a vault or caller.
    Ambiguous {
        /// The args hash that was looked up.
        args_hash: String,
        /// How many pending requests matched.
        count: usize,
    },
    /// The store failed.
    Store(StoreError),
}

impl fmt::Display for ApproveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoPending { args_hash } => write!(
                f,
                "no pending elicit request for args hash {args_hash}; it may have expired — \
                 retry the call to record a new one, or list them with `obsidian-tc elicit list`"
            ),
            Self::Ambiguous { args_hash, count } => write!(
                f,
                "{count} pending elicit requests have args hash {args_hash}; pass --vault and \
                 --caller to choose one"
            ),
            Self::Store(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ApproveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Store(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StoreError> for ApproveError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

impl From<rusqlite::Error> for ApproveError {
    fn from(e: rusqlite::Error) -> Self {
        Self::Store(e.into())
    }
}

/// The elicit-token repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct Elicit<'s> {
    store: &'s Store,
}

impl<'s> Elicit<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// Records a gated call awaiting approval, live for `ttl_seconds`. A live unapproved request
    /// with the same binding is refreshed instead of duplicated. No token is returned: the
    /// server never hands one to the caller it gates.
    pub fn request(
        &self,
        request: &ElicitRequest,
        ttl_seconds: i64,
        now: i64,
    ) -> Result<(), StoreError> {
        check_ttl(ttl_seconds)?;
        let change = serde_json::to_string(&request.proposed_change)?;
        let expires_at = now.saturating_add(ttl_seconds);
        let token = random::token_hex()?;
        self.store.write(|tx| {
            let refreshed = tx.execute(
                "UPDATE elicit_tokens
                 SET tool_name = ?4, proposed_change_json = ?5, expires_at = ?6
                 WHERE vault_id = ?1 AND args_hash = ?2 AND caller = ?3
                   AND approved_at IS NULL AND consumed_at IS NULL AND expires_at > ?7",
                params![
                    request.vault_id,
                    request.args_hash,
                    request.caller,
                    request.tool_name,
                    change,
                    expires_at,
                    now
                ],
            )?;
            if refreshed == 0 {
                insert(tx, &token, request, &change, now, None, expires_at)?;
            }
            Ok(())
        })
    }

    /// Approves the one pending request with `args_hash` (narrowed by `vault` and `caller` when
    /// given): it becomes a token usable for `ttl_seconds` from `now`. Returns the token, for a
    /// caller that passes `elicit_token` explicitly.
    pub fn approve(
        &self,
        args_hash: &str,
        vault: Option<&str>,
        caller: Option<&str>,
        ttl_seconds: i64,
        now: i64,
    ) -> Result<String, ApproveError> {
        check_ttl(ttl_seconds)?;
        self.store.write(|tx| {
            let mut stmt = tx.prepare(
                "SELECT token FROM elicit_tokens
                 WHERE args_hash = ?1 AND (?2 IS NULL OR vault_id = ?2)
                   AND (?3 IS NULL OR caller = ?3)
                   AND approved_at IS NULL AND consumed_at IS NULL AND expires_at > ?4",
            )?;
            let tokens = stmt
                .query_map(params![args_hash, vault, caller, now], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            let token = match tokens.as_slice() {
                [token] => token.clone(),
                [] => {
                    return Err(ApproveError::NoPending {
                        args_hash: args_hash.to_owned(),
                    });
                }
                more => {
                    return Err(ApproveError::Ambiguous {
                        args_hash: args_hash.to_owned(),
                        count: more.len(),
                    });
                }
            };
            tx.execute(
                "UPDATE elicit_tokens SET approved_at = ?2, expires_at = ?3 WHERE token = ?1",
                params![token, now, now.saturating_add(ttl_seconds)],
            )?;
            Ok(token)
        })
    }

    /// Issues an approved token for `request` directly (the CLI's `elicit --hash`), usable for
    /// `ttl_seconds` from `now`.
    pub fn mint(
        &self,
        request: &ElicitRequest,
        ttl_seconds: i64,
        now: i64,
    ) -> Result<String, StoreError> {
        check_ttl(ttl_seconds)?;
        let change = serde_json::to_string(&request.proposed_change)?;
        let token = random::token_hex()?;
        let expires_at = now.saturating_add(ttl_seconds);
        self.store.write(|tx| {
            insert(tx, &token, request, &change, now, Some(now), expires_at)?;
            Ok::<_, StoreError>(())
        })?;
        Ok(token)
    }

    /// Pending requests and unused approved tokens that have not expired, oldest first, for
    /// one vault or all. Tokens themselves are not listed.
    pub fn list(&self, vault: Option<&str>, now: i64) -> Result<Vec<PendingElicit>, StoreError> {
        self.store.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT vault_id, tool_name, args_hash, caller, proposed_change_json,
                        created_at, expires_at, approved_at IS NOT NULL
                 FROM elicit_tokens
                 WHERE (?1 IS NULL OR vault_id = ?1) AND consumed_at IS NULL AND expires_at > ?2
                 ORDER BY created_at, rowid",
            )?;
            let rows = stmt.query_map(params![vault, now], |r| {
                Ok((
                    ElicitRequest {
                        vault_id: r.get(0)?,
                        tool_name: r.get(1)?,
                        args_hash: r.get(2)?,
                        caller: r.get(3)?,
                        proposed_change: Value::Null,
                    },
                    r.get::<_, String>(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                ))
            })?;
            let mut pending = Vec::new();
            for row in rows {
                let (mut request, change, created_at, expires_at, approved) = row?;
                request.proposed_change = serde_json::from_str(&change)?;
                pending.push(PendingElicit {
                    request,
                    created_at,
                    expires_at,
                    approved,
                });
            }
            Ok(pending)
        })
    }

    /// Uses `token` for the call `(vault, args_hash, caller)`: succeeds once, for the first
    /// consumer; says precisely why otherwise.
    pub fn consume(
        &self,
        token: &str,
        vault: &str,
        args_hash: &str,
        caller: &str,
        now: i64,
    ) -> Result<(), ElicitError> {
        self.store.write(|tx| {
            let used = tx.execute(
                "UPDATE elicit_tokens SET consumed_at = ?5
                 WHERE token = ?1 AND vault_id = ?2 AND args_hash = ?3 AND caller = ?4
                   AND approved_at IS NOT NULL AND consumed_at IS NULL AND expires_at > ?5",
                params![token, vault, args_hash, caller, now],
            )?;
            if used == 1 {
                return Ok(());
            }
            let row = tx
                .query_row(
                    "SELECT vault_id = ?2 AND args_hash = ?3 AND caller = ?4,
                            approved_at IS NOT NULL, consumed_at IS NOT NULL, expires_at
                     FROM elicit_tokens WHERE token = ?1",
                    params![token, vault, args_hash, caller],
                    |r| {
                        Ok((
                            r.get::<_, bool>(0)?,
                            r.get::<_, bool>(1)?,
                            r.get::<_, bool>(2)?,
                            r.get::<_, i64>(3)?,
                        ))
                    },
                )
                .optional()?;
            Err(match row {
                None => ElicitError::Unknown,
                Some((false, ..)) => ElicitError::WrongBinding,
                Some((true, false, ..)) => ElicitError::NotApproved,
                Some((true, true, true, _)) => ElicitError::AlreadyUsed,
                Some((true, true, false, _)) => ElicitError::Expired,
            })
        })
    }

    /// Uses an approved, unexpired token bound to `(vault, args_hash, caller)` if there is one
    /// (the retry of a call a human approved by args hash). Returns whether one was used.
    pub fn consume_approved(
        &self,
        vault: &str,
        args_hash: &str,
        caller: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.use_live(
            "UPDATE elicit_tokens SET consumed_at = ?4
             WHERE token = (
                 SELECT token FROM elicit_tokens
                 WHERE vault_id = ?1 AND args_hash = ?2 AND caller = ?3
                   AND approved_at IS NOT NULL AND consumed_at IS NULL AND expires_at > ?4
                 ORDER BY approved_at, rowid LIMIT 1)",
            [vault, args_hash, caller],
            now,
        )
    }

    /// Approves and uses, in one step, the live unapproved request recorded for
    /// `(vault, args_hash, caller)`: the user confirmed that exact call in their MCP client
    /// (protocol 2026-07-28's input-required round trip). Returns whether there was one; a
    /// second confirmation of the same request finds none.
    pub fn confirm_pending(
        &self,
        vault: &str,
        args_hash: &str,
        caller: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.use_live(
            "UPDATE elicit_tokens SET approved_at = ?4, consumed_at = ?4
             WHERE token = (
                 SELECT token FROM elicit_tokens
                 WHERE vault_id = ?1 AND args_hash = ?2 AND caller = ?3
                   AND approved_at IS NULL AND consumed_at IS NULL AND expires_at > ?4
                 ORDER BY created_at, rowid LIMIT 1)",
            [vault, args_hash, caller],
            now,
        )
    }

    /// Runs `update`, which marks at most one live row of `(vault, args_hash, caller)` (its
    /// `?1..?3`) used at `?4`; returns whether it did.
    fn use_live(&self, update: &str, binding: [&str; 3], now: i64) -> Result<bool, StoreError> {
        let [vault, args_hash, caller] = binding;
        let used = self
            .store
            .write(|tx| tx.execute(update, params![vault, args_hash, caller, now]))?;
        Ok(used == 1)
    }
}

/// Inserts one row of `elicit_tokens`.
fn insert(
    tx: &rusqlite::Transaction<'_>,
    token: &str,
    request: &ElicitRequest,
    change: &str,
    now: i64,
    approved_at: Option<i64>,
    expires_at: i64,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO elicit_tokens (token, vault_id, tool_name, args_hash, proposed_change_json,
                                    caller, created_at, approved_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            token,
            request.vault_id,
            request.tool_name,
            request.args_hash,
            change,
            request.caller,
            now,
            approved_at,
            expires_at
        ],
    )?;
    Ok(())
}
