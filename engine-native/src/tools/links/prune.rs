//! `prune_hub_links`: remove some of one (hub) note's outgoing links by a caller-supplied
//! policy: links to much-linked targets (more than `max_backlinks` readable backlinks),
//! unresolved links, links into given folders, and repeats of a target already linked.
//!
//! What removal does: a link alone on its line (optionally as a list item or task:
//! `- [[X]]`, `1. [x](X.md)`, `- [ ] [[X]]`) removes the whole line; any other link becomes
//! its display text as plain text (the alias, else the link as written without brackets for
//! a wikilink; the link text for a markdown link). Only body wikilinks and markdown links
//! are pruned: embeds and frontmatter links are never touched. A link to a note the caller
//! may not read counts as unresolved. Dry run by default; a real run always asks the human
//! first, takes `expected_sha256`, and writes the note through [`crate::tools::common::relink::commit`].

use std::collections::HashSet;

use engine_core::acl::AclOp;
use engine_core::links::{LinkSyntax, ParsedLink, link_spans, parse_link};
use engine_core::markdown::extract;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::changes::{FileChange, Replacement, apply, note_change};
use crate::errors::{ErrorCode, ToolError};
use crate::index::links::LinkTable;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{PATH_READ_WRITE, input_schema, parse};
use crate::tools::common::link_table::{complete_link_table, existing_note};
use crate::tools::common::relink::{RelinkPlan, commit};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::{check_expected, tool_error_from_vault};
use crate::vault::TextFile;

/// The arguments of `prune_hub_links`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct PruneArgs {
    /// The hub note's vault path.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// Which links to remove (a link goes when any rule matches; give at least one).
    policy: Policy,
    /// Only show what would change (default true); false writes, after the user confirms.
    #[serde(default = "yes")]
    dry_run: bool,
    /// The note's SHA-256 as last read: refused with `concurrent_modification` if it changed.
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    expected_sha256: Option<String>,
}

fn yes() -> bool {
    true
}

/// Which links to remove.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Policy {
    /// Remove links to targets with more than this many backlinks (from notes the caller
    /// may read, the hub included).
    #[serde(default)]
    max_backlinks: Option<usize>,
    /// Remove links that open no file.
    #[serde(default)]
    unresolved: bool,
    /// Remove links to files under any of these folders (vault-relative).
    #[serde(default)]
    #[schemars(length(max = 100))]
    folders: Vec<String>,
    /// Remove every link to a target already linked earlier in the note (the first stays).
    #[serde(default)]
    duplicates: bool,
}

impl Policy {
    fn is_empty(&self) -> bool {
        self.max_backlinks.is_none()
            && !self.unresolved
            && self.folders.is_empty()
            && !self.duplicates
    }
}

/// One removed link.
#[derive(Debug, Serialize, JsonSchema)]
struct PrunedLink {
    /// The 1-based line it is on.
    line: u32,
    /// The link as written.
    link: String,
    /// Where it resolves, or its target as written when it is unresolved.
    target: String,
    /// The rule that removed it: `max_backlinks`, `unresolved`, `folder` or `duplicate`.
    reason: &'static str,
    /// `line_removed` (it was alone on its line) or `unlinked` (its display text stays).
    action: &'static str,
}

/// What `prune_hub_links` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct PruneResult {
    /// The hub note.
    path: String,
    /// Whether this was a dry run.
    dry_run: bool,
    /// Whether the note was changed.
    applied: bool,
    /// The links removed (or to remove), in text order.
    pruned: Vec<PrunedLink>,
    /// The note's changed lines (absent when nothing changes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    change: Option<FileChange>,
}

/// The `prune_hub_links` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("prune_hub_links", "Prune a hub note's links", "Remove links from one hub note by policy: links to targets with more than N backlinks, unresolved links, links into given folders, repeated links. A link alone on a (list) line removes the line; otherwise its display text stays as plain text. Dry run by default; applying asks the user."),
"links",
(input_schema::<PruneArgs>(), output_schema::<PruneResult>()),
prune_hub_links,
)
.keywords(&["prune links", "remove links", "declutter hub", "map of content cleanup", "unlink", "too many links"])
.scopes(&["write:notes"])
.paths(PATH_READ_WRITE)
}

fn prune_hub_links(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: PruneArgs = parse(args)?;
    if args.policy.is_empty() {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "the policy removes nothing; set max_backlinks, unresolved, folders or duplicates",
        ));
    }
    let table = complete_link_table(ctx)?;
    let path = existing_note(ctx, &table, &args.path)?;
    let original = ctx
        .vault()
        .read(&path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    check_expected(
        &path,
        Some(&original.sha256),
        args.expected_sha256.as_deref(),
    )?;
    let decoded = TextFile::decode(&original.bytes, &original.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let (replacements, pruned) = plan(ctx, &table, &path, &decoded.text, &args.policy);
    let mut result = PruneResult {
        path: path.clone(),
        dry_run: args.dry_run,
        applied: false,
        pruned,
        change: None,
    };
    if replacements.is_empty() {
        return structured(&result);
    }
    let (new_text, lines) = apply(&decoded.text, &replacements);
    result.change = Some(FileChange {
        path: path.clone(),
        sha256: original.sha256.clone(),
        links: result.pruned.len(),
        lines,
    });
    if !args.dry_run {
        ctx.confirm(json!({
            "action": "prune_hub_links",
            "path": path,
            "links_removed": result.pruned.len(),
            "lines": result.change.as_ref().map(|c| &c.lines),
        }))?;
        let links = result.pruned.len();
        let plan = RelinkPlan {
            changes: vec![note_change(original, decoded, new_text, links)],
            ..RelinkPlan::default()
        };
        commit(ctx, &plan, &[])?;
        result.applied = true;
    }
    structured(&result)
}

/// The replacements removing the links of `text` (the note `hub`) that `policy` names, and
/// those links.
fn plan(
    ctx: &ToolContext<'_>,
    table: &LinkTable,
    hub: &str,
    text: &str,
    policy: &Policy,
) -> (Vec<Replacement>, Vec<PrunedLink>) {
    let mut seen: HashSet<String> = HashSet::new();
    let mut replacements = Vec::new();
    let mut pruned = Vec::new();
    for span in link_spans(&extract(text)) {
        if span.syntax == LinkSyntax::Destination {
            continue;
        }
        let link = &text[span.start..span.end];
        let Ok(parsed) = parse_link(link) else {
            continue;
        };
        if parsed.embed || parsed.external || parsed.linkpath.is_empty() {
            continue;
        }
        let resolved = table
            .resolver()
            .resolve(&parsed.linkpath, hub)
            .first()
            .filter(|target| ctx.may(target, AclOp::Read))
            .map(str::to_owned);
        let key = resolved
            .clone()
            .unwrap_or_else(|| format!("unresolved:{}", parsed.linkpath.to_lowercase()));
        let Some(reason) = rule(ctx, table, policy, resolved.as_deref(), !seen.insert(key)) else {
            continue;
        };
        let (start, end, new, action) = removal(text, span.start, span.end, &parsed);
        pruned.push(PrunedLink {
            line: line_of(text, span.start),
            link: link.to_owned(),
            target: resolved.unwrap_or_else(|| parsed.linkpath.clone()),
            reason,
            action,
        });
        replacements.push(Replacement { start, end, new });
    }
    (replacements, pruned)
}

/// The first rule of `policy` that removes a link resolving to `resolved` (`None`:
/// unresolved), `repeated` saying whether its target was linked before.
fn rule(
    ctx: &ToolContext<'_>,
    table: &LinkTable,
    policy: &Policy,
    resolved: Option<&str>,
    repeated: bool,
) -> Option<&'static str> {
    let Some(target) = resolved else {
        return if policy.unresolved {
            Some("unresolved")
        } else {
            (policy.duplicates && repeated).then_some("duplicate")
        };
    };
    let in_folder = policy.folders.iter().any(|folder| {
        let folder = folder.trim_matches('/');
        folder.is_empty()
            || target
                .strip_prefix(folder)
                .is_some_and(|rest| rest.starts_with('/'))
    });
    if in_folder {
        return Some("folder");
    }
    if let Some(max) = policy.max_backlinks {
        let sources: HashSet<&str> = table
            .incoming(target)
            .map(|link| link.source.as_str())
            .filter(|source| ctx.may_list(source))
            .collect();
        if sources.len() > max {
            return Some("max_backlinks");
        }
    }
    (policy.duplicates && repeated).then_some("duplicate")
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> u32 {
    let line = text[..offset].matches('\n').count() + 1;
    u32::try_from(line).unwrap_or(u32::MAX)
}

/// How the link at `start..end` goes: the whole line when the link is alone on it (after
/// an optional list marker and task box), else the link replaced by its display text.
fn removal(
    text: &str,
    start: usize,
    end: usize,
    parsed: &ParsedLink,
) -> (usize, usize, String, &'static str) {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    let before = &text[line_start..start];
    let after = text[end..line_end]
        .trim_end_matches('\n')
        .trim_end_matches('\r');
    if after.trim().is_empty() && is_list_prefix(before) {
        return (line_start, line_end, String::new(), "line_removed");
    }
    (
        start,
        end,
        display_text(&text[start..end], parsed),
        "unlinked",
    )
}

/// Whether `prefix` is only indentation, an optional list marker (`-`, `*`, `+`, `1.`,
/// `1)`) and an optional task box (`[ ]`, `[x]`).
fn is_list_prefix(prefix: &str) -> bool {
    let rest = prefix.trim_start();
    let rest = if let Some(r) = rest.strip_prefix(['-', '*', '+']) {
        r
    } else {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        match rest[digits..].strip_prefix(['.', ')']) {
            Some(r) if digits > 0 => r,
            _ => rest,
        }
    };
    let rest = rest.trim_start();
    let rest = ["[ ]", "[x]", "[X]"]
        .iter()
        .find_map(|task| rest.strip_prefix(task))
        .unwrap_or(rest);
    rest.trim().is_empty()
}

/// What a link shows: a wikilink's alias (else its inside as written), a markdown link's
/// text.
fn display_text(link: &str, parsed: &ParsedLink) -> String {
    match parsed.syntax {
        LinkSyntax::Wikilink => {
            let inner = link
                .strip_prefix("[[")
                .and_then(|l| l.strip_suffix("]]"))
                .unwrap_or(link);
            match inner.split_once('|') {
                Some((_, alias)) => alias.trim().to_owned(),
                None => inner.trim_end_matches('\\').trim().to_owned(),
            }
        }
        _ => {
            let text_end = link[..parsed.path_span.start].rfind("](").unwrap_or(0);
            link.get(1..text_end).unwrap_or_default().to_owned()
        }
    }
}
