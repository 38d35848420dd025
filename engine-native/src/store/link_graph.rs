//! The rows the link table is built from: every indexed note's path and every stored link
//! (as written, unresolved) of a vault. Resolution is the caller's (engine-core's
//! [`engine_core::links::LinkResolver`]), so the graph follows Obsidian's rules.

use super::{Store, StoreError};

/// One stored link with everything the link tools report about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkDetailRow {
    /// The vault-relative path of the note the link is in.
    pub source: String,
    /// `wikilink`, `embed`, `markdown` or `frontmatter`.
    pub kind: String,
    /// The target's file part as written; empty for a same-note reference.
    pub target: String,
    /// `#Heading` or `#^block`, when the link points inside its target.
    pub subpath: Option<String>,
    /// The 1-based line of the link (0 for a frontmatter link).
    pub line: u32,
}

/// The link-graph repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct LinkGraphRows<'s> {
    store: &'s Store,
}

impl<'s> LinkGraphRows<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// The path of every indexed note of `vault`, sorted.
    pub fn note_paths(&self, vault: &str) -> Result<Vec<String>, StoreError> {
        self.store.read(|conn| {
            let mut stmt =
                conn.prepare("SELECT path FROM notes WHERE vault_id = ?1 ORDER BY path")?;
            let rows = stmt.query_map([vault], |r| r.get::<_, String>(0))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// Every stored link of `vault` with its kind, subpath and line, ordered by source note
    /// and line (same-note references included).
    pub fn link_details(&self, vault: &str) -> Result<Vec<LinkDetailRow>, StoreError> {
        self.store.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT source_path, kind, target, subpath, line FROM links
                 WHERE vault_id = ?1 ORDER BY source_path, line, rowid",
            )?;
            let rows = stmt.query_map([vault], detail_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }

    /// The stored links written in each note of `sources` of `vault`, ordered by source
    /// note and line like [`LinkGraphRows::link_details`].
    pub fn link_details_of(
        &self,
        vault: &str,
        sources: &[&str],
    ) -> Result<Vec<LinkDetailRow>, StoreError> {
        let mut sources = sources.to_vec();
        sources.sort_unstable();
        sources.dedup();
        self.store.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT source_path, kind, target, subpath, line FROM links
                 WHERE vault_id = ?1 AND source_path = ?2 ORDER BY line, rowid",
            )?;
            let mut out = Vec::new();
            for source in sources {
                let rows = stmt.query_map([vault, source], detail_row)?;
                for row in rows {
                    out.push(row?);
                }
            }
            Ok(out)
        })
    }

    /// Every `(note path, alias)` of `vault`, sorted.
    pub fn aliases(&self, vault: &str) -> Result<Vec<(String, String)>, StoreError> {
        self.store.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT path, alias FROM aliases WHERE vault_id = ?1 ORDER BY path, alias",
            )?;
            let rows = stmt.query_map([vault], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
    }
}

/// One `SELECT source_path, kind, target, subpath, line FROM links` row.
fn detail_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<LinkDetailRow> {
    Ok(LinkDetailRow {
        source: r.get(0)?,
        kind: r.get(1)?,
        target: r.get(2)?,
        subpath: r.get(3)?,
        line: r.get(4)?,
    })
}
