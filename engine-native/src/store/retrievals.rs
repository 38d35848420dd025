//! The retrieval log: one `retrieval_events` row per ranked search (the vault, the caller, the
//! caller's open session if any, the tool, the query, when) and one `retrieval_hits` row per
//! result it returned (rank, score, the note's path, the chunk's key, ordinal and row id), on
//! which the caller may later stamp feedback (-1, 0, +1).
//!
//! A chunk's row id dies with a reindex of its note, so a hit also keeps the note's path, the
//! chunk's ordinal and its key (a hash of path, ordinal and text, what search results show as
//! `chunk_id`): the log still says which passage was returned after the index has moved on.
//! Rows are kept by the event log's retention and survive a reset of the vault's cache rows
//! ([`Store::delete_vault_rows`]): like snapshots, they are a record of what happened, not a
//! cache of the vault.

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError, check_limit};

/// One result a ranked search returned.
#[derive(Debug, Clone, PartialEq)]
pub struct RetrievedHit {
    /// The note's vault-relative path.
    pub path: String,
    /// The chunk's key, as search results show it (`chunk_id`); `None` for a note reached
    /// without a chunk of its own (through links only).
    pub chunk_key: Option<String>,
    /// The chunk's position in its note, from 0.
    pub ordinal: Option<u32>,
    /// The chunk's row id in `chunks` when it was returned.
    pub chunk_row: Option<i64>,
    /// The score the result was ranked by.
    pub score: f64,
}

/// What one ranked search returned: its query and its results, best first.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Retrieval {
    /// The query as the caller wrote it.
    pub query: String,
    /// The results, in the order returned (rank 1 first).
    pub hits: Vec<RetrievedHit>,
}

/// One ranked search to log.
#[derive(Debug, Clone, Copy)]
pub struct RetrievalEvent<'a> {
    /// The vault searched.
    pub vault_id: &'a str,
    /// When, Unix seconds.
    pub ts: i64,
    /// Who searched.
    pub caller: &'a str,
    /// The caller's open session in the vault, if any.
    pub session_id: Option<&'a str>,
    /// The tool that searched (`search_vault`, `get_context`, ...).
    pub surface: &'a str,
    /// The call's args hash (what the event log keeps for it).
    pub args_hash: &'a str,
    /// The query and what it returned.
    pub retrieval: &'a Retrieval,
}

/// A logged search read back, with its hits and their feedback.
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedRetrieval {
    /// The row id (ascending in insertion order).
    pub id: i64,
    /// When, Unix seconds.
    pub ts: i64,
    /// The caller's session, if one was open.
    pub session_id: Option<String>,
    /// The tool that searched.
    pub surface: String,
    /// The query and the hits, rank order.
    pub retrieval: Retrieval,
    /// Each hit's feedback, in the order of `retrieval.hits`.
    pub feedback: Vec<Option<i8>>,
}

/// Which of one caller's logged searches to read.
#[derive(Debug, Clone, Copy)]
pub struct RetrievalWindow<'a> {
    /// The vault.
    pub vault: &'a str,
    /// Whose searches (only theirs are read).
    pub caller: &'a str,
    /// Only the searches of this session.
    pub session_id: Option<&'a str>,
    /// From this time, Unix seconds, included.
    pub since: i64,
    /// To this time, Unix seconds, included.
    pub until: i64,
    /// The most searches read (1..=1000), the newest.
    pub limit: u32,
}

/// A caller's feedback on one chunk, to stamp on their latest retrievals of it.
#[derive(Debug, Clone, Copy)]
pub struct Feedback<'a> {
    /// The vault.
    pub vault_id: &'a str,
    /// Whose retrievals (only theirs are stamped).
    pub caller: &'a str,
    /// The chunk's key, as search results showed it.
    pub chunk_key: &'a str,
    /// -1, 0 or +1.
    pub value: i8,
    /// Only retrievals of this session.
    pub session_id: Option<&'a str>,
    /// How many of the latest retrievals to stamp (1..=50).
    pub last_n: u32,
    /// When, Unix seconds.
    pub now: i64,
}

/// What stamping feedback did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedbackStamped {
    /// This many hits were stamped.
    Updated(usize),
    /// The caller retrieved the chunk, but not in the session named.
    SessionScope,
    /// The caller never retrieved the chunk (another caller's retrievals do not count).
    NoOwnedRetrievals,
}

/// The retrieval-log repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct Retrievals<'s> {
    store: &'s Store,
}

impl<'s> Retrievals<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// Logs `event` and its hits in one transaction; returns the event's row id.
    pub fn append(&self, event: &RetrievalEvent<'_>) -> Result<i64, StoreError> {
        self.store.write(|tx| {
            tx.execute(
                "INSERT INTO retrieval_events (vault_id, ts, caller, session_id, surface, query,
                                               args_hash)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    event.vault_id,
                    event.ts,
                    event.caller,
                    event.session_id,
                    event.surface,
                    event.retrieval.query,
                    event.args_hash
                ],
            )?;
            let id = tx.last_insert_rowid();
            let mut insert = tx.prepare_cached(
                "INSERT INTO retrieval_hits (event_id, vault_id, rank, path, chunk_key, ordinal,
                                             chunk_row, score)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?;
            for (rank, hit) in (1_i64..).zip(&event.retrieval.hits) {
                insert.execute(params![
                    id,
                    event.vault_id,
                    rank,
                    hit.path,
                    hit.chunk_key,
                    hit.ordinal,
                    hit.chunk_row,
                    hit.score
                ])?;
            }
            Ok(id)
        })
    }

    /// The newest `limit` (1..=1000) searches of `caller` in `vault`, newest first.
    pub fn recent(
        &self,
        vault: &str,
        caller: &str,
        limit: u32,
    ) -> Result<Vec<LoggedRetrieval>, StoreError> {
        self.window(&RetrievalWindow {
            vault,
            caller,
            session_id: None,
            since: i64::MIN,
            until: i64::MAX,
            limit,
        })
    }

    /// The newest `limit` (1..=1000) searches `window` selects, newest first, with their hits
    /// and feedback; only the caller's own rows are read, in SQL.
    pub fn window(&self, window: &RetrievalWindow<'_>) -> Result<Vec<LoggedRetrieval>, StoreError> {
        check_limit(window.limit)?;
        self.store.read(|conn| {
            let mut events = conn.prepare_cached(
                "SELECT id, ts, session_id, surface, query FROM retrieval_events
                 WHERE vault_id = ?1 AND caller = ?2 AND (?3 IS NULL OR session_id = ?3)
                   AND ts >= ?4 AND ts <= ?5
                 ORDER BY id DESC LIMIT ?6",
            )?;
            let mut hits = conn.prepare_cached(
                "SELECT path, chunk_key, ordinal, chunk_row, score, feedback FROM retrieval_hits
                 WHERE event_id = ?1 ORDER BY rank",
            )?;
            let rows = events
                .query_map(
                    params![
                        window.vault,
                        window.caller,
                        window.session_id,
                        window.since,
                        window.until,
                        window.limit
                    ],
                    |r| {
                        Ok(LoggedRetrieval {
                            id: r.get(0)?,
                            ts: r.get(1)?,
                            session_id: r.get(2)?,
                            surface: r.get(3)?,
                            retrieval: Retrieval {
                                query: r.get(4)?,
                                hits: Vec::new(),
                            },
                            feedback: Vec::new(),
                        })
                    },
                )?
                .collect::<Result<Vec<_>, _>>()?;
            let mut out = Vec::with_capacity(rows.len());
            for mut logged in rows {
                for row in hits.query_map([logged.id], |r| {
                    Ok((
                        RetrievedHit {
                            path: r.get(0)?,
                            chunk_key: r.get(1)?,
                            ordinal: r.get(2)?,
                            chunk_row: r.get(3)?,
                            score: r.get(4)?,
                        },
                        r.get::<_, Option<i8>>(5)?,
                    ))
                })? {
                    let (hit, feedback) = row?;
                    logged.retrieval.hits.push(hit);
                    logged.feedback.push(feedback);
                }
                out.push(logged);
            }
            Ok(out)
        })
    }

    /// Stamps `feedback` on the chunk's hits in the caller's `last_n` latest searches that
    /// returned it (of the session named, when one is); only the caller's own rows are
    /// looked at, in SQL.
    pub fn stamp(&self, feedback: &Feedback<'_>) -> Result<FeedbackStamped, StoreError> {
        self.store.write(|tx| {
            let updated = tx.execute(
                "UPDATE retrieval_hits SET feedback = ?1, feedback_at = ?2
                 WHERE chunk_key = ?3 AND event_id IN (
                     SELECT e.id FROM retrieval_events e
                     WHERE e.vault_id = ?4 AND e.caller = ?5
                       AND (?6 IS NULL OR e.session_id = ?6)
                       AND EXISTS (SELECT 1 FROM retrieval_hits h
                                   WHERE h.event_id = e.id AND h.chunk_key = ?3)
                     ORDER BY e.id DESC LIMIT ?7)",
                params![
                    feedback.value,
                    feedback.now,
                    feedback.chunk_key,
                    feedback.vault_id,
                    feedback.caller,
                    feedback.session_id,
                    feedback.last_n
                ],
            )?;
            if updated > 0 {
                return Ok(FeedbackStamped::Updated(updated));
            }
            let owned: Option<i64> = tx
                .query_row(
                    "SELECT e.id FROM retrieval_events e JOIN retrieval_hits h ON h.event_id = e.id
                     WHERE e.vault_id = ?1 AND e.caller = ?2 AND h.chunk_key = ?3 LIMIT 1",
                    params![feedback.vault_id, feedback.caller, feedback.chunk_key],
                    |r| r.get(0),
                )
                .optional()?;
            Ok(match (owned, feedback.session_id) {
                (Some(_), Some(_)) => FeedbackStamped::SessionScope,
                _ => FeedbackStamped::NoOwnedRetrievals,
            })
        })
    }
}
