//! Reading episodes: a filtered, newest-first list ([`EpisodeQuery`]), optionally matched by
//! words through the full-text index; one episode by id; the k-anonymous counts. A forgotten
//! (`blocked`) episode and one older than the retention window are never read.

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, OptionalExtension, Row, params, params_from_iter};

use super::{EpisodeRow, Episodes};
use crate::store::StoreError;

/// The columns every read selects, in [`row`]'s order.
const COLUMNS: &str = "e.seq, e.id, e.ts, e.session_id, e.caller, e.tool, e.status, \
     e.error_code, e.duration_ms, e.result_size, e.args_hash, e.args_json, e.prev_id, \
     e.scan_risk, e.tags, e.trust, e.eligibility, e.task_result, e.summary";

/// Which eligibility a read admits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Eligible {
    /// Every eligibility (the raw log).
    Any,
    /// `eligible` only (or also `pending`), and `trust IS NULL OR trust >= min_trust`.
    Searchable {
        /// Also the episodes the evaluator has not promoted (or holds out).
        include_pending: bool,
        /// The lowest trust admitted.
        min_trust: f64,
    },
}

/// Words to match through the full-text index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextMatch {
    /// The words; an episode matches when it has every one (each a phrase of its tokens).
    pub words: Vec<String>,
    /// Whether the kept arguments are matched too (not when reading other callers').
    pub in_arguments: bool,
}

/// What [`Episodes::query`] reads; each `None` matches everything.
#[derive(Debug, Clone, PartialEq)]
pub struct EpisodeQuery<'a> {
    /// The vault.
    pub vault_id: &'a str,
    /// The caller whose episodes these are; `None` for every caller (an admin's read).
    pub caller: Option<&'a str>,
    /// Episodes before this time are past the retention window (never read).
    pub not_before: i64,
    /// At or after this time, Unix seconds.
    pub since: Option<i64>,
    /// At or before this time, Unix seconds.
    pub until: Option<i64>,
    /// Only this tool.
    pub tool: Option<&'a str>,
    /// Only `ok` or `error`.
    pub status: Option<&'a str>,
    /// Only this session.
    pub session_id: Option<&'a str>,
    /// Which eligibility.
    pub eligible: Eligible,
    /// Only episodes of a session with no verdict yet, of tools other than these.
    pub unstamped_except: Option<&'a [&'a str]>,
    /// Words to match.
    pub text: Option<TextMatch>,
    /// The most episodes returned.
    pub limit: u32,
}

impl<'a> EpisodeQuery<'a> {
    /// The newest `limit` episodes of `caller` (every caller's when `None`) in `vault_id`
    /// since `not_before`, of any eligibility, unfiltered otherwise.
    pub fn newest(
        vault_id: &'a str,
        caller: Option<&'a str>,
        not_before: i64,
        limit: u32,
    ) -> EpisodeQuery<'a> {
        EpisodeQuery {
            vault_id,
            caller,
            not_before,
            since: None,
            until: None,
            tool: None,
            status: None,
            session_id: None,
            eligible: Eligible::Any,
            unstamped_except: None,
            text: None,
            limit,
        }
    }
}

/// What the k-anonymous counts group by (never the caller).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy {
    /// The tool.
    Tool,
    /// `ok` / `error`.
    Status,
    /// `pending` / `eligible` / `ineligible`.
    Eligibility,
}

impl GroupBy {
    fn column(self) -> &'static str {
        match self {
            GroupBy::Tool => "tool",
            GroupBy::Status => "status",
            GroupBy::Eligibility => "eligibility",
        }
    }
}

impl Episodes<'_> {
    /// The episodes `query` selects, newest first, with their paths.
    pub fn query(&self, query: &EpisodeQuery<'_>) -> Result<Vec<EpisodeRow>, StoreError> {
        let mut filter = Filter {
            values: vec![
                query.vault_id.to_owned().into(),
                query.not_before.into(),
                i64::from(query.limit).into(),
            ],
            sql: String::new(),
        };
        if let Some(caller) = query.caller {
            filter.bind("e.caller =", caller.to_owned());
        }
        if let Some(since) = query.since {
            filter.bind("e.ts >=", since);
        }
        if let Some(until) = query.until {
            filter.bind("e.ts <=", until);
        }
        if let Some(tool) = query.tool {
            filter.bind("e.tool =", tool.to_owned());
        }
        if let Some(status) = query.status {
            filter.bind("e.status =", status.to_owned());
        }
        if let Some(session) = query.session_id {
            filter.bind("e.session_id =", session.to_owned());
        }
        if let Eligible::Searchable {
            include_pending,
            min_trust,
        } = query.eligible
        {
            filter.bind("(e.trust IS NULL OR e.trust >=", min_trust);
            filter.sql.push_str(if include_pending {
                ") AND e.eligibility IN ('eligible', 'pending')"
            } else {
                ") AND e.eligibility = 'eligible'"
            });
        }
        if let Some(except) = query.unstamped_except {
            filter
                .sql
                .push_str(" AND e.session_id IS NOT NULL AND e.task_result IS NULL");
            for tool in except {
                filter.bind("e.tool <>", (*tool).to_owned());
            }
        }
        let Filter {
            mut values,
            sql: conditions,
        } = filter;
        let sql = match &query.text {
            None => format!(
                "SELECT {COLUMNS} FROM episodes e
                 WHERE e.vault_id = ?1 AND e.blocked = 0 AND e.ts >= ?2{conditions}
                 ORDER BY e.seq DESC LIMIT ?3"
            ),
            Some(text) => {
                values.push(match_expression(text).into());
                format!(
                    "SELECT {COLUMNS} FROM episodes_fts CROSS JOIN episodes e
                         ON e.seq = episodes_fts.rowid
                     WHERE episodes_fts MATCH ?{} AND e.vault_id = ?1 AND e.blocked = 0
                       AND e.ts >= ?2{conditions}
                     ORDER BY episodes_fts.rowid DESC LIMIT ?3",
                    values.len()
                )
            }
        };
        self.store.read(|conn| {
            let mut statement = conn.prepare_cached(&sql)?;
            let rows = statement
                .query_map(params_from_iter(values), row)?
                .collect::<Result<Vec<_>, _>>()?;
            with_paths(conn, rows)
        })
    }

    /// Episode `id` of the vault, of `caller` (any caller when `None`), unless it is
    /// forgotten or past the retention window.
    pub fn get(
        &self,
        vault_id: &str,
        caller: Option<&str>,
        id: &str,
        not_before: i64,
    ) -> Result<Option<EpisodeRow>, StoreError> {
        self.store.read(|conn| {
            let found = conn
                .prepare_cached(&format!(
                    "SELECT {COLUMNS} FROM episodes e
                     WHERE e.id = ?1 AND e.vault_id = ?2 AND (?3 IS NULL OR e.caller = ?3)
                       AND e.blocked = 0 AND e.ts >= ?4"
                ))?
                .query_row(params![id, vault_id, caller, not_before], row)
                .optional()?;
            Ok(with_paths(conn, found.into_iter().collect())?.pop())
        })
    }

    /// How many episodes of the vault (every caller, none forgotten or expired) there are per
    /// value of `group_by`, between `since` and `until`, largest first.
    pub fn counts(
        &self,
        vault_id: &str,
        group_by: GroupBy,
        window: (i64, Option<i64>, Option<i64>),
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let (not_before, since, until) = window;
        let column = group_by.column();
        self.store.read(|conn| {
            let mut statement = conn.prepare_cached(&format!(
                "SELECT {column}, COUNT(*) FROM episodes
                 WHERE vault_id = ?1 AND blocked = 0 AND ts >= ?2
                   AND (?3 IS NULL OR ts >= ?3) AND (?4 IS NULL OR ts <= ?4)
                 GROUP BY {column} ORDER BY COUNT(*) DESC, {column}"
            ))?;
            let counts = statement
                .query_map(params![vault_id, not_before, since, until], |row| {
                    let count: i64 = row.get(1)?;
                    Ok((row.get(0)?, u64::try_from(count).unwrap_or_default()))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(counts)
        })
    }
}

/// The conditions of a read after the fixed ones, and the values they bind (`?1` the vault,
/// `?2` the retention cutoff, `?3` the limit).
struct Filter {
    values: Vec<SqlValue>,
    sql: String,
}

impl Filter {
    /// Appends ` AND {condition} ?n` binding `value`.
    fn bind(&mut self, condition: &str, value: impl Into<SqlValue>) {
        self.values.push(value.into());
        self.sql
            .push_str(&format!(" AND {condition} ?{}", self.values.len()));
    }
}

/// The FTS5 expression of `text`: each word a quoted phrase, all required; restricted to the
/// tool, summary and tags columns unless the arguments are matched too.
fn match_expression(text: &TextMatch) -> String {
    let columns = if text.in_arguments {
        ""
    } else {
        "{tool summary tags} : "
    };
    text.words
        .iter()
        .map(|word| format!("{columns}\"{}\"", word.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// An episode from a row of [`COLUMNS`], with its sequence number (paths still empty).
fn row(row: &Row<'_>) -> rusqlite::Result<(i64, EpisodeRow)> {
    Ok((
        row.get(0)?,
        EpisodeRow {
            id: row.get(1)?,
            ts: row.get(2)?,
            session_id: row.get(3)?,
            caller: row.get(4)?,
            tool: row.get(5)?,
            status: row.get(6)?,
            error_code: row.get(7)?,
            duration_ms: row.get(8)?,
            result_size: row.get(9)?,
            args_hash: row.get(10)?,
            args_json: row.get(11)?,
            prev_id: row.get(12)?,
            scan_risk: row.get(13)?,
            tags: row.get(14)?,
            trust: row.get(15)?,
            eligibility: row.get(16)?,
            task_result: row.get(17)?,
            summary: row.get(18)?,
            paths: Vec::new(),
        },
    ))
}

/// The episodes with their paths read.
fn with_paths(
    conn: &Connection,
    rows: Vec<(i64, EpisodeRow)>,
) -> Result<Vec<EpisodeRow>, StoreError> {
    let mut statement =
        conn.prepare_cached("SELECT path FROM episode_paths WHERE episode_seq = ?1 ORDER BY path")?;
    rows.into_iter()
        .map(|(seq, mut episode)| {
            episode.paths = statement
                .query_map([seq], |row| row.get(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(episode)
        })
        .collect()
}
