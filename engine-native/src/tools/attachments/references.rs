//! Which notes reference which attachments, read from the vault's resolved link table
//! ([`crate::index::links::LinkTable`]: every link and embed of every note, resolved among
//! all the vault's files with Obsidian's rules, kept per index generation). A note the
//! caller may not read never counts.

use std::collections::{BTreeMap, BTreeSet};

use crate::index::links::LinkTable;
use crate::runtime::ToolContext;

/// Whether `path` is an attachment: not a note, canvas or base.
pub(super) fn is_attachment(path: &str) -> bool {
    !matches!(
        extension(path).to_ascii_lowercase().as_str(),
        "md" | "canvas" | "base"
    )
}

/// The extension of `path` without its dot (empty without one).
pub(super) fn extension(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rfind('.') {
        Some(dot) if dot > 0 => &name[dot + 1..],
        _ => "",
    }
}

/// For each referenced attachment, the notes the caller may read that reference it, sorted.
pub(super) fn readable_references(
    ctx: &ToolContext<'_>,
    table: &LinkTable,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut by_target: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for link in table.all() {
        let Some(target) = link.resolved.as_deref() else {
            continue;
        };
        if is_attachment(target) && ctx.may_list(&link.source) {
            by_target
                .entry(target.to_owned())
                .or_default()
                .insert(link.source.clone());
        }
    }
    by_target
}

/// The notes the caller may read that reference `attachment`, sorted.
pub(super) fn readable_referrers(
    ctx: &ToolContext<'_>,
    table: &LinkTable,
    attachment: &str,
) -> Vec<String> {
    let sources: BTreeSet<&str> = table
        .incoming(attachment)
        .map(|link| link.source.as_str())
        .filter(|source| ctx.may_list(source))
        .collect();
    sources.into_iter().map(str::to_owned).collect()
}
