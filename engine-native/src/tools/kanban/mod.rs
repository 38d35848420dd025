//! Kanban tools (the Obsidian Kanban plugin's Markdown boards; domain `structured`):
//!
//! - `list_kanban_boards`: the board notes the caller may read, with column and card counts.
//! - `read_kanban_board`: columns and cards (text, checked, line).
//! - `add_kanban_card`: a new card at the top or bottom of a column.
//! - `move_kanban_card`: a card matched by its exact text moved to another column with its
//!   original lines (checkbox, inline metadata, indented continuation lines).
//!
//! The board format is in `board`; edits change only the card's lines, the rest of the note
//! (the `%% kanban:settings` block included) stays byte for byte.

mod args;
mod board;
mod edit;
mod load;
mod read;

use crate::runtime::{Handler, PathArg, Schemas, ToolDef};
use crate::tools::common::args::{PATH_READ, PATH_READ_WRITE, input_schema};
use crate::tools::common::structured::output_schema;

/// The Kanban tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        kanban_tool(
            ("list_kanban_boards", "List Kanban boards"),
            "List the Kanban plugin boards (kanban-plugin in frontmatter) you may read, each with its columns and card counts. Paged: limit and cursor; path_prefix narrows to a folder.",
            &["kanban", "boards", "all boards", "which boards"],
            (
                input_schema::<args::ListBoards>(),
                output_schema::<read::BoardList>(),
            ),
            (&["read:notes"], &[]),
            read::list_kanban_boards,
        ),
        kanban_tool(
            ("read_kanban_board", "Read Kanban board"),
            "Read a Kanban plugin board: its columns (## headings; complete and archived flags) and their cards (card, checked, line), and its SHA-256 for add_kanban_card / move_kanban_card.",
            &[
                "column",
                "what's in the column",
                "kanban",
                "kanban board",
                "cards",
                "lanes",
                "board contents",
                "cards on board",
            ],
            (
                input_schema::<args::ReadBoard>(),
                output_schema::<read::BoardRead>(),
            ),
            (&["read:notes"], PATH_READ),
            read::read_kanban_board,
        ),
        kanban_tool(
            ("add_kanban_card", "Add Kanban card"),
            "Add a card (- [ ] ...) to a Kanban board column by name, at its top or bottom (default). Every other byte, the settings block included, is kept. expected_sha256 refuses a board that changed.",
            &[
                "put in column",
                "to do column",
                "put on the board",
                "kanban",
                "kanban card",
                "new card",
                "add card",
                "board",
            ],
            (
                input_schema::<args::AddCard>(),
                output_schema::<edit::CardWritten>(),
            ),
            (&["write:notes"], PATH_READ_WRITE),
            edit::add_kanban_card,
        ),
        kanban_tool(
            ("move_kanban_card", "Move Kanban card"),
            "Move a Kanban card, matched by its exact text (from_column narrows it; several matches fail with ambiguous listing them), to another column's top or bottom, keeping its lines as they are (checkbox, inline fields, indented lines).",
            &[
                "kanban",
                "kanban card",
                "move card",
                "lanes",
                "another column",
                "board",
            ],
            (
                input_schema::<args::MoveCard>(),
                output_schema::<edit::CardWritten>(),
            ),
            (&["write:notes"], PATH_READ_WRITE),
            edit::move_kanban_card,
        ),
    ]
}

/// One Kanban tool of domain `structured` (not destructive, no idempotency key).
fn kanban_tool(
    (name, title): (&'static str, &'static str),
    description: &'static str,
    keywords: &'static [&'static str],
    schemas: Schemas,
    (scopes, path_args): (&'static [&'static str], &'static [PathArg]),
    handler: Handler,
) -> ToolDef {
    ToolDef::new((name, title, description), "structured", schemas, handler)
        .keywords(keywords)
        .scopes(scopes)
        .paths(path_args)
}
