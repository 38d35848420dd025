//! The Obsidian Kanban plugin's board format, read from a note's text without changing it.
//!
//! A board is a note whose frontmatter has `kanban-plugin` (`basic`, `board`, ...). Each
//! `## ` heading opens a column; a `***` line opens the archive (the columns after it are
//! archived); a `**Complete**` line under a heading marks the column's cards complete; a
//! list item at the start of a line (`- [ ] card`, `- [x] card`, `- card`) is a card, with
//! the indented non-blank lines after it as its continuation. The `%% kanban:settings`
//! block and everything after it belong to the plugin and are never part of a column.

use crate::errors::{ErrorCode, ToolError};

/// One line of the note: where it starts, where its text ends, where the next line starts.
#[derive(Debug, Clone, Copy)]
pub(super) struct Line {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset just before the line break.
    pub text_end: usize,
    /// Offset of the next line (after the line break).
    pub end: usize,
}

/// A card.
#[derive(Debug, Clone)]
pub(super) struct Card {
    /// The card's first line after the list marker and checkbox, trimmed.
    pub text: String,
    /// The checkbox state (`None`: a plain list item).
    pub checked: Option<bool>,
    /// Index of its first line.
    pub first: usize,
    /// Index one past its last line.
    pub last: usize,
}

/// A column.
#[derive(Debug, Clone)]
pub(super) struct Column {
    /// The heading text.
    pub name: String,
    /// Index of the heading line.
    pub heading: usize,
    /// Index of the `**Complete**` line, if the column has one.
    pub complete_marker: Option<usize>,
    /// Whether the column is after the `***` archive marker.
    pub archived: bool,
    /// The cards in order.
    pub cards: Vec<Card>,
}

/// A parsed board.
#[derive(Debug, Clone)]
pub(super) struct Board {
    /// Every line of the note.
    pub lines: Vec<Line>,
    /// The columns in order.
    pub columns: Vec<Column>,
}

/// The lines of `text`.
fn split_lines(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let end = text[start..]
            .find('\n')
            .map_or(text.len(), |i| start + i + 1);
        let mut text_end = if text[..end].ends_with('\n') {
            end - 1
        } else {
            end
        };
        if text[..text_end].ends_with('\r') {
            text_end -= 1;
        }
        lines.push(Line {
            start,
            text_end,
            end,
        });
        start = end;
    }
    lines
}

/// The card a line opens: its checkbox state and text, if the line is a list item at the
/// start of the line.
fn card_line(line: &str) -> Option<(Option<bool>, String)> {
    let rest = ["- ", "* ", "+ "]
        .iter()
        .find_map(|marker| line.strip_prefix(marker))?;
    let mut chars = rest.chars();
    if let (Some('['), Some(status), Some(']')) = (chars.next(), chars.next(), chars.next()) {
        let after = chars.as_str();
        if after.is_empty() || after.starts_with([' ', '\t']) {
            return Some((Some(status != ' '), after.trim().to_owned()));
        }
    }
    Some((None, rest.trim().to_owned()))
}

impl Board {
    /// Parses the board in `text`, whose body starts at byte `body_start`.
    pub fn parse(text: &str, body_start: usize) -> Board {
        let lines = split_lines(text);
        let mut columns: Vec<Column> = Vec::new();
        let mut archived = false;
        let mut index = lines.partition_point(|line| line.start < body_start);
        while index < lines.len() {
            let line = &text[lines[index].start..lines[index].text_end];
            if line.starts_with("%% kanban:settings") {
                break;
            }
            if line.trim_end() == "***" {
                archived = true;
            } else if let Some(name) = line.strip_prefix("## ") {
                columns.push(Column {
                    name: name.trim().to_owned(),
                    heading: index,
                    complete_marker: None,
                    archived,
                    cards: Vec::new(),
                });
            } else if let Some(column) = columns.last_mut() {
                if line.trim() == "**Complete**" && column.cards.is_empty() {
                    column.complete_marker = Some(index);
                } else if let Some((checked, card_text)) = card_line(line) {
                    let mut last = index + 1;
                    while last < lines.len() {
                        let next = &text[lines[last].start..lines[last].text_end];
                        if next.trim().is_empty() || !next.starts_with([' ', '\t']) {
                            break;
                        }
                        last += 1;
                    }
                    column.cards.push(Card {
                        text: card_text,
                        checked,
                        first: index,
                        last,
                    });
                    index = last;
                    continue;
                }
            }
            index += 1;
        }
        Board { lines, columns }
    }

    /// The column named `name` (exact, else case-insensitive); `not_found` listing the
    /// columns, or `ambiguous` when two columns carry the name.
    pub fn column(&self, name: &str, path: &str) -> Result<usize, ToolError> {
        let name = name.trim();
        let exact: Vec<usize> = (0..self.columns.len())
            .filter(|&i| self.columns[i].name == name)
            .collect();
        let found = if exact.is_empty() {
            (0..self.columns.len())
                .filter(|&i| self.columns[i].name.to_lowercase() == name.to_lowercase())
                .collect()
        } else {
            exact
        };
        let names: Vec<&str> = self.columns.iter().map(|c| c.name.as_str()).collect();
        match found.as_slice() {
            [one] => Ok(*one),
            [] => Err(ToolError::new(
                ErrorCode::NotFound,
                format!(
                    "'{path}' has no column '{name}': its columns are {}",
                    names.join(", ")
                ),
            )
            .with_details(serde_json::json!({"columns": names}))),
            _ => Err(ToolError::new(
                ErrorCode::Ambiguous,
                format!(
                    "'{path}' has {} columns named '{name}': rename one in the note",
                    found.len()
                ),
            )
            .with_details(serde_json::json!({"columns": names}))),
        }
    }

    /// The byte offset where a card goes in column `column`: before its first card
    /// (`top`), after its last card, or, in a column without cards, after the heading (and
    /// the `**Complete**` marker and one blank line after them).
    pub fn insertion_point(&self, text: &str, column: usize, top: bool) -> usize {
        let column = &self.columns[column];
        match (column.cards.first(), column.cards.last()) {
            (Some(first), _) if top => self.lines[first.first].start,
            (_, Some(last)) => self.lines[last.last - 1].end,
            _ => {
                let after = column.complete_marker.unwrap_or(column.heading) + 1;
                match self.lines.get(after) {
                    Some(line) if text[line.start..line.text_end].trim().is_empty() => line.end,
                    Some(line) => line.start,
                    None => text.len(),
                }
            }
        }
    }
}

/// The line break `text` uses (`\r\n` when its first line ends so, else `\n`).
pub(super) fn line_break(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if text[..i].ends_with('\r') => "\r\n",
        _ => "\n",
    }
}

/// `text` with `block` (whole lines) inserted at byte `at`, a line break added where the
/// file or the block lacked one.
pub(super) fn insert_lines(text: &str, at: usize, block: &str) -> String {
    let eol = line_break(text);
    let mut out = String::with_capacity(text.len() + block.len() + 2);
    out.push_str(&text[..at]);
    if at > 0 && !text[..at].ends_with('\n') {
        out.push_str(eol);
    }
    out.push_str(block);
    if !block.ends_with('\n') {
        out.push_str(eol);
    }
    out.push_str(&text[at..]);
    out
}
