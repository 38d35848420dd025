//! The gap passes: each run of a query set through the ranked search (`obsidian-tc gaps`,
//! the `run_gap_pass` tool) kept as one `gap_passes` row (when, where the queries came from,
//! the ranking, the floor and `min_results`, whether the budget let it finish) and one
//! `gap_reports` row per query (its top score, how many notes it found, whether it is a gap,
//! the nearest notes as JSON). Only the newest 3 (`KEPT_PASSES`) passes of a vault are kept.
//! `gap_report` reads the newest.

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError};

/// How many passes of a vault are kept (the newest).
pub const KEPT_PASSES: i64 = 3;

/// One query of a pass, as measured.
#[derive(Debug, Clone, PartialEq)]
pub struct GapItem {
    /// The query.
    pub query: String,
    /// The note the query was derived from (a title query), which a reader must be able to
    /// read to see it.
    pub source_path: Option<String>,
    /// The best note's score, when the query found any.
    pub top_score: Option<f64>,
    /// How many notes the ranking returned (up to the pass's depth).
    pub results: u32,
    /// Whether it is a gap: no score at or over the floor, or fewer than `min_results`.
    pub gap: bool,
    /// The nearest notes, best first, as `(path, score)`.
    pub nearest: Vec<(String, f64)>,
}

/// A pass to keep.
#[derive(Debug, Clone, Copy)]
pub struct NewGapPass<'a> {
    /// The vault.
    pub vault_id: &'a str,
    /// When, Unix seconds.
    pub computed_at: i64,
    /// `queries` (a query set given) or `titles` (the vault's note titles).
    pub source: &'a str,
    /// The ranking: `lexical` or `hybrid`.
    pub mode: &'a str,
    /// The floor of the top score.
    pub threshold: f64,
    /// The fewest results a query must have.
    pub min_results: u32,
    /// Whether every query of the set ran within the budget.
    pub complete: bool,
    /// The queries measured, in order.
    pub items: &'a [GapItem],
}

/// A kept pass, read back.
#[derive(Debug, Clone, PartialEq)]
pub struct GapPass {
    /// Its row id.
    pub id: i64,
    /// When, Unix seconds.
    pub computed_at: i64,
    /// `queries` or `titles`.
    pub source: String,
    /// The ranking.
    pub mode: String,
    /// The floor of the top score.
    pub threshold: f64,
    /// The fewest results a query must have.
    pub min_results: u32,
    /// Whether every query ran.
    pub complete: bool,
    /// The queries, with their ids (1-based, in pass order).
    pub items: Vec<(i64, GapItem)>,
}

/// The gap-pass repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct GapReports<'s> {
    store: &'s Store,
}

impl<'s> GapReports<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// Keeps `pass` and its queries in one transaction, dropping the vault's passes older
    /// than the newest 3 (`KEPT_PASSES`); returns its id.
    pub fn save(&self, pass: &NewGapPass<'_>) -> Result<i64, StoreError> {
        self.store.write(|tx| {
            tx.execute(
                "INSERT INTO gap_passes (vault_id, computed_at, source, mode, threshold,
                                         min_results, complete)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    pass.vault_id,
                    pass.computed_at,
                    pass.source,
                    pass.mode,
                    pass.threshold,
                    pass.min_results,
                    pass.complete
                ],
            )?;
            let id = tx.last_insert_rowid();
            let mut insert = tx.prepare_cached(
                "INSERT INTO gap_reports (pass_id, vault_id, id, query, source_path, top_score,
                                          results, gap, nearest)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )?;
            for (n, item) in (1_i64..).zip(pass.items) {
                let nearest = serde_json::to_string(&item.nearest).unwrap_or_default();
                insert.execute(params![
                    id,
                    pass.vault_id,
                    n,
                    item.query,
                    item.source_path,
                    item.top_score,
                    item.results,
                    item.gap,
                    nearest
                ])?;
            }
            tx.execute(
                "DELETE FROM gap_passes WHERE vault_id = ?1 AND id NOT IN (
                     SELECT id FROM gap_passes WHERE vault_id = ?1 ORDER BY id DESC LIMIT ?2)",
                params![pass.vault_id, KEPT_PASSES],
            )?;
            Ok(id)
        })
    }

    /// The vault's newest pass with its queries, if any.
    pub fn latest(&self, vault: &str) -> Result<Option<GapPass>, StoreError> {
        self.store.read(|conn| {
            let pass = conn
                .query_row(
                    "SELECT id, computed_at, source, mode, threshold, min_results, complete
                     FROM gap_passes WHERE vault_id = ?1 ORDER BY id DESC LIMIT 1",
                    [vault],
                    |r| {
                        Ok(GapPass {
                            id: r.get(0)?,
                            computed_at: r.get(1)?,
                            source: r.get(2)?,
                            mode: r.get(3)?,
                            threshold: r.get(4)?,
                            min_results: r.get(5)?,
                            complete: r.get(6)?,
                            items: Vec::new(),
                        })
                    },
                )
                .optional()?;
            let Some(mut pass) = pass else {
                return Ok(None);
            };
            let mut items = conn.prepare_cached(
                "SELECT id, query, source_path, top_score, results, gap, nearest
                 FROM gap_reports WHERE pass_id = ?1 ORDER BY id",
            )?;
            pass.items = items
                .query_map([pass.id], |r| {
                    let nearest: String = r.get(6)?;
                    Ok((
                        r.get(0)?,
                        GapItem {
                            query: r.get(1)?,
                            source_path: r.get(2)?,
                            top_score: r.get(3)?,
                            results: r.get(4)?,
                            gap: r.get(5)?,
                            nearest: serde_json::from_str(&nearest).unwrap_or_default(),
                        },
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Some(pass))
        })
    }
}
