//! `search_vault`'s modes that do not rank by relevance: `text` (literal, case-insensitive
//! substring), `regex`, `jsonlogic` (a rule over each note's facts) and `dql` (Dataview,
//! which only Obsidian can run, through TC Bridge). Only notes the caller may read (and
//! under `folder`) are looked at, so a hidden note neither shows nor shortens a page.

use engine_core::acl::AclOp;
use engine_core::markdown::extract;

use super::corpus::{self, NoteText};
use super::facts::{matching, parse_rule};
use super::index_fault;
use super::matching::{Budget, Pattern, line_snippet, lines_in, scan};
use super::search_vault::{Found, Scores};
use crate::dispatch::ToolContext;
use crate::errors::{ErrorCode, ToolError};
use crate::index::parse::title_of;
use crate::index::snippet::snippet;

/// One page of results and whether more follow.
pub(super) struct Page {
    /// The page.
    pub results: Vec<Found>,
    /// Whether another page follows.
    pub more: bool,
}

/// Which notes a search may look at: readable by the caller and under the `folder` prefix.
pub(super) struct Scope<'c, 'd> {
    /// The call.
    pub ctx: &'c ToolContext<'d>,
    /// `Folder/`, when the search is narrowed to a folder.
    pub folder: Option<String>,
}

impl Scope<'_, '_> {
    /// Whether the search may look at the note at `path`.
    pub fn allows(&self, path: &str) -> bool {
        self.folder.as_deref().is_none_or(|f| path.starts_with(f))
            && self.ctx.may(path, AclOp::Read)
    }
}

/// The notes where `pattern` matches, most matches first (then by path); `score` is the
/// note's match count and the snippet its first matching line.
pub(super) fn by_pattern(
    scope: &Scope<'_, '_>,
    pattern: &Pattern,
    offset: usize,
    limit: usize,
) -> Result<Page, ToolError> {
    let notes = corpus::notes(scope.ctx)?;
    let mut found = scan(
        &notes,
        &|path| scope.allows(path),
        pattern,
        Budget::default(),
        0,
    )?
    .notes;
    found.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.note.path.cmp(&b.note.path))
    });
    let more = found.len() > offset + limit;
    let results = found
        .into_iter()
        .skip(offset)
        .take(limit)
        .map(|hit| {
            let text = &hit.note.text;
            let first = lines_in(text, pattern, 1).into_iter().next();
            let (heading, shown) = match &first {
                Some(line) => (heading_at(text, line.span.start), line_snippet(text, line)),
                None => (String::new(), snippet(text, "")),
            };
            Found {
                path: hit.note.path.clone(),
                title: title_of(&hit.note.path),
                heading,
                snippet: shown,
                score: hit.count as f64,
                scores: Scores::default(),
            }
        })
        .collect();
    Ok(Page { results, more })
}

/// The notes whose facts satisfy the JSONLogic rule `query`, by path; `score` is 1 and the
/// snippet the start of the note.
pub(super) fn by_rule(
    scope: &Scope<'_, '_>,
    query: &str,
    offset: usize,
    limit: usize,
) -> Result<Page, ToolError> {
    let rule = parse_rule(query)?;
    let ctx = scope.ctx;
    let facts = ctx
        .store()
        .note_facts()
        .all(ctx.vault_id())
        .map_err(index_fault)?;
    let hits = matching(
        &rule,
        &facts,
        &|path| scope.allows(path),
        offset + limit + 1,
    )?;
    let more = hits.len() > offset + limit;
    let notes = corpus::notes(ctx)?;
    let results = hits
        .into_iter()
        .skip(offset)
        .take(limit)
        .map(|note| Found {
            path: note.path.clone(),
            title: title_of(&note.path),
            heading: String::new(),
            snippet: text_of(&notes, &note.path)
                .map_or_else(|| snippet("", ""), |t| snippet(t, "")),
            score: 1.0,
            scores: Scores::default(),
        })
        .collect();
    Ok(Page { results, more })
}

/// Why a Dataview query cannot run: DQL is Dataview's language, and only Obsidian (through
/// TC Bridge) can run it; nothing here pretends to.
pub(super) fn dql_unavailable(ctx: &ToolContext<'_>) -> ToolError {
    let configured = ctx
        .served()
        .config()
        .config
        .vaults
        .iter()
        .find(|vault| vault.id == ctx.vault_id())
        .is_some_and(|vault| vault.companion.is_some());
    if !configured {
        return ToolError::new(
            ErrorCode::PluginMissing,
            format!(
                "Dataview (DQL) queries run inside Obsidian through TC Bridge, and vault '{}' \
                 has no companion configured",
                ctx.vault_id()
            ),
        )
        .with_recovery(
            "ask the user to install and enable TC Bridge and Dataview in Obsidian and set the \
             vault's companion url and token; meanwhile search with mode jsonlogic (rules over \
             frontmatter and file facts) or lexical",
        );
    }
    let mut error = ToolError::new(
        ErrorCode::PluginUnreachable,
        "Dataview (DQL) queries run inside Obsidian through TC Bridge, and this obsidian-tc \
         server cannot forward queries to it yet (it only probes it, for `obsidian-tc doctor`)",
    )
    .with_recovery(
        "search with mode jsonlogic (rules over frontmatter and file facts) or lexical instead",
    );
    // Retrying the same call against this server cannot succeed.
    error.retryable = false;
    error
}

/// The text of the note at `path` in the sorted `notes`.
fn text_of<'n>(notes: &'n [std::sync::Arc<NoteText>], path: &str) -> Option<&'n str> {
    notes
        .binary_search_by(|note| note.path.as_str().cmp(path))
        .ok()
        .map(|at| notes[at].text.as_str())
}

/// The heading breadcrumb (`A > B`) in force at byte `at` of `text`.
fn heading_at(text: &str, at: usize) -> String {
    let mut crumbs: Vec<(u8, String)> = Vec::new();
    for heading in extract(text).headings {
        if heading.position.start.offset > at {
            break;
        }
        while crumbs
            .last()
            .is_some_and(|(level, _)| *level >= heading.level)
        {
            crumbs.pop();
        }
        crumbs.push((heading.level, heading.heading));
    }
    crumbs
        .into_iter()
        .map(|(_, name)| name)
        .collect::<Vec<_>>()
        .join(" > ")
}
