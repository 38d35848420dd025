//! Vault hygiene: `find_orphans` (notes no readable note links to) and
//! `find_unresolved_links` (links that open no file). Both look only at notes the caller may
//! read: a hidden note's links neither rescue an orphan nor show up as unresolved.

use std::collections::HashSet;

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::link_table;
use crate::tools::common::paging::{CursorLength, Page, PageArgs, Paging, page};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of both hygiene tools.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct HygieneArgs {
    /// Only notes under this folder (vault-relative); the whole vault when left out.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    folder: Option<String>,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<HygienePaging>,
}

/// `find_orphans` and `find_unresolved_links` page by 100 items (at most 1000).
struct HygienePaging;

impl Paging for HygienePaging {
    const ITEMS: &'static str = "items";
    const CURSOR: CursorLength = CursorLength::between(1, 32);
}

/// One unresolved link.
#[derive(Debug, Serialize, JsonSchema)]
struct UnresolvedLink {
    /// The note the link is written in.
    source: String,
    /// The target as written.
    target: String,
    /// `wikilink`, `embed`, `markdown` or `frontmatter`.
    kind: String,
    /// The 1-based line (0 for a frontmatter link).
    line: u32,
}

/// The hygiene tools.
pub(super) fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef::new(
("find_orphans", "Find orphan notes", "List the notes no other note links to or embeds (orphans), by path; optionally under a folder. Paged."),
"links",
(input_schema::<HygieneArgs>(), output_schema::<Page<String>>()),
find_orphans,
)
.keywords(&["not linked from anywhere", "aren't linked", "nothing links to", "orphaned", "unlinked", "isolated", "no backlinks", "nothing links", "no incoming links", "dangling notes", "hygiene", "cleanup"])
.scopes(&["read:notes"]),
        ToolDef::new(
("find_unresolved_links", "Find unresolved links", "List the links that lead to no file (Obsidian's unresolved or 'not created yet' links): source note, target as written, kind and line; optionally only in notes under a folder. Paged."),
"links",
(input_schema::<HygieneArgs>(), output_schema::<Page<UnresolvedLink>>()),
find_unresolved_links,
)
.keywords(&["broken links", "dead links", "missing notes", "not created yet", "dangling links", "nonexistent", "don't exist", "hygiene", "cleanup"])
.scopes(&["read:notes"]),
    ]
}

/// Whether `path` lies under `folder` (everything does without one).
fn under(path: &str, folder: Option<&str>) -> bool {
    folder.is_none_or(|folder| {
        let folder = folder.trim_matches('/');
        folder.is_empty()
            || path
                .strip_prefix(folder)
                .is_some_and(|rest| rest.starts_with('/'))
    })
}

fn find_orphans(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: HygieneArgs = parse(args)?;
    let table = link_table(ctx)?;
    let linked: HashSet<&str> = table
        .all()
        .filter(|link| ctx.may_list(&link.source))
        .filter_map(|link| link.resolved.as_deref().filter(|t| *t != link.source))
        .collect();
    let orphans: Vec<String> = table
        .notes()
        .iter()
        .filter(|note| under(note, args.folder.as_deref()))
        .filter(|note| ctx.may_list(note))
        .filter(|note| !linked.contains(note.as_str()))
        .cloned()
        .collect();
    structured(&page(orphans, args.page.cursor(), args.page.limit())?)
}

fn find_unresolved_links(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: HygieneArgs = parse(args)?;
    let table = link_table(ctx)?;
    let unresolved: Vec<UnresolvedLink> = table
        .all()
        .filter(|link| under(&link.source, args.folder.as_deref()))
        .filter(|link| ctx.may_list(&link.source))
        .filter(|link| {
            link.resolved
                .as_deref()
                .is_none_or(|target| !ctx.may(target, AclOp::Read))
        })
        .map(|link| UnresolvedLink {
            source: link.source.clone(),
            target: link.target.clone(),
            kind: link.kind.clone(),
            line: link.line,
        })
        .collect();
    structured(&page(unresolved, args.page.cursor(), args.page.limit())?)
}
