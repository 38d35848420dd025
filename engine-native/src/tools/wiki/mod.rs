//! The wiki family: a wiki kept as notes in the vault's wiki folder (`vaults[].wiki`), with
//! page types and vocabulary in its `SCHEMA.md`.
//!
//! - `find_existing_page` ([`find`]): whether a page for a topic exists (identity evidence,
//!   similarity, the optional judge).
//! - `lint_wiki` ([`lint`]): read-only proposals (orphans, unresolved links, stale pages,
//!   missing sources, near-duplicates, the generated index, raw sources no page covers).
//! - `draft_wiki_page` ([`draft`]): the dedupe verdict, the schema's requirements, a link
//!   map and a changeset skeleton; never writes.
//! - `commit_wiki_page` ([`commit`]): a page and its link patches, all or nothing, then the
//!   wiki's `index.md` and `log.md`.
//!
//! Shared inside the family: the schema ([`schema`]), the pages and the wiki's place
//! ([`pages`]), identity evidence and the verdict ([`identity`]), similarity ([`similar`]),
//! the judge seam ([`judge`]), the generated files ([`catalog`]) and the texts a commit
//! writes ([`compose`]).

pub mod catalog;
pub mod checks;
pub mod commit;
pub mod compose;
pub mod draft;
pub mod find;
pub mod identity;
pub mod judge;
pub mod lint;
pub mod pages;
pub mod schema;
pub mod similar;

use crate::runtime::ToolDef;

/// The wiki family's tools.
pub fn tools() -> Vec<ToolDef> {
    vec![find::tool(), lint::tool(), draft::tool(), commit::tool()]
}
