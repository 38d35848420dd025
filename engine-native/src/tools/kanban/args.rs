//! The arguments of the Kanban tools.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::tools::common::paging::{CursorLength, PageArgs, Paging};

/// `list_kanban_boards` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ListBoards {
    /// Only boards whose path starts with this (a folder: `Projects/`).
    pub path_prefix: Option<String>,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    pub page: PageArgs<BoardPaging>,
}

/// `list_kanban_boards` pages by 100 boards (at most 1000); `limit` may be `null`.
pub(super) struct BoardPaging;

impl Paging for BoardPaging {
    const ITEMS: &'static str = "boards";
    const CURSOR: CursorLength = CursorLength::ANY;
    const NULLABLE_LIMIT: bool = true;
    const NULL_DEFAULTS: bool = false;
}

/// `read_kanban_board` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ReadBoard {
    /// The board note.
    pub path: String,
}

/// Where in a column a card goes.
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum Position {
    /// Before the column's first card.
    Top,
    /// After the column's last card.
    #[default]
    Bottom,
}

/// `add_kanban_card` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct AddCard {
    /// The board note.
    pub path: String,
    /// The column's name (its `## ` heading).
    pub column: String,
    /// The card's text (one line; Markdown, links, tags and dates as the plugin writes them).
    pub card: String,
    /// Whether the card starts checked (`- [x]`).
    #[serde(default)]
    pub checked: bool,
    /// `top` or `bottom` (default) of the column.
    #[serde(default)]
    pub position: Position,
    /// The SHA-256 read_kanban_board returned: refused if the note changed since.
    pub expected_sha256: Option<String>,
}

/// `move_kanban_card` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct MoveCard {
    /// The board note.
    pub path: String,
    /// The card's text exactly as read_kanban_board returned it.
    pub card: String,
    /// The column it is in now (narrows the match when the text repeats).
    pub from_column: Option<String>,
    /// The column it goes to.
    pub to_column: String,
    /// `top` or `bottom` (default) of the target column.
    #[serde(default)]
    pub position: Position,
    /// The SHA-256 read_kanban_board returned: refused if the note changed since.
    pub expected_sha256: Option<String>,
}
