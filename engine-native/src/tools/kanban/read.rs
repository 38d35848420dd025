//! `list_kanban_boards` and `read_kanban_board`.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::args::{ListBoards, ReadBoard};
use super::board::Board;
use super::load::{load_board, parse_board};
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::index::index_fault;
use crate::tools::common::paging::cursor_offset;
use crate::tools::common::structured::structured;

/// One card.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct CardView {
    /// The card's first line after its checkbox, trimmed (what move_kanban_card matches).
    pub text: String,
    /// The checkbox state (absent for a plain list item).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked: Option<bool>,
    /// Its first line, 1-based.
    pub line: usize,
    /// How many lines it spans (with its indented continuation lines).
    pub lines: usize,
}

/// One column.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct ColumnView {
    /// The heading text.
    pub name: String,
    /// The heading's line, 1-based.
    pub line: usize,
    /// Whether the column marks its cards complete (`**Complete**`).
    pub complete: bool,
    /// Whether the column is in the archive (after `***`).
    pub archived: bool,
    /// The cards in order.
    pub cards: Vec<CardView>,
}

/// A board read.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct BoardRead {
    /// The note's path.
    pub path: String,
    /// The SHA-256 of the note (the writes' `expected_sha256`).
    pub sha256: String,
    /// The `kanban-plugin` value (`basic`, `board`, ...).
    pub kind: String,
    /// The columns in order.
    pub columns: Vec<ColumnView>,
}

/// One column's size.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct ColumnCount {
    /// The heading text.
    pub name: String,
    /// Its cards.
    pub cards: usize,
}

/// One board listed.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct BoardSummary {
    /// The note's path.
    pub path: String,
    /// The `kanban-plugin` value.
    pub kind: String,
    /// Every column with its card count.
    pub columns: Vec<ColumnCount>,
    /// Cards on the board.
    pub cards: usize,
}

/// One page of boards.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct BoardList {
    /// The boards, by path.
    pub boards: Vec<BoardSummary>,
    /// Boards across pages.
    pub total: usize,
    /// The next page's cursor, if there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// The columns of `board` as returned.
fn column_views(board: &Board) -> Vec<ColumnView> {
    board
        .columns
        .iter()
        .map(|column| ColumnView {
            name: column.name.clone(),
            line: column.heading + 1,
            complete: column.complete_marker.is_some(),
            archived: column.archived,
            cards: column
                .cards
                .iter()
                .map(|card| CardView {
                    text: card.text.clone(),
                    checked: card.checked,
                    line: card.first + 1,
                    lines: card.last - card.first,
                })
                .collect(),
        })
        .collect()
}

/// Reads one board.
pub(super) fn read_kanban_board(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ReadBoard = parse(args)?;
    let note = load_board(ctx, &args.path, None)?;
    structured(&BoardRead {
        columns: column_views(&note.board),
        path: note.path,
        sha256: note.sha256,
        kind: note.kind,
    })
}

/// Lists the boards the caller may read: the index names the notes with `kanban-plugin`
/// in their frontmatter, hidden ones are dropped before any is read or counted.
pub(super) fn list_kanban_boards(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ListBoards = parse(args)?;
    let offset = cursor_offset(args.page.cursor())?;
    let limit = args.page.limit();
    let prefix = args.path_prefix.as_deref().unwrap_or("");
    let mut paths: Vec<String> = ctx
        .store()
        .note_facts()
        .all(ctx.vault_id())
        .map_err(index_fault)?
        .into_iter()
        .filter(|facts| facts.frontmatter.contains_key("kanban-plugin"))
        .map(|facts| facts.path)
        .filter(|path| path.starts_with(prefix) && ctx.may_list(path))
        .collect();
    paths.sort();
    let mut boards = Vec::new();
    for path in paths {
        let Ok(file) = ctx.vault().read(&path) else {
            continue;
        };
        let Some((kind, _, board)) = String::from_utf8(file.bytes)
            .ok()
            .and_then(|text| parse_board(&text))
        else {
            continue;
        };
        let columns: Vec<ColumnCount> = board
            .columns
            .iter()
            .map(|c| ColumnCount {
                name: c.name.clone(),
                cards: c.cards.len(),
            })
            .collect();
        boards.push(BoardSummary {
            cards: columns.iter().map(|c| c.cards).sum(),
            path: file.path,
            kind,
            columns,
        });
    }
    let total = boards.len();
    let page: Vec<_> = boards.into_iter().skip(offset).take(limit).collect();
    let next = offset + page.len();
    structured(&BoardList {
        boards: page,
        total,
        cursor: (next < total).then(|| next.to_string()),
    })
}
