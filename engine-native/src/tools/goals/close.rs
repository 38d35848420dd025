//! `close_goal`: an open goal completed or abandoned, once. A goal that is not open (closed
//! already, by a tool or by a person, or past its target day), a note that is not a goal in
//! the goals folder, and an id that names no note all answer `closed: false`, changing
//! nothing.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::notes::{GoalView, in_goals_folder, is_open, today};
use crate::errors::ToolError;
use crate::memory::{GoalStatus, closed_goal_text, read_goal};
use crate::runtime::{PathArg, ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::frontmatter::{read_text, tool_error_from_frontmatter};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::tools::common::write_back::write_back;
use crate::vault::VaultError;

/// How a goal is closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Closing {
    /// The goal was reached.
    Completed,
    /// The goal was given up.
    Abandoned,
}

/// The arguments of `close_goal`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CloseGoal {
    /// The goal's id: its note's vault path, as `set_goal` and `list_goals` give it.
    #[schemars(length(min = 1, max = 1024))]
    id: String,
    /// `completed` or `abandoned`.
    status: Closing,
}

/// Why a goal was not closed.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum NotClosed {
    /// No goal note has this id in the goals folder.
    NotAGoal,
    /// The goal is not open (closed already, or expired).
    NotOpen,
}

/// What `close_goal` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Closed {
    /// Whether this call closed the goal.
    closed: bool,
    /// The goal afterwards (absent when there is no such goal).
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<GoalView>,
    /// Why it was not closed (absent when it was).
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<NotClosed>,
}

/// The `close_goal` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "close_goal",
            "Close a goal",
            "Mark one of the user's goals completed or abandoned, once; a goal already closed (by a tool or by the user) or expired, or an id that is no goal, answers closed: false.",
        ),
        "memory",
        (input_schema::<CloseGoal>(), output_schema::<Closed>()),
        close_goal,
    )
    .keywords(&[
        "goal done",
        "goal achieved",
        "give up goal",
        "abandon goal",
        "complete goal",
    ])
    .scopes(&["write:workspace"])
    .paths(&[PathArg {
        name: "id",
        op: AclOp::Write,
    }])
}

fn close_goal(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: CloseGoal = parse(args)?;
    let not_closed = |goal: Option<GoalView>, reason| {
        structured(&Closed {
            closed: false,
            goal,
            reason: Some(reason),
        })
    };
    let note = match read_text(ctx.vault(), &args.id) {
        Ok(note) => note,
        Err(
            VaultError::NotFound { .. }
            | VaultError::NotText { .. }
            | VaultError::IsDirectory { .. }
            | VaultError::NotRegularFile { .. },
        ) => {
            return not_closed(None, NotClosed::NotAGoal);
        }
        Err(error) => return Err(tool_error_from_vault(&error, AclOp::Read)),
    };
    let goal = match read_goal(&note.text) {
        Ok(Some(goal)) if in_goals_folder(ctx, &note.path) => goal,
        Ok(_) | Err(_) => return not_closed(None, NotClosed::NotAGoal),
    };
    let today = today(ctx);
    if !is_open(&goal, today) {
        return not_closed(
            Some(GoalView::of(&note.path, &goal, today)),
            NotClosed::NotOpen,
        );
    }
    let status = match args.status {
        Closing::Completed => GoalStatus::Completed,
        Closing::Abandoned => GoalStatus::Abandoned,
    };
    let text = closed_goal_text(&note.text, status, today)
        .map_err(|error| tool_error_from_frontmatter(&error, &note.path))?;
    write_back(ctx, &note.path, text.as_bytes(), Some(note.sha256))?;
    let closed = read_goal(&text).ok().flatten().unwrap_or(goal);
    structured(&Closed {
        closed: true,
        goal: Some(GoalView::of(&note.path, &closed, today)),
        reason: None,
    })
}
