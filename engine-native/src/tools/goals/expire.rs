//! `expire_goals`: the deadline sweep. Every open goal note (in the goals folder, readable
//! and writable by the caller) whose target day has passed gets `status: expired` and the
//! day in `closed`, so a person sees it in Obsidian. The maintenance task runs it on every
//! served vault at each interval (`upkeep/maintenance.rs`); `list_goals` and `close_goal`
//! apply the same rule when they read, so nothing waits for it.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::notes::{goal_notes, today};
use crate::errors::ToolError;
use crate::memory::{GoalStatus, closed_goal_text};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::write_back::write_back;

/// The tool's name, which the maintenance task calls.
pub const EXPIRE_GOALS: &str = "expire_goals";

/// The arguments of `expire_goals` (none but the vault).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ExpireGoals {}

/// What `expire_goals` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Expired {
    /// The ids (note paths) of the goals this sweep marked expired.
    expired: Vec<String>,
}

/// The `expire_goals` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            EXPIRE_GOALS,
            "Expire overdue goals",
            "Expire the user's goals whose target date has passed (the periodic goal sweep the server also runs); answers the ids it expired.",
        ),
        "memory",
        (input_schema::<ExpireGoals>(), output_schema::<Expired>()),
        expire_goals,
    )
    .keywords(&["expire goals", "goal sweep"])
    .scopes(&["write:workspace"])
}

fn expire_goals(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let ExpireGoals {} = parse(args)?;
    let today = today(ctx);
    let (notes, _) = goal_notes(ctx)?;
    let mut expired = Vec::new();
    for note in notes {
        let overdue = note.goal.written_status() == Some(GoalStatus::Open)
            && note.goal.status_on(today) == Some(GoalStatus::Expired);
        if !overdue || !ctx.may(&note.note.path, AclOp::Write) {
            continue;
        }
        let text = closed_goal_text(&note.note.text, GoalStatus::Expired, today)
            .map_err(|error| tool_error_from_frontmatter(&error, &note.note.path))?;
        write_back(
            ctx,
            &note.note.path,
            text.as_bytes(),
            Some(note.note.sha256),
        )?;
        expired.push(note.note.path);
    }
    structured(&Expired { expired })
}
