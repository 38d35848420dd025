//! `get_entity`: what an entity note says, read from the vault (a human's edits included),
//! each relation resolved as Obsidian resolves the link.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::entity_note::{entity_path, read_entity_note, readable_target};
use crate::errors::ToolError;
use crate::memory::{EntityType, Observation};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::link_table;
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `get_entity`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GetEntity {
    /// The entity's name.
    #[schemars(length(min = 1, max = 200))]
    name: String,
}

/// One relation of the entity.
#[derive(Debug, Serialize, JsonSchema)]
struct RelationFound {
    /// The relation (the frontmatter property).
    relation: String,
    /// The link's target as written.
    target: String,
    /// The note the link resolves to, when it resolves to one the caller may read.
    path: Option<String>,
}

/// What `get_entity` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct EntityFound {
    /// The entity's name.
    name: String,
    /// The note's vault-relative path.
    path: String,
    /// Its type (absent when the note's `type` is not an entity type).
    #[serde(rename = "type")]
    kind: Option<EntityType>,
    /// Other names.
    aliases: Vec<String>,
    /// Its lifecycle status (`active`, `retired`: see rename_entity), when the note has one.
    status: Option<String>,
    /// The facts, in the note's order.
    observations: Vec<Observation>,
    /// The typed relations, in the frontmatter's order.
    relations: Vec<RelationFound>,
    /// The note's SHA-256.
    sha256: String,
}

/// The `get_entity` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "get_entity",
            "Get memory entity",
            "Read a memory entity by name from its note in the memory folder: type, aliases, observations (with date and session) and typed relations, each resolved to the note it links to. The note is read as it is now, edits made in Obsidian included.",
        ),
        "memory",
        (input_schema::<GetEntity>(), output_schema::<EntityFound>()),
        get_entity,
    )
    .keywords(&["recall", "memory", "entity", "what do you know about", "what do we know about", "facts about", "remembered"])
    .scopes(&["read:memory"])
}

fn get_entity(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GetEntity = parse(args)?;
    let path = entity_path(ctx, &args.name, AclOp::Read)?;
    let found = read_entity_note(ctx, &args.name, &path)?;
    let table = link_table(ctx)?;
    let resolver = table.resolver();
    let relations = found
        .entity
        .relations
        .into_iter()
        .map(|relation| {
            let path = readable_target(ctx, resolver, &relation.target, &found.note.path);
            RelationFound {
                relation: relation.relation,
                target: relation.target,
                path,
            }
        })
        .collect();
    structured(&EntityFound {
        name: args.name,
        path: found.note.path,
        kind: found.entity.kind,
        aliases: found.entity.aliases,
        status: found.entity.status,
        observations: found.entity.observations,
        relations,
        sha256: found.note.sha256,
    })
}
