//! `list_goals`: the goals in the goals folder the caller may read, by status, newest first.
//! The deadline rule is applied as they are read: an open goal whose target day has passed
//! lists as `expired` before the sweep has written it into its note.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::notes::{GoalView, goal_notes, today};
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::frontmatter::InvalidNote;
use crate::tools::common::structured::{output_schema, structured};

/// Which goals to list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum StatusFilter {
    /// Open goals (not closed, not past their target day).
    #[default]
    Open,
    /// Reached.
    Completed,
    /// Given up.
    Abandoned,
    /// Past their target day while open.
    Expired,
    /// Every goal, whatever its status (a status word of a person's own included).
    Any,
}

impl StatusFilter {
    fn admits(self, status: &str) -> bool {
        match self {
            StatusFilter::Any => true,
            StatusFilter::Open => status == "open",
            StatusFilter::Completed => status == "completed",
            StatusFilter::Abandoned => status == "abandoned",
            StatusFilter::Expired => status == "expired",
        }
    }
}

/// The arguments of `list_goals`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListGoals {
    /// Which goals (default `open`).
    #[serde(default)]
    status: StatusFilter,
    /// The most goals to list (1-200, default 50).
    #[serde(default = "fifty")]
    #[schemars(range(min = 1, max = 200))]
    limit: usize,
}

fn fifty() -> usize {
    50
}

/// What `list_goals` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Goals {
    /// The goals, newest first (by `created`, then by id).
    goals: Vec<GoalView>,
    /// How many goals have the status asked for (more than listed when over `limit`).
    total: usize,
    /// Notes in the goals folder whose properties could not be read (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    invalid: Vec<InvalidNote>,
}

/// The `list_goals` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "list_goals",
            "List goals",
            "List the user's stated goals and objectives by status: pending (open, the default), completed, abandoned, expired, or any; newest first.",
        ),
        "memory",
        (input_schema::<ListGoals>(), output_schema::<Goals>()),
        list_goals,
    )
    .keywords(&[
        "goals",
        "my goals",
        "objectives",
        "what am I working towards",
    ])
    .scopes(&["read:notes"])
}

fn list_goals(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ListGoals = parse(args)?;
    let today = today(ctx);
    let (notes, invalid) = goal_notes(ctx)?;
    let mut goals: Vec<GoalView> = notes
        .iter()
        .map(|note| GoalView::of(&note.note.path, &note.goal, today))
        .filter(|goal| args.status.admits(&goal.status))
        .collect();
    goals.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| a.id.cmp(&b.id)));
    let total = goals.len();
    goals.truncate(args.limit);
    structured(&Goals {
        goals,
        total,
        invalid,
    })
}
