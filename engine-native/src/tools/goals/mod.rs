//! Goals a person stated, kept as notes (domain `memory`): each goal is a note in the memory
//! folder's `goals/` subfolder (`<memoryFolder>/goals/`, any depth) in the shape of
//! [`crate::memory::goal`], so a person sees, edits and closes it in Obsidian, and these tools
//! read the notes back as they are on disk: a note a person wrote there with `type: goal` is
//! a goal too, and a status a person set is the goal's status.
//!
//! - `set_goal`: a new goal note (`status: open`, `source: stated`: goals are stated, never
//!   inferred); the same text as an open goal answers that goal.
//! - `list_goals`: the goals by status, newest first.
//! - `close_goal`: an open goal completed or abandoned, once.
//! - `expire_goals`: the deadline sweep, which the maintenance task also runs on every vault
//!   at each interval: an open goal whose target day has passed gets `status: expired`.
//!
//! A goal's id is its note's vault path: what Obsidian and every other tool name it by, and
//! what dispatch's folder ACL checks as a path argument. The deadline rule is applied on
//! every read (`list_goals` shows an open goal past its target as `expired`, `close_goal`
//! refuses it) and written into the note by the sweep.

mod close;
mod expire;
mod list;
mod notes;
mod set;

use crate::runtime::ToolDef;

/// The name of the deadline sweep the maintenance task runs.
pub use expire::EXPIRE_GOALS;
/// Where a vault keeps its goal notes.
pub use notes::goals_folder_of;

/// The goal tools.
pub fn tools() -> Vec<ToolDef> {
    vec![set::tool(), list::tool(), close::tool(), expire::tool()]
}
