//! The resolved link table of a vault: every stored link (wikilinks, embeds, markdown and
//! frontmatter links) with its kind, subpath and line, resolved the way Obsidian resolves it
//! (engine-core's [`LinkResolver`] over every file of the vault, attachments included), and
//! looked up both ways, and the note-to-note graph derived from it ([`LinkTable::graph`]).
//! [`LinkTables`] keeps one table per vault and rebuilds it when the vault's index
//! generation moves on (every change to the stored rows bumps it).
//!
//! The table holds every note's links, readable or not: the link tools filter by the
//! caller's ACL before they count or report anything.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use engine_core::links::{LinkResolver, validate_vault_path};

use super::generations::PerGeneration;
use super::graph::LinkGraph;
use crate::store::{LinkDetailRow, Store, StoreError};

/// One link of a note, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedLink {
    /// The note the link is written in.
    pub source: String,
    /// `wikilink`, `embed`, `markdown` or `frontmatter`.
    pub kind: String,
    /// The target's file part as written (empty for a same-note reference).
    pub target: String,
    /// `#Heading` or `#^block`, when it points inside its target.
    pub subpath: Option<String>,
    /// The 1-based line (0 for a frontmatter link).
    pub line: u32,
    /// The file Obsidian opens for it (the source itself for a same-note reference);
    /// `None` when it is unresolved.
    pub resolved: Option<String>,
}

/// Every link of a vault, resolved, by source and by resolved target.
#[derive(Debug)]
pub struct LinkTable {
    links: Vec<ResolvedLink>,
    by_source: HashMap<String, Vec<usize>>,
    by_target: HashMap<String, Vec<usize>>,
    notes: Vec<String>,
    resolver: LinkResolver,
    graph: OnceLock<LinkGraph>,
}

impl LinkTable {
    /// The table of `rows` resolved among `files` (every file of the vault); `notes` are the
    /// indexed notes. Paths that are not valid vault paths are left out of the resolver.
    pub fn build(files: &[String], notes: Vec<String>, rows: Vec<LinkDetailRow>) -> LinkTable {
        let valid = files.iter().filter(|p| validate_vault_path(p).is_ok());
        let resolver = LinkResolver::new(valid).unwrap_or_else(|_| {
            // Every path was validated just above.
            unreachable!("a validated path was refused by the resolver")
        });
        let mut links = Vec::with_capacity(rows.len());
        let mut by_source: HashMap<String, Vec<usize>> = HashMap::new();
        let mut by_target: HashMap<String, Vec<usize>> = HashMap::new();
        for row in rows {
            let resolved = if validate_vault_path(&row.source).is_err() {
                None
            } else {
                resolver
                    .resolve(&row.target, &row.source)
                    .first()
                    .map(str::to_owned)
            };
            let i = links.len();
            by_source.entry(row.source.clone()).or_default().push(i);
            if let Some(target) = &resolved {
                by_target.entry(target.clone()).or_default().push(i);
            }
            links.push(ResolvedLink {
                source: row.source,
                kind: row.kind,
                target: row.target,
                subpath: row.subpath,
                line: row.line,
                resolved,
            });
        }
        LinkTable {
            links,
            by_source,
            by_target,
            notes,
            resolver,
            graph: OnceLock::new(),
        }
    }

    /// The note-to-note edges of this table, built on first use.
    pub fn graph(&self) -> &LinkGraph {
        self.graph.get_or_init(|| LinkGraph::of(self))
    }

    /// Every link, ordered by source note and line.
    pub fn all(&self) -> &[ResolvedLink] {
        &self.links
    }

    /// The indexed notes, sorted.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The resolver over every file of the vault the table was built from.
    pub fn resolver(&self) -> &LinkResolver {
        &self.resolver
    }

    /// The links written in `path`, in line order.
    pub fn outgoing(&self, path: &str) -> impl Iterator<Item = &ResolvedLink> {
        self.indexed(self.by_source.get(path))
    }

    /// The links of other notes that resolve to `path`, ordered by source and line.
    pub fn incoming<'a>(&'a self, path: &'a str) -> impl Iterator<Item = &'a ResolvedLink> {
        self.indexed(self.by_target.get(path))
            .filter(move |link| link.source != path)
    }

    fn indexed<'a>(&'a self, at: Option<&'a Vec<usize>>) -> impl Iterator<Item = &'a ResolvedLink> {
        at.into_iter().flatten().map(|&i| &self.links[i])
    }
}

/// Why a link table could not be built.
#[derive(Debug)]
pub enum LinkTableError {
    /// The cache database failed.
    Store(StoreError),
    /// Listing the vault's files failed (the message says why).
    Listing(String),
}

impl std::fmt::Display for LinkTableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkTableError::Store(error) => write!(f, "the cache database failed: {error}"),
            LinkTableError::Listing(error) => write!(f, "listing the vault failed: {error}"),
        }
    }
}

impl std::error::Error for LinkTableError {}

/// One [`LinkTable`] per vault, kept per index generation.
#[derive(Debug, Default)]
pub struct LinkTables {
    tables: PerGeneration<LinkTable>,
}

impl LinkTables {
    /// The link table of vault `id`: the kept one while the vault's index generation has not
    /// moved on, else rebuilt from the stored links and `files()` (every file of the vault).
    pub fn get(
        &self,
        store: &Store,
        id: &str,
        files: impl FnOnce() -> Result<Vec<String>, String>,
    ) -> Result<Arc<LinkTable>, LinkTableError> {
        self.tables.get(store, id, || {
            let rows = store.link_graph();
            let notes = rows.note_paths(id)?;
            let links = rows.link_details(id)?;
            let files = files().map_err(LinkTableError::Listing)?;
            Ok(LinkTable::build(&files, notes, links))
        })
    }

    /// Forgets the kept table of vault `id`.
    pub fn forget(&self, id: &str) {
        self.tables.forget(id);
    }
}

impl From<StoreError> for LinkTableError {
    fn from(error: StoreError) -> Self {
        LinkTableError::Store(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(source: &str, target: &str, line: u32) -> LinkDetailRow {
        LinkDetailRow {
            source: source.to_owned(),
            kind: "wikilink".to_owned(),
            target: target.to_owned(),
            subpath: None,
            line,
        }
    }

    #[test]
    fn links_resolve_over_every_file_and_index_both_ways() {
        let files: Vec<String> = ["a.md", "sub/b.md", "img.png"].map(str::to_owned).to_vec();
        let table = LinkTable::build(
            &files,
            vec!["a.md".to_owned(), "sub/b.md".to_owned()],
            vec![
                row("a.md", "b", 1),
                row("a.md", "img.png", 2),
                row("a.md", "missing", 3),
                row("a.md", "", 4),
                row("sub/b.md", "A", 1),
            ],
        );
        let out: Vec<Option<&str>> = table
            .outgoing("a.md")
            .map(|l| l.resolved.as_deref())
            .collect();
        assert_eq!(out, [Some("sub/b.md"), Some("img.png"), None, Some("a.md")]);
        let incoming: Vec<&str> = table.incoming("a.md").map(|l| l.source.as_str()).collect();
        assert_eq!(
            incoming,
            ["sub/b.md"],
            "a same-note reference is no backlink"
        );
    }
}
