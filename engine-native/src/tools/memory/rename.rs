//! `rename_entity`: an entity renamed and/or given a lifecycle status (`active`, `retired`).
//! A rename moves the note through the same link-safe commit as `move_note`: every link to
//! it in the vault is rewritten, all or nothing with the move; the title heading follows
//! the name and the old name is kept as an alias (so search and Obsidian's link suggestions
//! still find it by the name the agent knew). Retiring is the way out for an entity that is
//! no longer current: its note, observations and links stay.

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::entity_note::{EntityNote, entity_path, read_entity_note, write_entity_note};
use crate::errors::{ErrorCode, ToolError};
use crate::frontmatter::{self, Edit};
use crate::memory::{Entity, retitle};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::link_table::complete_link_table;
use crate::tools::common::relink::{NoteChange, PlannedMove, RelinkPlan, commit, plan_moves};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::{check_expected, tool_error_from_vault};
use crate::vault::VaultError;

/// An entity's lifecycle status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    /// Current.
    Active,
    /// No longer current, kept for the record.
    Retired,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Retired => "retired",
        }
    }
}

/// The arguments of `rename_entity`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RenameEntity {
    /// The entity's name now.
    #[schemars(length(min = 1, max = 200))]
    name: String,
    /// Its new name (the note is renamed and every link to it rewritten).
    #[serde(default)]
    #[schemars(length(min = 1, max = 200))]
    new_name: Option<String>,
    /// Its lifecycle status (`retired`: no longer current, kept for the record).
    #[serde(default)]
    status: Option<Status>,
    /// Keep the old name among the aliases after a rename (default true).
    #[serde(default = "keep")]
    keep_old_name_as_alias: bool,
}

fn keep() -> bool {
    true
}

/// What `rename_entity` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct EntityRenamed {
    /// The entity note's path now.
    path: String,
    /// Its path before, when it was renamed.
    #[serde(skip_serializing_if = "Option::is_none")]
    previous_path: Option<String>,
    /// Its status property afterwards, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<String>,
    /// Whether anything changed (false when the entity already had that name and status).
    changed: bool,
    /// How many links to it were rewritten.
    links_rewritten: usize,
    /// The notes whose links were rewritten (the caller may read them), by old path.
    notes_rewritten: Vec<String>,
    /// Notes linking to it that the caller may read but not write: their links were left
    /// as they are and no longer resolve (the old name stays an alias to find it by).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    skipped_notes: Vec<String>,
    /// The note's SHA-256 afterwards.
    sha256: String,
}

/// The `rename_entity` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "rename_entity",
            "Rename or retire memory entity",
            "Change what a memory entity is called and/or retire it (lifecycle active or retired). Every link to the entity is rewritten (all or nothing); the old name is kept as an alias. Retire an entity that is no longer current instead of deleting it.",
        ),
        "memory",
        (input_schema::<RenameEntity>(), output_schema::<EntityRenamed>()),
        rename_entity,
    )
    .keywords(&["retire", "no longer current", "outdated entity", "memory", "entity lifecycle"])
    .scopes(&["write:memory"])
}

fn rename_entity(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: RenameEntity = parse(args)?;
    if args.new_name.is_none() && args.status.is_none() {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "give new_name, status or both: there is nothing to change",
        ));
    }
    let path = entity_path(ctx, &args.name, AclOp::Write)?;
    let new = match args.new_name.as_deref().filter(|new| *new != args.name) {
        Some(new) => {
            ctx.check_path(&path, AclOp::Delete)?;
            Some((new, entity_path(ctx, new, AclOp::Write)?))
        }
        None => None,
    };
    let found = read_entity_note(ctx, &args.name, &path)?;
    let Some((new_name, new_path)) = new else {
        let text = edited_text(&found.note.text, &found.entity, &args, None)
            .map_err(|error| tool_error_from_frontmatter(&error, &path))?;
        let changed = (text != found.note.text).then_some(text.as_str());
        let status = found.entity.status.clone();
        let written = write_entity_note(ctx, found.note, changed)?;
        return structured(&EntityRenamed {
            path: written.path,
            previous_path: None,
            status: args
                .status
                .map(|status| status.as_str().to_owned())
                .or(status),
            changed: written.changed,
            links_rewritten: 0,
            notes_rewritten: Vec::new(),
            skipped_notes: Vec::new(),
            sha256: written.sha256,
        });
    };
    match ctx.vault().read(&new_path) {
        Err(VaultError::NotFound { .. }) => {}
        Ok(taken) => {
            let taken = VaultError::AlreadyExists { path: taken.path };
            return Err(tool_error_from_vault(&taken, AclOp::Write));
        }
        Err(other) => return Err(tool_error_from_vault(&other, AclOp::Write)),
    }
    let old_path = found.note.path.clone();
    let pairs = [(old_path.clone(), new_path.clone())];
    let mut plan = plan_moves(ctx, &*complete_link_table(ctx)?, &pairs)?;
    let text = with_edits(&mut plan, ctx, &found, &args, new_name)?;
    let moved = commit(
        ctx,
        &plan,
        &[PlannedMove {
            from: old_path.clone(),
            to: new_path.clone(),
            sha256: found.note.sha256.clone(),
            replaces: None,
        }],
    )?;
    structured(&EntityRenamed {
        path: moved.into_iter().next().unwrap_or(new_path),
        previous_path: Some(old_path),
        status: args
            .status
            .map(|status| status.as_str().to_owned())
            .or(found.entity.status),
        changed: true,
        links_rewritten: plan.links(),
        notes_rewritten: plan.visible_notes(ctx),
        skipped_notes: plan.skipped_notes.clone(),
        sha256: sha256_hex(text.as_bytes()),
    })
}

/// `text` (the entity note's, maybe with its own links rewritten) with the status set, and
/// after a rename to `new_name` its title heading renamed and the old name among its
/// aliases (when asked); `entity` is what the note said when read.
fn edited_text(
    text: &str,
    entity: &Entity,
    args: &RenameEntity,
    new_name: Option<&str>,
) -> Result<String, frontmatter::FrontmatterError> {
    let mut text = text.to_owned();
    if let Some(status) = args
        .status
        .filter(|status| entity.status.as_deref() != Some(status.as_str()))
    {
        let set = Edit::Set {
            key: "status".to_owned(),
            value: status.as_str().into(),
        };
        text = frontmatter::apply(&text, &set)?.text;
    }
    if let Some(new_name) = new_name {
        text = retitle(&text, &args.name, new_name);
        let known = |alias: &String| alias == &args.name || alias == new_name;
        if args.keep_old_name_as_alias && !entity.aliases.iter().any(known) {
            let mut aliases = entity.aliases.clone();
            aliases.push(args.name.clone());
            let set = Edit::Set {
                key: "aliases".to_owned(),
                value: aliases.into(),
            };
            text = frontmatter::apply(&text, &set)?.text;
        }
    }
    Ok(text)
}

/// Puts the entity note's own edit into the relink plan: on top of the plan's rewrite of the
/// note's own links when it has one, else as a change of its own; returns the note's final
/// text. The edit follows what the note said when first read, so a note changed since (read
/// again by the plan) is refused with `concurrent_modification`, never overwritten.
fn with_edits(
    plan: &mut RelinkPlan,
    ctx: &ToolContext<'_>,
    found: &EntityNote,
    args: &RenameEntity,
    new_name: &str,
) -> Result<String, ToolError> {
    let path = &found.note.path;
    let edit = |text: &str| {
        edited_text(text, &found.entity, args, Some(new_name))
            .map_err(|error| tool_error_from_frontmatter(&error, path))
    };
    if let Some(change) = plan.changes.iter_mut().find(|change| &change.path == path) {
        check_expected(
            path,
            Some(&change.original.sha256),
            Some(&found.note.sha256),
        )?;
        let relinked = std::str::from_utf8(&change.new_bytes)
            .map_err(|_| ToolError::internal("a rewritten entity note is not UTF-8"))?;
        let text = edit(relinked)?;
        change.new_bytes = text.clone().into_bytes();
        return Ok(text);
    }
    let text = edit(&found.note.text)?;
    if text != found.note.text {
        let note = ctx
            .vault()
            .read(path)
            .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
        check_expected(path, Some(&note.sha256), Some(&found.note.sha256))?;
        plan.changes.push(NoteChange {
            path: path.clone(),
            original: note,
            new_bytes: text.clone().into_bytes(),
            links: 0,
        });
    }
    Ok(text)
}
