//! `resolve_note`: what a name stands for. The query may be a path, a title, an alias or
//! wikilink text (with or without `[[ ]]`, `|alias` and `#heading`); the answer is the
//! notes it may mean, ranked, each with every reason it matched:
//!
//! 1. `exact_path`: the vault path, `.md` optional (case and Unicode form ignored);
//! 2. `link`: where Obsidian opens the link written in the `from` note (the vault root
//!    without one); `link_ambiguous` for the other matches of an ambiguous link;
//! 3. `title`: the file name without `.md` equals the query's last segment;
//! 4. `alias`: a frontmatter `aliases` entry equals the query;
//! 5. `title_case_insensitive`, `alias_case_insensitive`: the same, ignoring case.
//!
//! Only notes the caller may read are considered: a hidden note is never a candidate, and
//! an ambiguous link whose other matches are hidden reads as resolved.

use std::collections::BTreeMap;

use engine_core::acl::AclOp;
use engine_core::links::{Resolution, parse_link};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{PathArg, ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::link_table;
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `resolve_note`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ResolveArgs {
    /// A path, title, alias or wikilink text (`Note`, `[[Folder/Note#Heading|shown]]`).
    #[schemars(length(min = 1, max = 1024))]
    query: String,
    /// The note the link is written in (relative links and Obsidian's nearest-folder
    /// preference depend on it); the vault root when left out.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    from: Option<String>,
    /// The most candidates returned (default 10).
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 100))]
    limit: usize,
}

fn default_limit() -> usize {
    10
}

/// Why a candidate matched.
#[derive(Debug, Clone, Serialize, JsonSchema)]
struct Reason {
    /// `exact_path`, `link`, `link_ambiguous`, `title`, `alias`, `title_case_insensitive`
    /// or `alias_case_insensitive`.
    kind: &'static str,
    /// What matched (the alias, or the link as resolved), when it says more than the kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
}

/// One note the query may mean.
#[derive(Debug, Serialize, JsonSchema)]
struct Candidate {
    /// The note's path.
    path: String,
    /// Every reason it matched, strongest first.
    reasons: Vec<Reason>,
}

/// What `resolve_note` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct ResolveResult {
    /// The link target the query names (without `[[ ]]`, subpath or alias).
    linkpath: String,
    /// The `#heading` or `#^block` of the query, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    subpath: Option<String>,
    /// The candidates, best first (by their strongest reason, then path).
    candidates: Vec<Candidate>,
    /// How many candidates there are in all (before `limit`).
    total_count: usize,
}

/// The `from` argument is read.
const FROM_READ: &[PathArg] = &[PathArg {
    name: "from",
    op: AclOp::Read,
}];

/// The `resolve_note` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("resolve_note", "Resolve a note name", "Find which note a name means: a path, title, frontmatter alias or wikilink text ([[Note#Heading|alias]]) becomes ranked candidate paths (exact path, Obsidian link resolution from a given note, title, alias, case-insensitive), each with why it matched."),
"links",
(input_schema::<ResolveArgs>(), output_schema::<ResolveResult>()),
resolve_note,
)
.keywords(&["which note", "resolve wikilink", "find note by alias", "note by title", "disambiguate", "alias", "title to path"])
.scopes(&["read:notes"])
.paths(FROM_READ)
}

/// The query as a link: its linkpath and subpath.
fn query_link(query: &str) -> Result<(String, String), ToolError> {
    let query = query.trim().trim_start_matches('!');
    let inner = query.strip_prefix("[[").unwrap_or(query);
    let inner = inner.strip_suffix("]]").unwrap_or(inner);
    let parsed = parse_link(&format!("[[{inner}]]")).map_err(|error| {
        ToolError::new(
            ErrorCode::InvalidInput,
            format!("the query is not a note name or link ({error}); give a path, title, alias or [[link]]"),
        )
    })?;
    Ok((parsed.linkpath, parsed.subpath))
}

fn resolve_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ResolveArgs = parse(args)?;
    let (linkpath, subpath) = query_link(&args.query)?;
    let table = link_table(ctx)?;
    let resolver = table.resolver();
    let from = match args.from.as_deref() {
        Some(from) => Some(resolver.find(from).map(str::to_owned).ok_or_else(|| {
            ToolError::new(
                ErrorCode::NotFound,
                format!("`from` names no file: {from}; give the path of the note the link is in"),
            )
        })?),
        None => None,
    };
    let mut found: BTreeMap<String, Vec<(u8, Reason)>> = BTreeMap::new();
    let mut add = |path: &str, rank: u8, kind: &'static str, detail: Option<String>| {
        if ctx.may(path, AclOp::Read) {
            found
                .entry(path.to_owned())
                .or_default()
                .push((rank, Reason { kind, detail }));
        }
    };
    if !linkpath.is_empty() {
        let bare = linkpath.trim_start_matches('/');
        if let Some(path) = resolver
            .find(bare)
            .or_else(|| resolver.find(&format!("{bare}.md")))
        {
            add(path, 0, "exact_path", None);
        }
    }
    if !linkpath.is_empty() || from.is_some() {
        let source = from.as_deref().unwrap_or("");
        let shown = from.as_deref().map_or_else(
            || "from the vault root".to_owned(),
            |from| format!("from {from}"),
        );
        match resolver.resolve(&linkpath, source) {
            Resolution::Resolved(path) => add(path, 1, "link", Some(shown)),
            Resolution::Ambiguous(all) => {
                let readable: Vec<&str> = all
                    .into_iter()
                    .filter(|path| ctx.may(path, AclOp::Read))
                    .collect();
                for (i, path) in readable.iter().enumerate() {
                    let (rank, kind) = if i == 0 {
                        (1, "link")
                    } else {
                        (2, "link_ambiguous")
                    };
                    add(path, rank, kind, Some(shown.clone()));
                }
            }
            Resolution::Unresolved => {}
        }
    }
    let name = linkpath.rsplit('/').next().unwrap_or(&linkpath);
    let name = name.strip_suffix(".md").unwrap_or(name);
    let query = args.query.trim();
    let fields = ctx
        .store()
        .note_index()
        .note_fields(ctx.vault_id())
        .map_err(|error| ToolError::internal(format!("the note index failed: {error}")))?;
    let (name_lower, query_lower) = (name.to_lowercase(), query.to_lowercase());
    for (path, note) in &fields {
        if !name.is_empty() {
            if note.title == name {
                add(path, 3, "title", None);
            } else if note.title.to_lowercase() == name_lower {
                add(path, 5, "title_case_insensitive", None);
            }
        }
        for alias in &note.aliases {
            let alias_matches = [query, linkpath.as_str()];
            if alias_matches.contains(&alias.as_str()) {
                add(path, 4, "alias", Some(alias.clone()));
            } else if alias.to_lowercase() == query_lower
                || alias.to_lowercase() == linkpath.to_lowercase()
            {
                add(path, 6, "alias_case_insensitive", Some(alias.clone()));
            }
        }
    }
    let mut ranked: Vec<(u8, String, Vec<Reason>)> = found
        .into_iter()
        .map(|(path, mut reasons)| {
            reasons.sort_by_key(|(rank, _)| *rank);
            let best = reasons.first().map_or(u8::MAX, |(rank, _)| *rank);
            (best, path, reasons.into_iter().map(|(_, r)| r).collect())
        })
        .collect();
    ranked.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    let total_count = ranked.len();
    structured(&ResolveResult {
        linkpath,
        subpath: (!subpath.is_empty()).then_some(subpath),
        candidates: ranked
            .into_iter()
            .take(args.limit)
            .map(|(_, path, reasons)| Candidate { path, reasons })
            .collect(),
        total_count,
    })
}
