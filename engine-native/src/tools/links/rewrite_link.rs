//! `rewrite_link`: point every link at a new target across the vault. Two modes, chosen
//! by `from`:
//!
//! - `note`: `from` names a file the caller may read; every link that Obsidian resolves to
//!   it (from any readable, writable note) is rewritten to reach `to`;
//! - `unresolved_text`: `from` names no file; every unresolved link whose target is written
//!   `from` (case-insensitive, `.md` optional) is rewritten to reach `to`.
//!
//! `to` is a vault path (an existing file, or a note not created yet; `.md` is added when it
//! names no extension). Each link keeps its style (bare name, path, relative, markdown with
//! its encoding), its alias or display text, its `#heading` / `#^block` subpath and its embed
//! `!` (engine-core's [`link_text_after_move`]). A dry run (the default) shows every file
//! and each changed line; a real run always asks the human first and commits all or nothing
//! ([`crate::tools::common::relink::commit`]). Links in notes the caller may not read are never looked at;
//! links to a note the caller may not read are never unresolved text.

use std::collections::BTreeSet;

use engine_core::acl::AclOp;
use engine_core::links::{
    LinkMove, LinkResolver, LinkSyntax, ParsedLink, link_text_after_move, parse_destination,
    parse_link, validate_vault_path,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::changes::{FileChange, Replacement, apply, note_change};
use crate::errors::{ErrorCode, ToolError};
use crate::index::links::{LinkTable, ResolvedLink};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::{complete_link_table, vault_files};
use crate::tools::common::relink::{RelinkPlan, all_link_spans, commit};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::TextFile;

/// The arguments of `rewrite_link`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RewriteLinkArgs {
    /// The current target: a file's vault path (`Folder/Note.md`, `.md` optional), or the
    /// target text of unresolved links (`Old name`).
    #[schemars(length(min = 1, max = 1024))]
    from: String,
    /// The new target's vault path (an existing file, or a note to be created; `.md` is
    /// added when it names no extension).
    #[schemars(length(min = 1, max = 1024))]
    to: String,
    /// Only show what would change (default true); false rewrites, after the user confirms.
    #[serde(default = "yes")]
    dry_run: bool,
}

fn yes() -> bool {
    true
}

/// What `rewrite_link` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct RewriteLinkResult {
    /// `note` (links resolving to the file `from`) or `unresolved_text` (unresolved links
    /// written `from`).
    mode: &'static str,
    /// The file or text whose links were (or would be) rewritten.
    from: String,
    /// The path the links now reach.
    to: String,
    /// Whether this was a dry run.
    dry_run: bool,
    /// Whether the files were changed.
    applied: bool,
    /// Each note that changes, with its changed lines.
    files: Vec<FileChange>,
    /// How many links were (or would be) rewritten.
    links_rewritten: usize,
    /// Readable notes with such links that the caller may not write: left as they are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    skipped_notes: Vec<String>,
    /// Links that could not be written to reach `to` (left as they are).
    skipped_links: usize,
}

/// The `rewrite_link` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("rewrite_link", "Rewrite links to a target", "Retarget links across the vault: every link resolving to a note (or every unresolved link written as some text) is rewritten to point at another path, keeping each link's style, alias, heading/block subpath and embed. Dry run by default (each file and changed line); applying asks the user and is all or nothing."),
"links",
(input_schema::<RewriteLinkArgs>(), output_schema::<RewriteLinkResult>()),
rewrite_link,
)
.keywords(&["point to instead", "every link to", "should point", "retarget links", "redirect links", "replace link target", "fix unresolved link", "merge notes links", "point links elsewhere"])
.scopes(&["write:notes"])
}

/// What the links to rewrite point at now.
enum Source {
    /// The readable file at this path.
    Note(String),
    /// Unresolved links written this way (compared case-insensitively).
    Text(String),
}

impl Source {
    /// Whether the link `parsed`, written in `note`, is one to rewrite; and if so, the path
    /// it stands for (the file, or a virtual path named after the text).
    fn matches(&self, table: &LinkTable, parsed: &ParsedLink, note: &str) -> Option<String> {
        if parsed.external || parsed.linkpath.is_empty() {
            return None;
        }
        let resolved = table.resolver().resolve(&parsed.linkpath, note).first();
        match self {
            Source::Note(path) => (resolved == Some(path.as_str())).then(|| path.clone()),
            Source::Text(text) => (resolved.is_none()
                && text_key(&parsed.linkpath) == text_key(text))
            .then(|| with_extension(parsed.linkpath.trim_start_matches('/'))),
        }
    }
}

/// `path` with `.md` added when its file name has no extension.
fn with_extension(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name.contains('.') {
        path.to_owned()
    } else {
        format!("{path}.md")
    }
}

/// How unresolved target text is compared: case-insensitive, leading `/` and `.md` optional.
fn text_key(text: &str) -> String {
    with_extension(text.trim_start_matches('/')).to_lowercase()
}

/// `text` without surrounding `[[ ]]` and spaces.
fn bare(text: &str) -> &str {
    let text = text.trim();
    let text = text.strip_prefix("[[").unwrap_or(text);
    text.strip_suffix("]]").unwrap_or(text).trim()
}

/// The existing file `path` names (exact, or with `.md` added), as the resolver spells it.
fn existing<'t>(table: &'t LinkTable, path: &str) -> Option<&'t str> {
    let path = path.trim_start_matches('/');
    table
        .resolver()
        .find(path)
        .or_else(|| table.resolver().find(&format!("{path}.md")))
}

fn rewrite_link(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: RewriteLinkArgs = parse(args)?;
    let table = complete_link_table(ctx)?;
    let from = bare(&args.from);
    let source = match existing(&table, from) {
        Some(path) if ctx.may(path, AclOp::Read) => Source::Note(path.to_owned()),
        _ => Source::Text(from.to_owned()),
    };
    let to = target_path(ctx, &table, bare(&args.to))?;
    if let Source::Note(path) = &source
        && *path == to
    {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!("`from` and `to` are both {to}; name a different target"),
        ));
    }
    let mut files = vault_files(ctx)?;
    files.push(to.clone());
    let after = LinkResolver::new(&files).map_err(|error| {
        ToolError::internal(format!("a vault path could not be indexed: {error}"))
    })?;
    let mut plan = RelinkPlan::default();
    let mut shown = Vec::new();
    for note in candidates(ctx, &table, &source) {
        if !ctx.may(&note, AclOp::Write) {
            plan.skipped_notes.push(note);
            continue;
        }
        let original = ctx
            .vault()
            .read(&note)
            .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
        let Ok(decoded) = TextFile::decode(&original.bytes, &original.path) else {
            continue;
        };
        let (replacements, skipped) = retarget(&decoded.text, &note, &source, &table, &to, &after);
        plan.skipped_links += skipped;
        if replacements.is_empty() {
            continue;
        }
        let (new_text, lines) = apply(&decoded.text, &replacements);
        shown.push(FileChange {
            path: note.clone(),
            sha256: original.sha256.clone(),
            links: replacements.len(),
            lines,
        });
        plan.changes
            .push(note_change(original, decoded, new_text, replacements.len()));
    }
    let (mode, from) = match source {
        Source::Note(path) => ("note", path),
        Source::Text(text) => ("unresolved_text", text),
    };
    let mut result = RewriteLinkResult {
        mode,
        from,
        to,
        dry_run: args.dry_run,
        applied: false,
        links_rewritten: plan.links(),
        files: shown,
        skipped_notes: plan.skipped_notes.clone(),
        skipped_links: plan.skipped_links,
    };
    if !args.dry_run && !plan.changes.is_empty() {
        ctx.confirm(json!({
            "action": "rewrite_link",
            "from": result.from,
            "to": result.to,
            "links_rewritten": result.links_rewritten,
            "files": result.files.iter().map(|f| &f.path).collect::<Vec<_>>(),
        }))?;
        commit(ctx, &plan, &[])?;
        result.applied = true;
    }
    structured(&result)
}

/// The canonical path of the new target: the existing file `to` names, else `to` (with
/// `.md` added when it names no extension) as a note not created yet.
fn target_path(ctx: &ToolContext<'_>, table: &LinkTable, to: &str) -> Result<String, ToolError> {
    let path = existing(table, to)
        .map(str::to_owned)
        .unwrap_or_else(|| with_extension(to.trim_start_matches('/')));
    validate_vault_path(&path).map_err(|error| {
        ToolError::new(
            ErrorCode::PathInvalid,
            format!("`to` is not a vault path ({error}); give a path like Folder/Note.md"),
        )
    })?;
    ctx.check_path(&path, AclOp::Read)?;
    Ok(path)
}

/// The readable notes holding a link to rewrite, by path (the link table narrows them; the
/// note's text decides).
fn candidates(ctx: &ToolContext<'_>, table: &LinkTable, source: &Source) -> BTreeSet<String> {
    let wanted = |link: &ResolvedLink| match source {
        Source::Note(path) => link.resolved.as_deref() == Some(path.as_str()),
        Source::Text(text) => link.resolved.is_none() && text_key(&link.target) == text_key(text),
    };
    table
        .all()
        .filter(|link| wanted(link))
        .map(|link| link.source.clone())
        .filter(|note| ctx.may(note, AclOp::Read))
        .collect()
}

/// The replacements that retarget the matching links of `text` (the note `note`) to `to`,
/// and how many matching links could not be rewritten.
fn retarget(
    text: &str,
    note: &str,
    source: &Source,
    table: &LinkTable,
    to: &str,
    after: &LinkResolver,
) -> (Vec<Replacement>, usize) {
    let mut replacements = Vec::new();
    let mut skipped = 0;
    for span in all_link_spans(text) {
        let link = &text[span.start..span.end];
        let parsed = match span.syntax {
            LinkSyntax::Destination => parse_destination(link),
            LinkSyntax::Wikilink | LinkSyntax::Markdown => parse_link(link),
        };
        let Ok(parsed) = parsed else { continue };
        let Some(before) = source.matches(table, &parsed, note) else {
            continue;
        };
        let mv = LinkMove {
            source_before: note,
            source_after: note,
            target_before: &before,
            target_after: to,
        };
        match link_text_after_move(link, &mv, after) {
            Ok(new) if new.changed => replacements.push(Replacement {
                start: span.start,
                end: span.end,
                new: new.text,
            }),
            Ok(_) => {}
            Err(_) => skipped += 1,
        }
    }
    (replacements, skipped)
}
