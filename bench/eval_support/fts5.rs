//! The same-run baseline: SQLite FTS5 with the `porter unicode61` tokenizer and its `bm25()`
//! ranking (k1 1.2, b 0.75, every column weight 1) over the same notes (a title column and a
//! text column), queried with an OR of the query's words, stop words kept — the setup of
//! shared/reference/retrieval.md §1.1 (SciFact nDCG@10 0.6824 measured there).

use std::time::Instant;

use rusqlite::{Connection, params};

/// An in-memory FTS5 index of documents keyed by a string.
pub struct Fts5 {
    conn: Connection,
}

impl Fts5 {
    /// Indexes `(key, title, text)` documents in one transaction; returns the index and the
    /// time it took, milliseconds.
    pub fn build<'a>(
        docs: impl Iterator<Item = (&'a str, &'a str, &'a str)>,
    ) -> Result<(Fts5, f64), String> {
        let sql = |e: rusqlite::Error| format!("FTS5: {e}");
        let start = Instant::now();
        let mut conn = Connection::open_in_memory().map_err(sql)?;
        conn.execute_batch(
            "CREATE VIRTUAL TABLE docs USING fts5(key UNINDEXED, title, text, \
             tokenize = 'porter unicode61');",
        )
        .map_err(sql)?;
        let tx = conn.transaction().map_err(sql)?;
        {
            let mut insert = tx
                .prepare("INSERT INTO docs (key, title, text) VALUES (?1, ?2, ?3)")
                .map_err(sql)?;
            for (key, title, text) in docs {
                insert.execute(params![key, title, text]).map_err(sql)?;
            }
        }
        tx.commit().map_err(sql)?;
        Ok((Fts5 { conn }, start.elapsed().as_secs_f64() * 1e3))
    }

    /// The keys of the best `k` documents for `query`, best first (none when the query has
    /// no words).
    pub fn search(&self, query: &str, k: usize) -> Result<Vec<String>, String> {
        let Some(expression) = or_query(query) else {
            return Ok(Vec::new());
        };
        let sql = |e: rusqlite::Error| format!("FTS5 query {expression:?}: {e}");
        let mut statement = self
            .conn
            .prepare_cached("SELECT key FROM docs WHERE docs MATCH ?1 ORDER BY bm25(docs) LIMIT ?2")
            .map_err(sql)?;
        let limit = i64::try_from(k).unwrap_or(i64::MAX);
        let rows = statement
            .query_map(params![expression, limit], |row| row.get::<_, String>(0))
            .map_err(sql)?;
        rows.collect::<Result<_, _>>().map_err(sql)
    }
}

/// `"w1" OR "w2" ...` over the query's words (runs of letters and digits), each quoted so
/// no word is read as FTS5 syntax.
fn or_query(query: &str) -> Option<String> {
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| format!("\"{w}\""))
        .collect();
    (!words.is_empty()).then(|| words.join(" OR "))
}
