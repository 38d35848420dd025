//! Reading a board note and writing it back.

use engine_core::acl::AclOp;
use engine_core::markdown::frontmatter_of;
use serde_json::Value;

use super::board::Board;
use crate::errors::{ErrorCode, ToolError};
use crate::frontmatter::property;
use crate::runtime::ToolContext;
use crate::tools::common::vault_error::{check_expected, tool_error_from_vault};
use crate::tools::common::write_back::write_back;
use crate::vault::WriteOutcome;

/// A board note as read.
pub(super) struct BoardNote {
    /// Its canonical path.
    pub path: String,
    /// The SHA-256 of the bytes read.
    pub sha256: String,
    /// The note's text.
    pub text: String,
    /// The `kanban-plugin` value (`basic`, `board`, ...).
    pub kind: String,
    /// Byte offset where the note's body starts (after the frontmatter).
    pub body_start: usize,
    /// The parsed board.
    pub board: Board,
}

/// The board kind `text` declares in its frontmatter (`kanban-plugin`), if any.
pub(super) fn board_kind(text: &str) -> Option<String> {
    match property(text, "kanban-plugin").ok().flatten()? {
        Value::String(kind) if !kind.trim().is_empty() => Some(kind),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

/// The board at `text`: its kind, where its body starts, and its columns (`None` when the
/// note is no board).
pub(super) fn parse_board(text: &str) -> Option<(String, usize, Board)> {
    let kind = board_kind(text)?;
    let body_start = frontmatter_of(text).map_or(0, |f| f.body_start);
    Some((kind, body_start, Board::parse(text, body_start)))
}

/// Reads the board note at `path`; with `expected_sha256`, refuses a note that changed
/// since (`concurrent_modification`); a note without `kanban-plugin` is `invalid_input`.
pub(super) fn load_board(
    ctx: &ToolContext<'_>,
    path: &str,
    expected_sha256: Option<&str>,
) -> Result<BoardNote, ToolError> {
    let file = ctx
        .vault()
        .read(path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    check_expected(&file.path, Some(&file.sha256), expected_sha256)?;
    let text = String::from_utf8(file.bytes).map_err(|_| {
        ToolError::new(
            ErrorCode::InvalidInput,
            format!("'{}' is not UTF-8 text", file.path),
        )
    })?;
    let Some((kind, body_start, board)) = parse_board(&text) else {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!(
                "'{}' is not a Kanban board (no 'kanban-plugin' in its frontmatter): list_kanban_boards lists the boards",
                file.path
            ),
        ));
    };
    Ok(BoardNote {
        path: file.path,
        sha256: file.sha256,
        text,
        kind,
        body_start,
        board,
    })
}

/// Writes `text` over the board read as `note` (its SHA-256 the precondition).
pub(super) fn write_board(
    ctx: &ToolContext<'_>,
    note: &BoardNote,
    text: &str,
) -> Result<WriteOutcome, ToolError> {
    write_back(ctx, &note.path, text.as_bytes(), Some(note.sha256.clone()))
}
