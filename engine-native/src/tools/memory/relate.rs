//! `link_entities` and `unlink_entities`: a typed relation between two entities added to or
//! removed from the source entity's frontmatter (`works_at: "[[Acme]]"`). Source, relation
//! and target are the natural key: linking twice or unlinking what is not there changes
//! nothing.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::entity_note::{
    EntityWritten, check_relation, entity_path, read_entity_note, write_entity_note,
};
use crate::errors::ToolError;
use crate::frontmatter::FrontmatterError;
use crate::memory::{RelationEdit, link, unlink};
use crate::runtime::{Handler, ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `link_entities` and `unlink_entities`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Link {
    /// The entity the relation is written in.
    #[schemars(length(min = 1, max = 200))]
    from: String,
    /// The relation, a frontmatter property name (`works_at`, `part_of`, `knows`).
    #[schemars(length(min = 1, max = 128))]
    relation: String,
    /// The entity it points to.
    #[schemars(length(min = 1, max = 200))]
    to: String,
}

/// The `link_entities` tool.
pub(super) fn link_tool() -> ToolDef {
    relation_tool(
        (
            "link_entities",
            "Link memory entities",
            "Record a typed relation between two memory entities (both must exist) in the first one's properties as a link: works_at: \"[[Acme]]\", a list when it has several. Linking again changes nothing.",
        ),
        &[
            "relate",
            "relationship",
            "connect",
            "works at",
            "belongs to",
            "memory",
            "link entities",
        ],
        link_entities,
    )
}

/// The `unlink_entities` tool.
pub(super) fn unlink_tool() -> ToolDef {
    relation_tool(
        (
            "unlink_entities",
            "Unlink memory entities",
            "Remove a typed relation between two memory entities from the first one's properties (the property goes when no link is left in it). Unlinking what is not linked changes nothing.",
        ),
        &[
            "unrelate",
            "no longer",
            "disconnect",
            "remove relationship",
            "memory",
            "unlink entities",
        ],
        unlink_entities,
    )
}

fn relation_tool(
    (name, title, description): (&'static str, &'static str, &'static str),
    keywords: &'static [&'static str],
    handler: Handler,
) -> ToolDef {
    ToolDef::new(
        (name, title, description),
        "memory",
        (input_schema::<Link>(), output_schema::<EntityWritten>()),
        handler,
    )
    .keywords(keywords)
    .scopes(&["write:memory"])
}

fn link_entities(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: Link = parse(args)?;
    // The target must exist, so the link resolves.
    let target = entity_path(ctx, &args.to, AclOp::Read)?;
    read_entity_note(ctx, &args.to, &target)?;
    edit_relation(ctx, &args, link)
}

fn unlink_entities(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: Link = parse(args)?;
    entity_path(ctx, &args.to, AclOp::Read)?;
    edit_relation(ctx, &args, unlink)
}

/// Applies `edit` to the relation `args` names in the source entity's note.
fn edit_relation(
    ctx: &ToolContext<'_>,
    args: &Link,
    edit: fn(&str, &str, &str) -> Result<RelationEdit, FrontmatterError>,
) -> Result<Value, ToolError> {
    check_relation(&args.relation)?;
    let path = entity_path(ctx, &args.from, AclOp::Write)?;
    let found = read_entity_note(ctx, &args.from, &path)?;
    let edited = edit(&found.note.text, &args.relation, &args.to)
        .map_err(|error| tool_error_from_frontmatter(&error, &path))?;
    let text = match edited {
        RelationEdit::Unchanged => None,
        RelationEdit::Changed(text) => Some(text),
    };
    structured(&write_entity_note(ctx, found.note, text.as_deref())?)
}
