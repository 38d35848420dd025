//! What a status character means, as the Tasks plugin's core statuses name them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The kind of a task status character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StatusType {
    /// `[ ]`.
    Todo,
    /// `[/]`.
    InProgress,
    /// `[x]` or `[X]`.
    Done,
    /// `[-]`.
    Cancelled,
    /// Any other character (`?`, `>`, `!`, ...): a custom status.
    Custom,
}

impl StatusType {
    /// The type of the status character `symbol`.
    pub fn of(symbol: char) -> StatusType {
        match symbol {
            ' ' => StatusType::Todo,
            '/' => StatusType::InProgress,
            'x' | 'X' => StatusType::Done,
            '-' => StatusType::Cancelled,
            _ => StatusType::Custom,
        }
    }

    /// Whether the task is finished (done or cancelled).
    pub fn is_closed(self) -> bool {
        matches!(self, StatusType::Done | StatusType::Cancelled)
    }
}
