//! `set_goal`: a goal a person stated, as a new note in the goals folder, named after its
//! first line. Stating an open goal's text again answers that goal, unchanged (a retried
//! call is harmless).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::notes::{GoalView, goal_notes, goals_folder, is_open, today};
use crate::calendar::Date;
use crate::errors::{ErrorCode, ToolError};
use crate::memory::{new_goal_text, read_goal};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::file_name::{clean_title, write_new_note};
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::structured::{output_schema, structured};

/// The most characters of the goal's first line its note's name takes.
const NAME_CHARS: usize = 60;

/// The note name of a goal whose first line leaves nothing usable.
const FALLBACK_NAME: &str = "Goal";

/// The arguments of `set_goal`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SetGoal {
    /// The goal, in the person's words (the note's text; its first line names the note).
    #[schemars(length(min = 1, max = 2000))]
    text: String,
    /// The day it should be reached by (`YYYY-MM-DD`); an open goal past it expires.
    #[serde(default)]
    #[schemars(length(min = 10, max = 10))]
    target_date: Option<String>,
}

/// What `set_goal` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct GoalSet {
    /// The goal.
    #[serde(flatten)]
    goal: GoalView,
    /// Whether a note was written (false: the same open goal was there already).
    new: bool,
}

/// The `set_goal` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "set_goal",
            "Set a goal",
            "Record a goal or objective the user explicitly stated (never an inferred one), with an optional target_date (YYYY-MM-DD); it is kept as a goal note the user can edit. The same text as a pending goal answers that goal.",
        ),
        "memory",
        (input_schema::<SetGoal>(), output_schema::<GoalSet>()),
        set_goal,
    )
    .keywords(&["goal", "new goal", "objective", "my aim", "want to achieve"])
    .scopes(&["write:workspace"])
    .idempotent(true)
}

fn set_goal(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: SetGoal = parse(args)?;
    let text = args.text.trim();
    if text.is_empty() {
        return Err(invalid("the goal's text is empty; say what the goal is"));
    }
    if let Some(c) = text
        .chars()
        .find(|c| c.is_control() && !matches!(c, '\n' | '\t'))
    {
        return Err(invalid(&format!(
            "the goal's text contains the control character {c:?}"
        )));
    }
    let target = match args.target_date.as_deref() {
        Some(day) => Some(Date::parse_iso(day).ok_or_else(|| {
            invalid(&format!(
                "target_date {day:?} is not a day written YYYY-MM-DD (2026-12-31)"
            ))
        })?),
        None => None,
    };
    let today = today(ctx);
    let (known, _) = goal_notes(ctx)?;
    if let Some(same) = known
        .iter()
        .find(|known| known.goal.text == text && is_open(&known.goal, today))
    {
        return structured(&GoalSet {
            goal: GoalView::of(&same.note.path, &same.goal, today),
            new: false,
        });
    }
    let folder = goals_folder(ctx);
    let note = new_goal_text(text, target, today)
        .map_err(|error| tool_error_from_frontmatter(&error, &folder))?;
    let outcome = write_new_note(ctx, &folder, &note_name(text), note.as_bytes())?;
    let goal = read_goal(&note)
        .ok()
        .flatten()
        .ok_or_else(|| ToolError::internal("a new goal note does not read back as a goal"))?;
    structured(&GoalSet {
        goal: GoalView::of(&outcome.path, &goal, today),
        new: true,
    })
}

/// The note name of a goal: its first line (without a heading's `#`), cleaned of what a
/// file name may not hold, cut to [`NAME_CHARS`] characters, without trailing dots.
fn note_name(text: &str) -> String {
    let first = text.lines().next().unwrap_or_default();
    let first = first.trim_start_matches(|c: char| c == '#' || c.is_whitespace());
    let cut: String = clean_title(first).chars().take(NAME_CHARS).collect();
    match cut.trim().trim_end_matches('.') {
        "" => FALLBACK_NAME.to_owned(),
        name => name.to_owned(),
    }
}

/// `invalid_input` saying `why`.
fn invalid(why: &str) -> ToolError {
    ToolError::new(ErrorCode::InvalidInput, why.to_owned())
}
