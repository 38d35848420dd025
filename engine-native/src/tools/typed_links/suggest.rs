//! `suggest_typed_links`: relations a note could declare, read-only and deterministic.
//!
//! The candidates are the notes its body links to (wikilinks and markdown links, resolved
//! like Obsidian, readable by the caller) that none of its typed relations opens yet. Each
//! gets one key, by the first rule that applies:
//!
//! 1. `folder_note`: the target is the note named after the note's folder
//!    (`A/B/x.md` → `A/B.md` or `A/B/B.md`): `part_of`.
//! 2. `peer_relation`: other readable notes of the same folder already relate to the target:
//!    their most used key (ties by name).
//! 3. `body_link`: the generic `see_also`.
//!
//! Most linked targets first, then by path.

use std::collections::{BTreeMap, BTreeSet};

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::backrefs::readable_facts;
use super::relations::{relations, resolve};
use super::vocabulary::{GENERIC_RELATION, PART_OF};
use crate::errors::ToolError;
use crate::frontmatter;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::frontmatter::read_text;
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::link_table::link_table;
use crate::tools::common::structured::structured;
use crate::tools::common::vault_error::tool_error_from_vault;

/// The default number of suggestions.
const DEFAULT_SUGGESTIONS: usize = 20;

/// The arguments of `suggest_typed_links`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct SuggestTypedLinks {
    /// The vault-relative path of the note.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// The most suggestions to return (1–200, default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 200))]
    pub limit: Option<usize>,
}

/// Which rule chose the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum Rule {
    /// The target is the note's folder note.
    FolderNote,
    /// Notes of the same folder relate to the target by this key.
    PeerRelation,
    /// Only a body link: the generic key.
    BodyLink,
}

/// One proposed relation.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Suggestion {
    /// The note the relation would open.
    pub target_path: String,
    /// The proposed property name.
    pub key: String,
    /// The proposed list item, the body's spelling of the link (`[[Parser]]`).
    pub value: String,
    /// The rule that chose the key.
    pub rule: Rule,
    /// Why, for a human.
    pub reason: String,
    /// How many body links open the target.
    pub mentions: usize,
}

/// What `suggest_typed_links` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Suggestions {
    /// The note's canonical path.
    pub path: String,
    /// The suggestions, most linked first.
    pub suggestions: Vec<Suggestion>,
    /// Suggestions in all (more than listed when `limit` cut the list).
    pub total_count: usize,
    /// Body-linked notes left out because a typed relation already opens them.
    pub already_related: usize,
}

/// Suggested relations for a note (see the module docs).
pub(super) fn suggest_typed_links(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: SuggestTypedLinks = parse(args)?;
    let note = read_text(ctx.vault(), &args.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let fm = frontmatter::read(&note.text)
        .map_err(|error| tool_error_from_frontmatter(&error, &note.path))?;
    let table = link_table(ctx)?;
    let source = note.path;
    let related: BTreeSet<String> = relations(&fm.properties)
        .into_iter()
        .filter_map(|r| resolve(ctx, table.resolver(), &source, r).resolved_path)
        .collect();
    // Target → (mentions, the first spelling written).
    let mut linked: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for link in table.outgoing(&source) {
        let Some(target) = &link.resolved else {
            continue;
        };
        let body_link = matches!(link.kind.as_str(), "wikilink" | "markdown");
        if body_link && target != &source && is_note(target) && ctx.may_list(target) {
            let entry = linked
                .entry(target.clone())
                .or_insert_with(|| (0, link.target.clone()));
            entry.0 += 1;
        }
    }
    let already_related = linked.keys().filter(|t| related.contains(*t)).count();
    linked.retain(|target, _| !related.contains(target));
    let peers = peer_keys(ctx, &table, &source, &linked)?;
    let folder = folder_of(&source);
    let mut suggestions: Vec<Suggestion> = linked
        .into_iter()
        .map(|(target, (mentions, written))| {
            let (key, rule, reason) = if is_folder_note(folder, &target) {
                (
                    PART_OF.to_owned(),
                    Rule::FolderNote,
                    format!("{target} is the folder note of '{folder}', where this note lives"),
                )
            } else if let Some((key, count)) = peers.get(&target).and_then(most_used) {
                (
                    key.clone(),
                    Rule::PeerRelation,
                    format!("{count} other note(s) in '{folder}' relate to {target} by {key}"),
                )
            } else {
                (
                    GENERIC_RELATION.to_owned(),
                    Rule::BodyLink,
                    format!(
                        "the body links {target} {mentions} time(s) and no typed relation opens it"
                    ),
                )
            };
            Suggestion {
                value: format!("[[{written}]]"),
                target_path: target,
                key,
                rule,
                reason,
                mentions,
            }
        })
        .collect();
    suggestions.sort_by(|a, b| {
        b.mentions
            .cmp(&a.mentions)
            .then_with(|| a.target_path.cmp(&b.target_path))
    });
    let total_count = suggestions.len();
    suggestions.truncate(args.limit.unwrap_or(DEFAULT_SUGGESTIONS));
    structured(&Suggestions {
        path: source,
        suggestions,
        total_count,
        already_related,
    })
}

/// For each candidate target: relation key → how many readable notes of the source's folder
/// (the source aside) relate to it by that key.
fn peer_keys(
    ctx: &ToolContext<'_>,
    table: &crate::index::links::LinkTable,
    source: &str,
    candidates: &BTreeMap<String, (usize, String)>,
) -> Result<BTreeMap<String, BTreeMap<String, usize>>, ToolError> {
    let folder = folder_of(source);
    let mut out: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    if candidates.is_empty() {
        return Ok(out);
    }
    for peer in readable_facts(ctx)? {
        if peer.path == source || folder_of(&peer.path) != folder {
            continue;
        }
        let mut seen = BTreeSet::new();
        for relation in relations(&peer.frontmatter) {
            let link = resolve(ctx, table.resolver(), &peer.path, relation);
            if let Some(target) = link.resolved_path
                && candidates.contains_key(&target)
                && seen.insert((target.clone(), link.key.clone()))
            {
                *out.entry(target).or_default().entry(link.key).or_default() += 1;
            }
        }
    }
    Ok(out)
}

/// The most used key (the first by name among equals) and its count.
fn most_used(keys: &BTreeMap<String, usize>) -> Option<(&String, usize)> {
    keys.iter()
        .map(|(key, count)| (key, *count))
        .fold(None, |best, (key, count)| match best {
            Some((_, top)) if top >= count => best,
            _ => Some((key, count)),
        })
}

/// The folder of a vault path (`""` at the root).
fn folder_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(folder, _)| folder)
}

/// Whether `target` is the folder note of `folder`: `A/B.md` or `A/B/B.md` for `A/B`.
fn is_folder_note(folder: &str, target: &str) -> bool {
    let Some(name) = folder.rsplit('/').next().filter(|n| !n.is_empty()) else {
        return false;
    };
    target == format!("{folder}.md") || target == format!("{folder}/{name}.md")
}

/// Whether a path is a Markdown note.
fn is_note(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("md"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_notes_and_the_most_used_key() {
        assert!(is_folder_note("Projects/Alpha", "Projects/Alpha.md"));
        assert!(is_folder_note("Projects/Alpha", "Projects/Alpha/Alpha.md"));
        assert!(!is_folder_note("Projects/Alpha", "Projects/Beta.md"));
        assert!(!is_folder_note("", "Alpha.md"));
        let keys: BTreeMap<String, usize> = [("uses".to_owned(), 2), ("cites".to_owned(), 2)]
            .into_iter()
            .collect();
        assert_eq!(most_used(&keys), Some((&"cites".to_owned(), 2)));
    }
}
