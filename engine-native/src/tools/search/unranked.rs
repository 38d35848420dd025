//! `search_vault`'s modes that do not rank by relevance: `text` (literal, case-insensitive
//! substring), `regex`, `jsonlogic` (a rule over each note's facts) and `dql` (Dataview,
//! which only Obsidian runs: the query goes to TC Bridge). Only notes the caller may read (and
//! under `folder`) are looked at, so a hidden note neither shows nor shortens a page.

use std::collections::BTreeSet;

use engine_core::markdown::extract;
use serde_json::Value;

use super::corpus::{self, NoteText};
use super::facts::{matching, parse_rule};
use super::matching::{Budget, Pattern, line_snippet, lines_in, scan};
use super::search_vault::{Found, Scores};
use crate::content::injection::ContentFlags;
use crate::errors::ToolError;
use crate::index::snippet::snippet;
use crate::note::title_of;
use crate::runtime::ToolContext;
use crate::tools::common::companion::run_dql;
use crate::tools::common::index::index_fault;

/// One page of results and whether more follow.
pub(super) struct Page {
    /// The page.
    pub results: Vec<Found>,
    /// Whether another page follows.
    pub more: bool,
}

impl Page {
    /// The page `offset..offset + limit` of `items`, each made a result by `found`.
    fn of<T>(items: Vec<T>, offset: usize, limit: usize, found: impl FnMut(T) -> Found) -> Page {
        let more = items.len() > offset + limit;
        let results = items
            .into_iter()
            .skip(offset)
            .take(limit)
            .map(found)
            .collect();
        Page { results, more }
    }
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
        self.folder.as_deref().is_none_or(|f| path.starts_with(f)) && self.ctx.may_list(path)
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
    Ok(Page::of(found, offset, limit, |hit| {
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
            flags: ContentFlags::of(text),
            score: hit.count as f64,
            scores: Scores::default(),
            chunk_id: None,
        }
    }))
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
    let notes = corpus::notes(ctx)?;
    Ok(Page::of(hits, offset, limit, |note| {
        whole_note(&notes, &note.path)
    }))
}

/// The notes a Dataview query names, in the query's order: Obsidian runs it through TC
/// Bridge (`search_dql`'s route; `plugin_missing` / `plugin_unreachable` without it). Each
/// row counts once, by the first note it names (the file link of a LIST or TABLE row, a
/// TASK's `path`); `score` is 1 and the snippet the start of the note.
pub(super) fn by_dql(
    scope: &Scope<'_, '_>,
    query: &str,
    offset: usize,
    limit: usize,
) -> Result<Page, ToolError> {
    let ctx = scope.ctx;
    let answer = run_dql(ctx, query)?;
    let mut seen = BTreeSet::new();
    let named: Vec<&str> = answer["values"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(first_note)
        .filter(|path| scope.allows(path) && seen.insert(*path))
        .collect();
    let notes = corpus::notes(ctx)?;
    Ok(Page::of(named, offset, limit, |path| {
        whole_note(&notes, path)
    }))
}

/// The first note a DQL result row names: a link's `path`, else an item's own `path` (TASK
/// rows), looked for depth first.
fn first_note(row: &Value) -> Option<&str> {
    match row {
        Value::Object(map) => map
            .get("path")
            .and_then(Value::as_str)
            .or_else(|| map.values().find_map(first_note)),
        Value::Array(items) => items.iter().find_map(first_note),
        _ => None,
    }
}

/// A result for the whole note at `path` (a rule or query matched it, not a passage): score
/// 1, the snippet the start of the note.
fn whole_note(notes: &[std::sync::Arc<NoteText>], path: &str) -> Found {
    let text = text_of(notes, path).unwrap_or_default();
    Found {
        path: path.to_owned(),
        title: title_of(path),
        heading: String::new(),
        snippet: snippet(text, ""),
        flags: ContentFlags::of(text),
        score: 1.0,
        scores: Scores::default(),
        chunk_id: None,
    }
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
