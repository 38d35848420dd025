//! `find_typed_link_backrefs`: the notes whose typed relations open a given note.
//!
//! The properties come from the index (the notes' stored frontmatter); each note is checked
//! against the caller's ACL before its relations are even read, so a hidden note never
//! appears and never counts.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::relations::{relations, resolve};
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::store::NoteFacts;
use crate::tools::common::args::parse;
use crate::tools::common::link_table::{existing_note, link_table};
use crate::tools::common::paging::{Page, PageArgs, Paging, page};
use crate::tools::common::structured::structured;

/// The arguments of `find_typed_link_backrefs`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct FindBackrefs {
    /// The vault-relative path of the note pointed at.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// Only relations of this property (e.g. `part_of`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 256))]
    pub key: Option<String>,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    pub page: PageArgs<BackrefPaging>,
}

/// `find_typed_link_backrefs` pages by 100 notes (at most 1000); `limit` may be `null`.
pub(super) struct BackrefPaging;

impl Paging for BackrefPaging {
    const ITEMS: &'static str = "notes";
    const NULLABLE_LIMIT: bool = true;
}

/// One relation of a referring note.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct BackrefRelation {
    /// The property name.
    pub key: String,
    /// The value (or list item) as written.
    pub value: String,
}

/// One note whose relations open the target.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Backref {
    /// The referring note.
    pub source: String,
    /// Its relations that open the target, in property order.
    pub relations: Vec<BackrefRelation>,
}

/// What `find_typed_link_backrefs` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Backrefs {
    /// The target's canonical path.
    pub path: String,
    /// The referring notes of this page, by path, with `total_count` and `cursor`.
    #[serde(flatten)]
    pub page: Page<Backref>,
}

/// The notes whose typed relations open `path` (see the module docs).
pub(super) fn find_typed_link_backrefs(
    ctx: &ToolContext<'_>,
    args: Value,
) -> Result<Value, ToolError> {
    let args: FindBackrefs = parse(args)?;
    let table = link_table(ctx)?;
    let target = existing_note(ctx, &table, &args.path)?;
    let mut found = Vec::new();
    for note in readable_facts(ctx)? {
        if note.path == target {
            continue;
        }
        let of_key = note
            .frontmatter
            .iter()
            .filter(|(key, _)| args.key.as_ref().is_none_or(|wanted| wanted == *key));
        let matching: Vec<BackrefRelation> = relations(of_key)
            .into_iter()
            .map(|relation| resolve(ctx, table.resolver(), &note.path, relation))
            .filter(|link| link.resolved_path.as_deref() == Some(target.as_str()))
            .map(|link| BackrefRelation {
                key: link.key,
                value: link.value,
            })
            .collect();
        if !matching.is_empty() {
            found.push(Backref {
                source: note.path,
                relations: matching,
            });
        }
    }
    found.sort_by(|a, b| a.source.cmp(&b.source));
    let limit = args.page.limit();
    structured(&Backrefs {
        page: page(found, args.page.cursor(), limit)?,
        path: target,
    })
}

/// The indexed facts of every note the caller may read, by path.
pub(super) fn readable_facts(ctx: &ToolContext<'_>) -> Result<Vec<NoteFacts>, ToolError> {
    let all = ctx
        .store()
        .note_facts()
        .all(ctx.vault_id())
        .map_err(|error| ToolError::internal(format!("reading the index failed: {error}")))?;
    Ok(all
        .into_iter()
        .filter(|note| ctx.may_list(&note.path))
        .collect())
}
