//! `add_kanban_card` and `move_kanban_card`: one card's lines inserted or moved; every
//! other byte of the note, the `%% kanban:settings` block included, is kept. The write
//! carries the SHA-256 of the read.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use super::args::{AddCard, MoveCard, Position};
use super::board::{Board, insert_lines, line_break};
use super::load::{BoardNote, load_board, write_board};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;

/// A board changed.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct CardWritten {
    /// The note's path.
    pub path: String,
    /// The SHA-256 of the new content.
    pub sha256: String,
    /// The column the card is in now.
    pub column: String,
    /// The card's first line now, 1-based.
    pub line: usize,
    /// The card's lines as written.
    pub card: String,
}

/// Adds a card (see the module docs).
pub(super) fn add_kanban_card(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: AddCard = parse(args)?;
    let text = args.card.trim();
    if text.is_empty() || text.contains(['\n', '\r']) {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "the card text must be one non-empty line",
        ));
    }
    let note = load_board(ctx, &args.path, args.expected_sha256.as_deref())?;
    let column = note.board.column(&args.column, &note.path)?;
    let mark = if args.checked { 'x' } else { ' ' };
    let block = format!("- [{mark}] {text}{}", line_break(&note.text));
    place(ctx, &note, &note.text, column, args.position, &block)
}

/// Moves a card (see the module docs).
pub(super) fn move_kanban_card(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: MoveCard = parse(args)?;
    let note = load_board(ctx, &args.path, args.expected_sha256.as_deref())?;
    let board = &note.board;
    let from = args
        .from_column
        .as_deref()
        .map(|name| board.column(name, &note.path))
        .transpose()?;
    let wanted = args.card.trim();
    let found: Vec<(usize, usize)> = board
        .columns
        .iter()
        .enumerate()
        .filter(|(i, _)| from.is_none_or(|f| f == *i))
        .flat_map(|(i, c)| {
            c.cards
                .iter()
                .enumerate()
                .filter(|(_, card)| card.text == wanted)
                .map(move |(j, _)| (i, j))
        })
        .collect();
    let (column, index) = match found.as_slice() {
        [one] => *one,
        [] => {
            return Err(ToolError::new(
                ErrorCode::NotFound,
                format!(
                    "no card reads '{wanted}' in '{}'{}: read_kanban_board lists the cards with their exact text",
                    note.path,
                    args.from_column
                        .as_deref()
                        .map(|c| format!(" (column '{c}')"))
                        .unwrap_or_default()
                ),
            ));
        }
        many => {
            let matches: Vec<Value> = many
                .iter()
                .map(|&(c, k)| {
                    json!({"column": board.columns[c].name, "line": board.columns[c].cards[k].first + 1})
                })
                .collect();
            return Err(ToolError::new(
                ErrorCode::Ambiguous,
                format!(
                    "{} cards read '{wanted}': pass from_column to say which one",
                    many.len()
                ),
            )
            .with_details(json!({"matches": matches})));
        }
    };
    let to = board.column(&args.to_column, &note.path)?;
    let card = &board.columns[column].cards[index];
    let (start, end) = (
        board.lines[card.first].start,
        board.lines[card.last - 1].end,
    );
    let block = note.text[start..end].to_owned();
    let without = format!("{}{}", &note.text[..start], &note.text[end..]);
    place(ctx, &note, &without, to, args.position, &block)
}

/// Inserts `block` into column `column` of `text` (the note read as `note`, possibly with
/// a card taken out) and writes the result.
fn place(
    ctx: &ToolContext<'_>,
    note: &BoardNote,
    text: &str,
    column: usize,
    position: Position,
    block: &str,
) -> Result<Value, ToolError> {
    let board = Board::parse(text, note.body_start);
    let at = board.insertion_point(text, column, matches!(position, Position::Top));
    let updated = insert_lines(text, at, block);
    let line = updated[..at].matches('\n').count()
        + usize::from(at > 0 && !text[..at].ends_with('\n'))
        + 1;
    let written = write_board(ctx, note, &updated)?;
    structured(&CardWritten {
        path: written.path,
        sha256: written.sha256,
        column: board.columns[column].name.clone(),
        line,
        card: block.trim_end_matches(['\n', '\r']).to_owned(),
    })
}
