//! What `search_text` and `search_regex` share: the page of matching lines, the counts, and
//! the run from arguments to answer. Only notes the caller may read (and under `folder`) are
//! searched or counted, so a hidden note neither shows nor shortens a page.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::corpus;
use super::folder_prefix;
use super::matching::{Budget, Pattern, line_snippet, scan};
use crate::content::injection::ContentFlags;
use crate::errors::ToolError;
use crate::index::snippet::Snippet;
use crate::runtime::ToolContext;
use crate::tools::common::index::index_fault;
use crate::tools::common::paging::{CursorLength, Paging, cursor_offset};
use crate::tools::common::structured::structured;

/// `search_text` and `search_regex` page by 20 matching lines (at most 500).
pub(super) struct LinePaging;

impl Paging for LinePaging {
    const ITEMS: &'static str = "matching lines";
    const DEFAULT: usize = 20;
    const MAX: usize = 500;
    const CURSOR: CursorLength = CursorLength::between(1, 64);
}

/// One matching line.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct LineHit {
    /// The note's vault-relative path.
    path: String,
    /// The 1-based line number in the note file (frontmatter included).
    line: usize,
    /// The line around its first match (at most 240 characters), every match highlighted.
    text: Snippet,
    /// Shapes of prompt injection in the whole line (absent when none; the text is never
    /// altered).
    #[serde(flatten)]
    flags: ContentFlags,
}

/// How much was searched.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct LineCoverage {
    /// Notes searched (readable by the caller, under `folder`).
    notes: usize,
    /// Whether a scan of the vault is still running (notes not indexed yet are not searched).
    scanning: bool,
}

/// What `search_text` and `search_regex` return.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct LineResults {
    /// Matching lines, by path then line number.
    hits: Vec<LineHit>,
    /// How many notes match.
    notes: usize,
    /// How many lines match, over all pages.
    lines: usize,
    /// How many matches there are, over all pages.
    matches: usize,
    /// Pass this as `cursor` to get the next page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    cursor: Option<String>,
    /// How much was searched.
    coverage: LineCoverage,
}

/// The page of lines where `pattern` matches.
pub(super) fn run(
    ctx: &ToolContext<'_>,
    pattern: &Pattern,
    folder: Option<&str>,
    limit: usize,
    cursor: Option<&str>,
    budget: Budget,
) -> Result<Value, ToolError> {
    let offset = cursor_offset(cursor)?;
    let folder = folder.map(folder_prefix);
    let notes = corpus::notes(ctx)?;
    let allowed =
        |path: &str| folder.as_deref().is_none_or(|f| path.starts_with(f)) && ctx.may_list(path);
    let found = scan(&notes, &allowed, pattern, budget, offset + limit)?;
    let hits = found
        .notes
        .iter()
        .flat_map(|note| {
            note.lines.iter().map(|line| LineHit {
                path: note.note.path.clone(),
                line: line.line,
                text: line_snippet(&note.note.text, line),
                flags: ContentFlags::of(&note.note.text[line.span.clone()]),
            })
        })
        .skip(offset)
        .collect();
    let scanning = ctx
        .runtime()
        .indexes()
        .vault(ctx.store(), ctx.vault_id())
        .map_err(index_fault)?
        .status()
        .scanning;
    structured(&LineResults {
        hits,
        notes: found.notes.len(),
        lines: found.lines,
        matches: found.matches,
        cursor: (found.lines > offset + limit).then(|| (offset + limit).to_string()),
        coverage: LineCoverage {
            notes: found.searched,
            scanning,
        },
    })
}
