//! The facts of each indexed note that rule-based search (JSONLogic) filters on: the
//! frontmatter, size, modification time, tags, aliases and outgoing link count, read in one
//! query from the rows the indexer keeps.

use serde_json::{Map, Value};

use super::{Store, StoreError};

/// What the index knows about one note, beyond its text.
#[derive(Debug, Clone, PartialEq)]
pub struct NoteFacts {
    /// The note's vault-relative path.
    pub path: String,
    /// Its frontmatter properties (`{}` without frontmatter).
    pub frontmatter: Map<String, Value>,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, Unix milliseconds.
    pub mtime: i64,
    /// Tag keys (lowercase, no `#`), sorted.
    pub tags: Vec<String>,
    /// Aliases, sorted.
    pub aliases: Vec<String>,
    /// Outgoing links and embeds (body and frontmatter).
    pub links: u64,
}

/// The facts repository of a [`Store`].
#[derive(Debug, Clone, Copy)]
pub struct NoteFactsRepo<'s> {
    store: &'s Store,
}

impl<'s> NoteFactsRepo<'s> {
    pub(super) fn new(store: &'s Store) -> Self {
        Self { store }
    }

    /// The facts of every indexed note of `vault`, by path.
    pub fn all(&self, vault: &str) -> Result<Vec<NoteFacts>, StoreError> {
        self.store.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT n.path, n.frontmatter_json, n.size, n.mtime,
                        (SELECT json_group_array(tag) FROM
                            (SELECT tag FROM tags t
                             WHERE t.vault_id = n.vault_id AND t.path = n.path ORDER BY tag)),
                        (SELECT json_group_array(alias) FROM
                            (SELECT alias FROM aliases a
                             WHERE a.vault_id = n.vault_id AND a.path = n.path ORDER BY alias)),
                        (SELECT count(*) FROM links l
                         WHERE l.vault_id = n.vault_id AND l.source_path = n.path)
                 FROM notes n WHERE n.vault_id = ?1 ORDER BY n.path",
            )?;
            let rows = stmt.query_map([vault], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, i64>(6)?,
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (path, frontmatter, size, mtime, tags, aliases, links) = row?;
                out.push(NoteFacts {
                    path,
                    frontmatter: serde_json::from_str(&frontmatter)?,
                    size: u64::try_from(size).unwrap_or(0),
                    mtime,
                    tags: serde_json::from_str(&tags)?,
                    aliases: serde_json::from_str(&aliases)?,
                    links: u64::try_from(links).unwrap_or(0),
                });
            }
            Ok(out)
        })
    }
}
