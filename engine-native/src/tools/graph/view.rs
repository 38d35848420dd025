//! [`GraphView`]: the resolved, typed link graph of the notes one caller may read.
//!
//! Links come from the vault's resolved link table ([`LinkTable`]: every kind, wikilink,
//! embed, markdown link, frontmatter relation, resolved the way Obsidian resolves them over
//! every file of the vault, so a link to an attachment is resolved but is no edge). Notes the caller may not read are removed BEFORE anything is computed: they
//! are no node, their links are no edge, and no walk passes through them.

use std::collections::{BTreeSet, HashMap};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::errors::{ErrorCode, ToolError};
use crate::index::links::LinkTable;
use crate::runtime::ToolContext;
use crate::tools::common::link_table::link_table;

/// How one note links another.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub(crate) enum EdgeKind {
    /// `[[Note]]`.
    Wikilink,
    /// `![[Note]]` or `![](Note.md)`.
    Embed,
    /// `[text](Note.md)`.
    Markdown,
    /// A wikilink in a frontmatter property (`up: "[[Note]]"`): a typed relation.
    FrontmatterRelation,
}

impl EdgeKind {
    /// The kind of a stored link row (`links.kind`).
    fn from_stored(kind: &str) -> Option<EdgeKind> {
        match kind {
            "wikilink" => Some(EdgeKind::Wikilink),
            "embed" => Some(EdgeKind::Embed),
            "markdown" => Some(EdgeKind::Markdown),
            "frontmatter" => Some(EdgeKind::FrontmatterRelation),
            _ => None,
        }
    }
}

/// The readable notes and the typed links among them. Node ids index `notes`, which is
/// sorted by path, so every walk in id order is deterministic.
#[derive(Debug, Default)]
pub(crate) struct GraphView {
    /// The readable notes' paths, sorted.
    pub notes: Vec<String>,
    ids: HashMap<String, usize>,
    /// Per note: (target, kinds) of its outgoing links, by target id.
    out: Vec<Vec<(usize, BTreeSet<EdgeKind>)>>,
    /// Per note: (source, kinds) of the links to it, by source id.
    inc: Vec<Vec<(usize, BTreeSet<EdgeKind>)>>,
    /// Links written in readable notes that name no file of the vault.
    pub unresolved: usize,
    /// Links written in readable notes (resolved or not, self-links excluded).
    pub links_total: usize,
}

impl GraphView {
    /// The graph of the notes the caller of `ctx` may read, from its vault's link table.
    pub fn load(ctx: &ToolContext<'_>) -> Result<GraphView, ToolError> {
        let table = link_table(ctx)?;
        let readable = |path: &str| ctx.may_list(path);
        Ok(GraphView::build(&table, &readable))
    }

    /// The graph of the notes of `table` that `readable` admits.
    fn build(table: &LinkTable, readable: &dyn Fn(&str) -> bool) -> GraphView {
        let mut view = GraphView::default();
        for path in table.notes().iter().filter(|path| readable(path)) {
            view.ids.insert(path.clone(), view.notes.len());
            view.notes.push(path.clone());
        }
        let mut edges: HashMap<(usize, usize), BTreeSet<EdgeKind>> = HashMap::new();
        for link in table.all() {
            let Some(&source) = view.ids.get(&link.source) else {
                continue;
            };
            let Some(kind) = EdgeKind::from_stored(&link.kind) else {
                continue;
            };
            let Some(target) = link.resolved.as_deref() else {
                view.links_total += 1;
                view.unresolved += 1;
                continue;
            };
            if target == link.source {
                continue;
            }
            view.links_total += 1;
            if let Some(&target) = view.ids.get(target) {
                edges.entry((source, target)).or_default().insert(kind);
            }
        }
        view.out = vec![Vec::new(); view.notes.len()];
        view.inc = vec![Vec::new(); view.notes.len()];
        let mut sorted: Vec<((usize, usize), BTreeSet<EdgeKind>)> = edges.into_iter().collect();
        sorted.sort_by_key(|(pair, _)| *pair);
        for ((source, target), kinds) in sorted {
            view.out[source].push((target, kinds.clone()));
            view.inc[target].push((source, kinds));
        }
        view.inc
            .iter_mut()
            .for_each(|list| list.sort_by_key(|e| e.0));
        view
    }

    /// The number of readable notes.
    pub fn len(&self) -> usize {
        self.notes.len()
    }

    /// The id of the note at `path`, or `not_found` naming it.
    pub fn id(&self, path: &str) -> Result<usize, ToolError> {
        self.ids.get(path).copied().ok_or_else(|| {
            ToolError::new(
                ErrorCode::NotFound,
                format!(
                    "'{path}' is not an indexed note of this vault: give the note's full vault-relative path with '.md' (run index_vault if it was just created)"
                ),
            )
        })
    }

    /// The path of note `id`.
    pub fn path(&self, id: usize) -> &str {
        &self.notes[id]
    }

    /// The outgoing links of `id`: (target, kinds), by target id.
    pub fn outgoing(&self, id: usize) -> &[(usize, BTreeSet<EdgeKind>)] {
        &self.out[id]
    }

    /// The links to `id`: (source, kinds), by source id.
    pub fn incoming(&self, id: usize) -> &[(usize, BTreeSet<EdgeKind>)] {
        &self.inc[id]
    }

    /// The ids linked with `id` either way, sorted, each once.
    pub fn neighbours(&self, id: usize) -> Vec<usize> {
        let mut all: Vec<usize> = self.out[id]
            .iter()
            .chain(&self.inc[id])
            .map(|(other, _)| *other)
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The kinds of the link `from` → `to` (empty when there is none).
    pub fn kinds(&self, from: usize, to: usize) -> Vec<EdgeKind> {
        self.out[from]
            .binary_search_by_key(&to, |e| e.0)
            .map(|at| self.out[from][at].1.iter().copied().collect())
            .unwrap_or_default()
    }

    /// The number of directed edges.
    pub fn edge_count(&self) -> usize {
        self.out.iter().map(Vec::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::LinkDetailRow;

    fn row(source: &str, kind: &str, target: &str) -> LinkDetailRow {
        LinkDetailRow {
            source: source.to_owned(),
            kind: kind.to_owned(),
            target: target.to_owned(),
            subpath: None,
            line: 1,
        }
    }

    #[test]
    fn hidden_notes_are_no_node_and_attachments_are_resolved_but_no_edge() {
        let notes: Vec<String> = ["a.md", "b.md", "secret/s.md"]
            .iter()
            .map(|p| (*p).to_owned())
            .collect();
        let rows = vec![
            row("a.md", "wikilink", "b"),
            row("a.md", "frontmatter", "b"),
            row("a.md", "wikilink", "s"),
            row("a.md", "embed", "pic.png"),
            row("a.md", "wikilink", "nowhere"),
            row("secret/s.md", "wikilink", "b"),
        ];
        let files: Vec<String> = notes
            .iter()
            .cloned()
            .chain(["pic.png".to_owned()])
            .collect();
        let table = LinkTable::build(&files, notes, rows);
        let view = GraphView::build(&table, &|p: &str| !p.starts_with("secret/"));
        assert_eq!(view.notes, ["a.md", "b.md"]);
        assert_eq!(
            view.kinds(0, 1),
            [EdgeKind::Wikilink, EdgeKind::FrontmatterRelation]
        );
        assert_eq!(view.incoming(1).len(), 1);
        assert_eq!(view.unresolved, 1);
        assert_eq!(view.links_total, 5);
    }
}
