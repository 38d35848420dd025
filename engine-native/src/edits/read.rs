//! `read_note` ranges: a span of lines, a heading's section or a block, with its line and
//! byte range so callers can show context.

use engine_core::markdown::{ByteRange, extract};
use serde::Serialize;

use super::error::EditError;
use super::locate::{block, section};
use super::text_lines::TextLines;

/// What part of a note to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadTarget {
    /// Lines `start..=end`, 1-based; `end` is clamped to the last line.
    Lines {
        /// First line, 1-based.
        start: usize,
        /// Last line, 1-based, inclusive.
        end: usize,
    },
    /// A heading's section, named by its text or a path `Parent#Child`.
    Heading(String),
    /// The block carrying this id (with or without the leading `^`).
    Block(String),
}

/// An inclusive, 1-based range of lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LineRange {
    /// First line, 1-based.
    pub start: usize,
    /// Last line, 1-based, inclusive.
    pub end: usize,
}

/// The text a [`ReadTarget`] selects and where it lies in the note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Selection {
    /// The selected text (whole lines, line breaks included).
    pub text: String,
    /// The lines it spans.
    pub lines: LineRange,
    /// The bytes it spans in the note.
    pub bytes: ByteRange,
}

/// Selects part of `text` (LF line breaks, no BOM).
pub fn read_range(text: &str, target: &ReadTarget) -> Result<Selection, EditError> {
    let lines = TextLines::new(text);
    let (start, end) = match target {
        ReadTarget::Lines { start, end } => {
            let count = lines.count();
            if *start == 0 || start > end || *start > count {
                return Err(EditError::InvalidRange {
                    start: *start,
                    end: *end,
                    line_count: count,
                });
            }
            (lines.start(start - 1), lines.end((*end).min(count) - 1))
        }
        ReadTarget::Heading(path) => {
            let span = section(&extract(text), &lines, path)?;
            (span.start, span.end)
        }
        ReadTarget::Block(id) => {
            let span = block(text, &extract(text), &lines, id)?;
            (span.start, span.end)
        }
    };
    Ok(Selection {
        text: text[start..end].to_owned(),
        lines: LineRange {
            start: lines.line_of(start) + 1,
            end: lines.line_of(end.saturating_sub(1).max(start)) + 1,
        },
        bytes: ByteRange { start, end },
    })
}
