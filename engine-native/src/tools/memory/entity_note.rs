//! What the memory tools share: the memory folder, an entity's path from its name, reading an
//! entity note and writing it back.

use engine_core::acl::AclOp;
use engine_core::links::{LinkResolver, Resolution};
use schemars::JsonSchema;
use serde::Serialize;

use crate::calendar::Date;
use crate::content::findings::ContentFindings;
use crate::errors::{ErrorCode, ToolError};
use crate::memory::{Entity, read_entity};
use crate::runtime::ToolContext;
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::frontmatter::{NoteText, read_text};
use crate::tools::common::memory_folder::memory_folder;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::tools::common::write_back::write_back;
use crate::vault::VaultError;

/// The characters Obsidian refuses in a note name, and those that would make a link to it
/// ambiguous.
const FORBIDDEN: &[char] = &[
    '/', '\\', ':', '*', '?', '"', '<', '>', '|', '#', '^', '[', ']',
];

/// The longest entity name, in characters.
const MAX_NAME: usize = 200;

/// The properties an entity note keeps for itself: no relation may take their name.
pub(super) const RESERVED_PROPERTIES: [&str; 4] = ["type", "aliases", "status", "tags"];

/// The vault path of the entity `name` (`<memory folder>/<name>.md`); `invalid_input` for a
/// name no note can have, checked against the caller's folder ACL for `op`.
pub(super) fn entity_path(
    ctx: &ToolContext<'_>,
    name: &str,
    op: AclOp,
) -> Result<String, ToolError> {
    let trimmed = name.trim();
    let bad = |why: &str| {
        ToolError::new(
            ErrorCode::InvalidInput,
            format!(
                "the entity name {name:?} {why}; an entity is a note, so its name is a note name"
            ),
        )
    };
    if trimmed.is_empty() {
        return Err(bad("is empty"));
    }
    if trimmed != name {
        return Err(bad("starts or ends with spaces"));
    }
    if name.chars().count() > MAX_NAME {
        return Err(bad(&format!("is longer than {MAX_NAME} characters")));
    }
    if name.starts_with('.') {
        return Err(bad("starts with a dot (a hidden file)"));
    }
    if let Some(c) = name
        .chars()
        .find(|c| FORBIDDEN.contains(c) || c.is_control())
    {
        return Err(bad(&format!("contains {c:?}")));
    }
    let path = format!("{}/{name}.md", memory_folder(ctx));
    ctx.check_path(&path, op)?;
    Ok(path)
}

/// A relation name (a frontmatter property): not one an entity note keeps for itself.
pub(super) fn check_relation(relation: &str) -> Result<(), ToolError> {
    if RESERVED_PROPERTIES.contains(&relation) {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!(
                "`{relation}` is a property of the entity itself, not a relation; name the \
                 relation (works_at, part_of, knows, ...)"
            ),
        ));
    }
    Ok(())
}

/// A session id as written into an observation's `[session:: …]` field: no brackets or line
/// breaks, which would end the field early.
pub(super) fn check_session(session: Option<&str>) -> Result<(), ToolError> {
    match session.and_then(|id| {
        id.chars()
            .find(|c| matches!(c, '[' | ']') || c.is_control())
    }) {
        Some(c) => Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!(
                "the session {session:?} contains {c:?}; a session id is one word or a few, without brackets"
            ),
        )),
        None => Ok(()),
    }
}

/// An entity note as read: its text (with path and SHA-256) and what it says.
pub(super) struct EntityNote {
    /// The note's text.
    pub note: NoteText,
    /// What it says.
    pub entity: Entity,
}

/// Reads the entity note at `path`; `not_found` (saying to create it) when there is none.
pub(super) fn read_entity_note(
    ctx: &ToolContext<'_>,
    name: &str,
    path: &str,
) -> Result<EntityNote, ToolError> {
    let note = read_text(ctx.vault(), path).map_err(|error| match error {
        VaultError::NotFound { .. } => ToolError::new(
            ErrorCode::NotFound,
            format!("there is no entity {name:?} (no note {path}); create it with create_entity"),
        ),
        other => tool_error_from_vault(&other, AclOp::Read),
    })?;
    let entity =
        read_entity(&note.text).map_err(|error| tool_error_from_frontmatter(&error, path))?;
    Ok(EntityNote { note, entity })
}

/// Writes `text` over the entity note read as `note` (refused when it changed since); with
/// no text, nothing is written and the note is reported unchanged.
pub(super) fn write_entity_note(
    ctx: &ToolContext<'_>,
    note: NoteText,
    text: Option<&str>,
) -> Result<EntityWritten, ToolError> {
    let Some(text) = text else {
        return Ok(EntityWritten {
            path: note.path,
            changed: false,
            sha256: note.sha256,
            findings: ContentFindings::default(),
        });
    };
    write_back(ctx, &note.path, text.as_bytes(), Some(note.sha256))?;
    Ok(EntityWritten {
        path: note.path,
        changed: true,
        sha256: engine_core::hash::sha256_hex(text.as_bytes()),
        findings: ContentFindings::default(),
    })
}

/// The note a relation's `target`, written in the note at `source`, links to as Obsidian
/// resolves it (of several, the first the caller may read); `None` when it resolves to no
/// note the caller may read.
pub(super) fn readable_target(
    ctx: &ToolContext<'_>,
    resolver: &LinkResolver,
    target: &str,
    source: &str,
) -> Option<String> {
    let candidates = match resolver.resolve(target, source) {
        Resolution::Resolved(path) => vec![path],
        Resolution::Ambiguous(all) => all,
        Resolution::Unresolved => Vec::new(),
    };
    candidates
        .into_iter()
        .find(|path| ctx.may(path, AclOp::Read))
        .map(str::to_owned)
}

/// Today (UTC, by the dispatch clock) as `YYYY-MM-DD`: an observation's date.
pub(super) fn today(ctx: &ToolContext<'_>) -> String {
    let days = ctx.clock().now_ms() / 86_400_000;
    Date::from_days(i64::try_from(days).unwrap_or(i64::MAX)).to_string()
}

/// What a memory write returns.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct EntityWritten {
    /// The entity note's vault-relative path.
    pub path: String,
    /// Whether the note changed (false when the write was already done).
    pub changed: bool,
    /// The note's SHA-256 afterwards.
    pub sha256: String,
    /// What the text the agent gave (names, aliases, observations, relation targets) holds
    /// that is shaped like a credential or a prompt injection (written as given).
    #[serde(flatten)]
    pub findings: ContentFindings,
}
