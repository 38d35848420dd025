//! The resolved link table of a vault: every stored link (wikilinks, embeds, markdown and
//! frontmatter links) with its kind, subpath and line, resolved the way Obsidian resolves it
//! (engine-core's [`LinkResolver`] over every file of the vault, attachments included), and
//! looked up both ways, and the note-to-note graph derived from it ([`LinkTable::graph`]).
//! [`LinkTables`] keeps one table per vault: a change this process made to the content of
//! notes is read into it from those notes' rows alone, any other change to the stored rows
//! (a note added or removed, another process's write, a file other than a note come or gone)
//! has it rebuilt on next use.
//!
//! The table holds every note's links, readable or not: the link tools filter by the
//! caller's ACL before they count or report anything.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
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
    /// Each note's links in line order, by source note.
    by_source: BTreeMap<String, Vec<ResolvedLink>>,
    /// For each file links resolve to, the links that do: their source and their place in
    /// the source's links.
    by_target: HashMap<String, BTreeSet<(String, usize)>>,
    notes: Vec<String>,
    resolver: Arc<LinkResolver>,
    files: FileSet,
    graph: OnceLock<LinkGraph>,
}

impl Clone for LinkTable {
    /// A copy of the links; the graph is derived again on first use.
    fn clone(&self) -> Self {
        LinkTable {
            by_source: self.by_source.clone(),
            by_target: self.by_target.clone(),
            notes: self.notes.clone(),
            resolver: Arc::clone(&self.resolver),
            files: self.files,
            graph: OnceLock::new(),
        }
    }
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
        let mut table = LinkTable {
            by_source: BTreeMap::new(),
            by_target: HashMap::new(),
            notes,
            resolver: Arc::new(resolver),
            files: FileSet::of(files.iter().map(String::as_str)),
            graph: OnceLock::new(),
        };
        table.add(rows);
        table
    }

    /// Replaces the links of the notes `sources` by `rows` (their links as stored now),
    /// resolved among the same files: what a change to the content of notes that were
    /// already in the vault makes of the table (no file was added or removed). Costs the
    /// links of those notes, not the vault's.
    pub fn rewrite(&mut self, sources: &[&str], rows: Vec<LinkDetailRow>) {
        for &source in sources {
            let Some(old) = self.by_source.remove(source) else {
                continue;
            };
            for (i, link) in old.iter().enumerate() {
                if let Some(target) = &link.resolved
                    && let Some(reaching) = self.by_target.get_mut(target)
                {
                    reaching.remove(&(link.source.clone(), i));
                    if reaching.is_empty() {
                        self.by_target.remove(target);
                    }
                }
            }
        }
        self.add(rows);
        self.graph = OnceLock::new();
    }

    /// Adds `rows` (ordered by source and line; no source already in the table).
    fn add(&mut self, rows: Vec<LinkDetailRow>) {
        for link in resolve_rows(&self.resolver, rows) {
            let links = self.by_source.entry(link.source.clone()).or_default();
            if let Some(target) = &link.resolved {
                self.by_target
                    .entry(target.clone())
                    .or_default()
                    .insert((link.source.clone(), links.len()));
            }
            links.push(link);
        }
    }

    /// The note-to-note edges of this table, built on first use.
    pub fn graph(&self) -> &LinkGraph {
        self.graph.get_or_init(|| LinkGraph::of(self))
    }

    /// Every link, ordered by source note and line.
    pub fn all(&self) -> impl Iterator<Item = &ResolvedLink> {
        self.by_source.values().flatten()
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
        self.by_source.get(path).into_iter().flatten()
    }

    /// The links of other notes that resolve to `path`, ordered by source and line.
    pub fn incoming<'a>(&'a self, path: &'a str) -> impl Iterator<Item = &'a ResolvedLink> {
        self.by_target
            .get(path)
            .into_iter()
            .flatten()
            .filter(move |(source, _)| source != path)
            .map(|(source, i)| &self.by_source[source][*i])
    }
}

/// `rows` resolved by `resolver` (a link written in a note whose path is not a valid vault
/// path resolves to nothing).
fn resolve_rows(resolver: &LinkResolver, rows: Vec<LinkDetailRow>) -> Vec<ResolvedLink> {
    rows.into_iter()
        .map(|row| {
            let resolved = if validate_vault_path(&row.source).is_err() {
                None
            } else {
                resolver
                    .resolve(&row.target, &row.source)
                    .first()
                    .map(str::to_owned)
            };
            ResolvedLink {
                source: row.source,
                kind: row.kind,
                target: row.target,
                subpath: row.subpath,
                line: row.line,
                resolved,
            }
        })
        .collect()
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
    /// moved on, brought up to date from the notes this process rewrote since, else rebuilt
    /// from the stored links and `files()` (every file of the vault).
    pub fn get(
        &self,
        store: &Store,
        id: &str,
        files: impl FnOnce() -> Result<Vec<String>, String>,
    ) -> Result<Arc<LinkTable>, LinkTableError> {
        self.tables.get_updated(
            store,
            id,
            || {
                let rows = store.link_graph();
                let notes = rows.note_paths(id)?;
                let links = rows.link_details(id)?;
                let files = files().map_err(LinkTableError::Listing)?;
                Ok(LinkTable::build(&files, notes, links))
            },
            |table, rewritten| {
                let sources: Vec<&str> = rewritten.iter().map(String::as_str).collect();
                let rows = store.link_graph().link_details_of(id, &sources)?;
                table.rewrite(&sources, rows);
                Ok(())
            },
        )
    }

    /// Notes that this process's change `applied` moved vault `id`'s rows on to
    /// `generation`: the kept table reads the rewritten notes' links again on next use. A
    /// change that added or removed a note forgets it (the files links resolve among
    /// changed), as does one made from another generation (another process changed the rows
    /// too).
    pub fn advance(&self, id: &str, generation: i64, applied: &RowsChanged<'_>) {
        if applied.files_changed {
            self.tables.forget(id);
        } else {
            self.tables.advance(id, generation, &applied.rewritten);
        }
    }

    /// Forgets the kept table of vault `id` unless it was built among exactly `files` (every
    /// file of the vault, as a scan just listed them).
    pub fn listed(&self, id: &str, files: &[&str]) {
        let now = FileSet::of(files.iter().copied());
        self.tables.forget_if(id, |table| table.files != now);
    }

    /// Forgets the kept table of vault `id` if the file at `path` (not a note) came or went
    /// since it was built: `exists` says whether it is there now.
    pub fn touched(&self, id: &str, path: &str, exists: bool) {
        self.tables.forget_if(id, |table| {
            (table.resolver.find(path) == Some(path)) != exists
        });
    }

    /// Forgets the kept table of vault `id`.
    pub fn forget(&self, id: &str) {
        self.tables.forget(id);
    }
}

/// Which files a table resolves links among, as a count and an order-free digest of their
/// paths: two listings of the same files agree, whatever their order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileSet {
    count: usize,
    digest: u64,
}

impl FileSet {
    /// The set of the valid vault paths among `files`.
    fn of<'a>(files: impl Iterator<Item = &'a str>) -> FileSet {
        // Fixed keys: every listing is hashed alike.
        let hasher = BuildHasherDefault::<DefaultHasher>::default();
        let mut set = FileSet {
            count: 0,
            digest: 0,
        };
        for file in files.filter(|p| validate_vault_path(p).is_ok()) {
            set.count += 1;
            set.digest = set.digest.wrapping_add(hasher.hash_one(file));
        }
        set
    }
}

/// What one change to a vault's stored rows did to its notes, as far as links go.
#[derive(Debug, Default)]
pub struct RowsChanged<'a> {
    /// The notes whose rows were replaced (their content changed) and that were in the
    /// vault before.
    pub rewritten: Vec<&'a str>,
    /// Whether a note was added or removed (the files links resolve among changed).
    pub files_changed: bool,
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

    #[test]
    fn a_rewritten_note_reads_like_a_table_built_afresh() {
        let files: Vec<String> = ["a.md", "b.md", "c.md", "img.png"]
            .map(str::to_owned)
            .to_vec();
        let notes: Vec<String> = ["a.md", "b.md", "c.md"].map(str::to_owned).to_vec();
        let before = LinkTable::build(
            &files,
            notes.clone(),
            vec![
                row("a.md", "b", 1),
                row("b.md", "c", 2),
                row("c.md", "a", 1),
            ],
        );
        let b_now = vec![
            row("b.md", "a", 1),
            row("b.md", "img.png", 3),
            row("b.md", "gone", 4),
        ];
        let mut patched = before.clone();
        patched.rewrite(&["b.md"], b_now.clone());
        let afresh = LinkTable::build(
            &files,
            notes,
            vec![
                row("a.md", "b", 1),
                b_now[0].clone(),
                b_now[1].clone(),
                b_now[2].clone(),
                row("c.md", "a", 1),
            ],
        );
        let all = |t: &LinkTable| t.all().cloned().collect::<Vec<_>>();
        assert_eq!(all(&patched), all(&afresh));
        assert_eq!(
            all(&before).len(),
            3,
            "the copy was rewritten, not the table"
        );
        for path in ["a.md", "b.md", "c.md", "img.png"] {
            let incoming = |t: &LinkTable| t.incoming(path).cloned().collect::<Vec<_>>();
            assert_eq!(incoming(&patched), incoming(&afresh), "incoming of {path}");
            let outgoing = |t: &LinkTable| t.outgoing(path).cloned().collect::<Vec<_>>();
            assert_eq!(outgoing(&patched), outgoing(&afresh), "outgoing of {path}");
        }
        assert_eq!(
            patched.incoming("c.md").count(),
            0,
            "b.md no longer links to c.md"
        );
    }

    #[test]
    fn a_file_set_is_the_same_in_any_order_and_changes_with_any_file() {
        let a = FileSet::of(["a.md", "b/c.png", "d.md"].into_iter());
        assert_eq!(a, FileSet::of(["d.md", "a.md", "b/c.png"].into_iter()));
        assert_ne!(a, FileSet::of(["a.md", "b/c.png"].into_iter()));
        assert_ne!(a, FileSet::of(["a.md", "b/c.png", "e.md"].into_iter()));
        assert_ne!(
            a,
            FileSet::of(["a.md", "b/c.png", "d.md", "x.pdf"].into_iter())
        );
    }
}
