//! What the goal tools share: the goals folder, the goal notes in it as the caller may see
//! them, today's date, and a goal as a result shows it.

use schemars::JsonSchema;
use serde::Serialize;

use crate::calendar::Date;
use crate::config::VaultConfig;
use crate::errors::{ErrorCode, ToolError};
use crate::memory::{Goal, GoalStatus, read_goal};
use crate::runtime::ToolContext;
use crate::tools::common::frontmatter::{
    InvalidNote, NoteText, Texts, frontmatter_code, read_notes,
};
use crate::tools::common::memory_folder::memory_folder_of;

/// The subfolder of the memory folder that holds the goal notes.
const GOALS_SUBFOLDER: &str = "goals";

/// The vault folder of the goal notes: `<memory folder>/goals`.
pub(super) fn goals_folder(ctx: &ToolContext<'_>) -> String {
    goals_folder_of(ctx.vault_config())
}

/// The goals folder of the vault configured as `vault`.
pub fn goals_folder_of(vault: Option<&VaultConfig>) -> String {
    format!("{}/{GOALS_SUBFOLDER}", memory_folder_of(vault))
}

/// Whether `path` lies in the goals folder (at any depth).
pub(super) fn in_goals_folder(ctx: &ToolContext<'_>, path: &str) -> bool {
    path.strip_prefix(&goals_folder(ctx))
        .is_some_and(|rest| rest.starts_with('/'))
}

/// Today (UTC, by the dispatch clock).
pub(super) fn today(ctx: &ToolContext<'_>) -> Date {
    Date::from_unix_ms(ctx.clock().now_ms())
}

/// A goal note as read.
pub(super) struct GoalNote {
    /// The note's text, path and SHA-256.
    pub note: NoteText,
    /// What it says.
    pub goal: Goal,
}

/// The goal notes in the goals folder that the caller may list (none when there is no such
/// folder), sorted by path, and the notes there that could not be read as notes.
pub(super) fn goal_notes(
    ctx: &ToolContext<'_>,
) -> Result<(Vec<GoalNote>, Vec<InvalidNote>), ToolError> {
    let Texts { notes, mut invalid } = match read_notes(ctx, Some(&goals_folder(ctx))) {
        Ok(texts) => texts,
        Err(error) if error.code == ErrorCode::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(error) => return Err(error),
    };
    let mut goals = Vec::new();
    for note in notes {
        match read_goal(&note.text) {
            Ok(Some(goal)) => goals.push(GoalNote { note, goal }),
            Ok(None) => {}
            Err(error) => invalid.push(InvalidNote {
                code: frontmatter_code(&error).to_owned(),
                message: error.to_string(),
                line: None,
                path: note.path,
            }),
        }
    }
    Ok((goals, invalid))
}

/// A goal as the goal tools show it.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct GoalView {
    /// The goal's id: its note's vault path (pass it to `close_goal`).
    pub id: String,
    /// What the goal is: the note's text.
    pub text: String,
    /// `open`, `completed`, `abandoned` or `expired` (an open goal past its target day is
    /// `expired`, even before the sweep writes it), or the word a person wrote in the note.
    pub status: String,
    /// The target day (`YYYY-MM-DD`), when the note has a valid one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// When it was set (the note's `created`), when the note says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    /// When it was closed (the note's `closed`), when the note says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed: Option<String>,
}

impl GoalView {
    /// How `goal` (the note at `id`) shows on day `today`.
    pub(super) fn of(id: &str, goal: &Goal, today: Date) -> GoalView {
        GoalView {
            id: id.to_owned(),
            text: goal.text.clone(),
            status: match goal.status_on(today) {
                Some(status) => status.as_str().to_owned(),
                None => goal.status.clone().unwrap_or_default(),
            },
            target: goal.target.map(|day| day.to_string()),
            created: goal.created.clone(),
            closed: goal.closed.clone(),
        }
    }
}

/// Whether `goal` is open on day `today` (not closed, not past its target).
pub(super) fn is_open(goal: &Goal, today: Date) -> bool {
    goal.status_on(today) == Some(GoalStatus::Open)
}
