//! `create_entity`: a new entity note in the memory folder. The name is the natural key:
//! creating an entity that exists with the same type changes nothing (a retried call is
//! harmless); with another type it is `already_exists`.

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::entity_note::{
    EntityWritten, check_relation, check_session, entity_path, read_entity_note, today,
    write_entity_note,
};
use crate::content::findings::ContentFindings;
use crate::errors::{ErrorCode, ToolError};
use crate::memory::{EntityType, Observation, Relation, new_entity_text};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{VaultError, WriteOptions};

/// The arguments of `create_entity`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CreateEntity {
    /// The entity's name: the note's name, and how links name it.
    #[schemars(length(min = 1, max = 200))]
    name: String,
    /// What it is.
    #[serde(rename = "type")]
    kind: EntityType,
    /// Other names it goes by (the note's `aliases`: Obsidian offers them when linking, search finds them).
    #[serde(default)]
    #[schemars(length(max = 50))]
    aliases: Vec<String>,
    /// First facts about it.
    #[serde(default)]
    #[schemars(length(max = 100))]
    observations: Vec<String>,
    /// Typed relations to other notes (`{relation: "works_at", target: "Acme"}`).
    #[serde(default)]
    #[schemars(length(max = 100))]
    relations: Vec<RelationArg>,
    /// The session recording it, written with each observation.
    #[serde(default)]
    #[schemars(length(min = 1, max = 128))]
    session: Option<String>,
}

/// One typed relation.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RelationArg {
    /// The relation, a frontmatter property name (`works_at`, `part_of`).
    #[schemars(length(min = 1, max = 128))]
    pub relation: String,
    /// The note it points to, as a link names it (`Acme`).
    #[schemars(length(min = 1, max = 1024))]
    pub target: String,
}

/// The `create_entity` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "create_entity",
            "Create memory entity",
            "Create a memory entity, something to remember (its type: person, place, other...), as a note in the vault's memory folder: type and aliases in its properties, relations as typed links (works_at: \"[[Acme]]\"), observations as dated list items. Creating an existing entity with the same type changes nothing; another type is already_exists.",
        ),
        "memory",
        (input_schema::<CreateEntity>(), output_schema::<EntityWritten>()),
        create_entity,
    )
    .keywords(&["remember", "memory", "entity", "new entity", "knowledge graph", "record who", "keep track of"])
    .scopes(&["write:memory"])
    .idempotent(true)
}

fn create_entity(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: CreateEntity = parse(args)?;
    let path = entity_path(ctx, &args.name, AclOp::Write)?;
    check_session(args.session.as_deref())?;
    for relation in &args.relations {
        check_relation(&relation.relation)?;
    }
    let findings = ContentFindings::of(
        std::iter::once(args.name.as_str())
            .chain(args.aliases.iter().map(String::as_str))
            .chain(args.observations.iter().map(String::as_str))
            .chain(
                args.relations
                    .iter()
                    .map(|relation| relation.target.as_str()),
            ),
    );
    match read_entity_note(ctx, &args.name, &path) {
        Ok(existing) => {
            return match existing.entity.kind {
                Some(kind) if kind == args.kind => structured(&EntityWritten {
                    findings,
                    ..write_entity_note(ctx, existing.note, None)?
                }),
                other => Err(ToolError::new(
                    ErrorCode::AlreadyExists,
                    format!(
                        "the entity {:?} exists as {} ({}); choose another name, or read it with get_entity",
                        args.name,
                        other.map_or("a note without an entity type", EntityType::as_str),
                        existing.note.path
                    ),
                )),
            };
        }
        Err(error) if error.code == ErrorCode::NotFound => {}
        Err(error) => return Err(error),
    }
    let date = today(ctx);
    let observations: Vec<Observation> = args
        .observations
        .iter()
        .map(|text| Observation {
            text: text.clone(),
            date: Some(date.clone()),
            session: args.session.clone(),
        })
        .collect();
    let relations: Vec<Relation> = args
        .relations
        .iter()
        .map(|relation| Relation {
            relation: relation.relation.clone(),
            target: relation.target.clone(),
        })
        .collect();
    let text = new_entity_text(
        &args.name,
        args.kind,
        &args.aliases,
        &relations,
        &observations,
    )
    .map_err(|error| tool_error_from_frontmatter(&error, &path))?;
    ctx.mark_effect_started();
    let outcome = ctx
        .vault()
        .write(&path, text.as_bytes(), &WriteOptions::default())
        .map_err(|error| match error {
            VaultError::AlreadyExists { .. } => ToolError::new(
                ErrorCode::AlreadyExists,
                format!(
                    "the entity {:?} was created by another call just now; read it with get_entity",
                    args.name
                ),
            ),
            other => tool_error_from_vault(&other, AclOp::Write),
        })?;
    structured(&EntityWritten {
        path: outcome.path,
        changed: true,
        sha256: sha256_hex(text.as_bytes()),
        findings,
    })
}
