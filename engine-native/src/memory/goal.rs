//! A goal note: one note per goal a person stated, in the memory folder's `goals/` subfolder,
//! in a shape a person can read, edit and close in Obsidian (properties of Obsidian's own
//! types: `target`, `created` and `closed` are dates):
//!
//! ```markdown
//! ---
//! type: goal
//! status: open
//! target: 2026-12-31
//! created: 2026-11-29
//! source: stated
//! ---
//! Ship the 2.0 release.
//! ```
//!
//! The body is the goal's text. `status` is one of [`GoalStatus`] (`open` when a person left
//! it out); a goal is closed once (`closed` is the day); an open goal whose `target` day has
//! passed is `expired` ([`Goal::status_on`]), whatever the note says yet. Reading takes what
//! a person wrote as it is: other properties, a heading, another status word.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::calendar::Date;
use crate::frontmatter::{self, Edit, FrontmatterError};

/// The `type` of a goal note.
pub const GOAL_TYPE: &str = "goal";

/// The `source` of every goal: stated by a person, never inferred.
pub const STATED: &str = "stated";

/// Where a goal is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum GoalStatus {
    /// Being worked towards.
    Open,
    /// Reached.
    Completed,
    /// Given up.
    Abandoned,
    /// Its target day passed while it was open.
    Expired,
}

impl GoalStatus {
    /// The word in the note's `status` property.
    pub fn as_str(self) -> &'static str {
        match self {
            GoalStatus::Open => "open",
            GoalStatus::Completed => "completed",
            GoalStatus::Abandoned => "abandoned",
            GoalStatus::Expired => "expired",
        }
    }

    /// The status a `status` word names (any case), if it is one of ours.
    pub fn parse(word: &str) -> Option<GoalStatus> {
        [
            GoalStatus::Open,
            GoalStatus::Completed,
            GoalStatus::Abandoned,
            GoalStatus::Expired,
        ]
        .into_iter()
        .find(|status| status.as_str().eq_ignore_ascii_case(word.trim()))
    }
}

/// What a goal note says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Goal {
    /// The `status` property as written (`None` when the note has none).
    pub status: Option<String>,
    /// The `target` day, when it is a valid `YYYY-MM-DD` date.
    pub target: Option<Date>,
    /// The `created` property as written.
    pub created: Option<String>,
    /// The `closed` property as written.
    pub closed: Option<String>,
    /// The goal's text: the body after the frontmatter, trimmed.
    pub text: String,
}

impl Goal {
    /// The status the note's `status` word names: `open` when there is none, `None` for a
    /// word that is not one of [`GoalStatus`] (a person's own).
    pub fn written_status(&self) -> Option<GoalStatus> {
        match &self.status {
            None => Some(GoalStatus::Open),
            Some(word) => GoalStatus::parse(word),
        }
    }

    /// The status on day `today`: the written one, except that an open goal whose target
    /// day is before `today` is expired (the deadline rule).
    pub fn status_on(&self, today: Date) -> Option<GoalStatus> {
        match (self.written_status(), self.target) {
            (Some(GoalStatus::Open), Some(target)) if target < today => Some(GoalStatus::Expired),
            (status, _) => status,
        }
    }
}

/// Reads a goal note; `None` when the note's `type` is not `goal`. A frontmatter block that
/// is not valid YAML is the frontmatter error.
pub fn read_goal(text: &str) -> Result<Option<Goal>, FrontmatterError> {
    let front = frontmatter::read(text)?;
    let is_goal = front
        .properties
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|kind| kind.trim().eq_ignore_ascii_case(GOAL_TYPE));
    if !is_goal {
        return Ok(None);
    }
    let word = |key: &str| scalar(front.properties.get(key));
    let body = body_of(text);
    Ok(Some(Goal {
        status: word("status"),
        target: word("target").and_then(|day| Date::parse_iso(day.trim())),
        created: word("created"),
        closed: word("closed"),
        text: body.trim().to_owned(),
    }))
}

/// A property's value as text (a string, number or boolean), `None` when absent or empty.
fn scalar(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(text) if !text.trim().is_empty() => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    }
}

/// The text after the frontmatter block of `text` (all of it without one).
fn body_of(text: &str) -> &str {
    engine_core::markdown::frontmatter_of(text)
        .map_or(text, |span| &text[span.body_start.min(text.len())..])
}

/// A new goal note's text: `type: goal`, `status: open`, the `target` day when given,
/// `created` (`today`), `source: stated`, then `text` as the body. The block is made before
/// the body is added, so a body that itself starts with `---` stays body.
pub fn new_goal_text(
    text: &str,
    target: Option<Date>,
    today: Date,
) -> Result<String, FrontmatterError> {
    let mut properties: Vec<(&str, Value)> = vec![
        ("type", GOAL_TYPE.into()),
        ("status", GoalStatus::Open.as_str().into()),
    ];
    if let Some(target) = target {
        properties.push(("target", target.to_string().into()));
    }
    properties.push(("created", today.to_string().into()));
    properties.push(("source", STATED.into()));
    let mut note = frontmatter::block_of(properties)?;
    note.push_str(text.trim());
    note.push('\n');
    Ok(note)
}

/// The goal note `text` closed as `status` on `day`: its `status` and `closed` properties set,
/// every other byte as it was.
pub fn closed_goal_text(
    text: &str,
    status: GoalStatus,
    day: Date,
) -> Result<String, FrontmatterError> {
    let mut properties = Map::new();
    properties.insert("status".to_owned(), status.as_str().into());
    properties.insert("closed".to_owned(), day.to_string().into());
    Ok(frontmatter::apply(text, &Edit::Merge { properties })?.text)
}
