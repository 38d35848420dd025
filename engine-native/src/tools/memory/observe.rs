//! `add_observation`: a fact added to an entity's observations section once: an observation
//! with the same words is not added again (a retried call changes nothing).

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::entity_note::{
    EntityWritten, check_session, entity_path, read_entity_note, today, write_entity_note,
};
use crate::content::findings::ContentFindings;
use crate::errors::ToolError;
use crate::memory::{Observation, add_observation};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `add_observation`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AddObservation {
    /// The entity's name.
    #[schemars(length(min = 1, max = 200))]
    name: String,
    /// The fact, one line (line breaks become spaces).
    #[schemars(length(min = 1, max = 4000))]
    text: String,
    /// The session recording it.
    #[serde(default)]
    #[schemars(length(min = 1, max = 128))]
    session: Option<String>,
}

/// The `add_observation` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "add_observation",
            "Add observation",
            "Add a fact to a memory entity: a list item in its note's Observations section with today's date and the session (Dataview fields [date:: ...] [session:: ...]). The same fact is not added twice: changed is false then.",
        ),
        "memory",
        (input_schema::<AddObservation>(), output_schema::<EntityWritten>()),
        add,
    )
    .keywords(&["remember that", "note that", "fact", "observation", "memory", "learned", "record a fact"])
    .scopes(&["write:memory"])
    .idempotent(true)
}

fn add(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: AddObservation = parse(args)?;
    let path = entity_path(ctx, &args.name, AclOp::Write)?;
    check_session(args.session.as_deref())?;
    let found = read_entity_note(ctx, &args.name, &path)?;
    let findings = ContentFindings::of([args.name.as_str(), args.text.as_str()]);
    let observation = Observation {
        text: args.text,
        date: Some(today(ctx)),
        session: args.session,
    };
    let text = add_observation(&found.note.text, &observation);
    let written = write_entity_note(ctx, found.note, text.as_deref())?;
    structured(&EntityWritten {
        findings,
        ..written
    })
}
