//! `get_typed_links`: one note's frontmatter relations, each resolved like Obsidian.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::relations::{Status, TypedLink, relations, resolve};
use crate::errors::ToolError;
use crate::frontmatter;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::frontmatter::read_text;
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::link_table::link_table;
use crate::tools::common::structured::structured;
use crate::tools::common::vault_error::tool_error_from_vault;

/// The arguments of `get_typed_links`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct GetTypedLinks {
    /// The vault-relative path of the note.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// Only the relations of this property (e.g. `part_of`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 256))]
    pub key: Option<String>,
}

/// What `get_typed_links` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct TypedLinks {
    /// The note's canonical path.
    pub path: String,
    /// Its relations in property order, list items in order.
    pub links: Vec<TypedLink>,
    /// How many resolve to exactly one file.
    pub resolved_count: usize,
    /// How many match several files.
    pub ambiguous_count: usize,
    /// How many resolve to no readable file.
    pub unresolved_count: usize,
    /// The note's SHA-256, for `expected_sha256`.
    pub sha256: String,
}

/// A note's typed relations (see the module docs).
pub(super) fn get_typed_links(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GetTypedLinks = parse(args)?;
    let note = read_text(ctx.vault(), &args.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let fm = frontmatter::read(&note.text)
        .map_err(|error| tool_error_from_frontmatter(&error, &note.path))?;
    let table = link_table(ctx)?;
    let ordered = fm
        .keys
        .iter()
        .filter(|key| args.key.as_ref().is_none_or(|wanted| wanted == *key))
        .filter_map(|key| fm.properties.get_key_value(key));
    let links: Vec<TypedLink> = relations(ordered)
        .into_iter()
        .map(|relation| resolve(ctx, table.resolver(), &note.path, relation))
        .collect();
    let count = |status: Status| links.iter().filter(|l| l.status == status).count();
    structured(&TypedLinks {
        resolved_count: count(Status::Resolved),
        ambiguous_count: count(Status::Ambiguous),
        unresolved_count: count(Status::Unresolved),
        path: note.path,
        links,
        sha256: note.sha256,
    })
}
