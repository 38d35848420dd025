//! The pure line edits of `edit_note`: insert after or before a line, replace or delete a
//! range of lines, each checked against the text the caller expects there. All operations
//! of one call are located on the note as it was read, checked, and then applied together;
//! any bad operation refuses the whole call, so the note never gets half of a patch.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::edits::{Edit, EditError};

/// What one operation does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum LineOpKind {
    /// Insert `content` after line `start` (0: at the top of the note).
    InsertAfter,
    /// Insert `content` before line `start`.
    InsertBefore,
    /// Replace lines `start..=end` by `content`.
    Replace,
    /// Delete lines `start..=end`.
    Delete,
}

/// One line operation, by 1-based line numbers of the note as read.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct LineOp {
    /// What to do.
    pub(super) op: LineOpKind,
    /// The first line (for `insert_after`, the line to insert after; 0 is the top).
    pub(super) start: usize,
    /// The last line of a `replace` or `delete` (default: `start`).
    #[serde(default)]
    pub(super) end: Option<usize>,
    /// The current text of the lines `replace` and `delete` change (required for them), or
    /// of the anchor line of an insert (optional), joined by `\n`; the call is refused when
    /// the note says something else there.
    #[serde(default)]
    pub(super) expected: Option<String>,
    /// The new lines for an insert or a `replace` (LF line breaks).
    #[serde(default)]
    pub(super) content: Option<String>,
}

/// One operation located on the note: lines `from..to` (0-based, end exclusive) become
/// `lines`; `from == to` inserts.
struct Splice {
    from: usize,
    to: usize,
    lines: Vec<String>,
}

/// `text` with every operation of `ops` applied, or the first reason one cannot be.
pub(super) fn apply_line_ops(text: &str, ops: &[LineOp]) -> Result<Edit, EditError> {
    if ops.is_empty() {
        return Err(EditError::invalid("give at least one operation"));
    }
    let lines: Vec<&str> = if text.is_empty() {
        Vec::new()
    } else {
        text.strip_suffix('\n')
            .unwrap_or(text)
            .split('\n')
            .collect()
    };
    let mut splices = ops
        .iter()
        .enumerate()
        .map(|(index, op)| locate(&lines, index, op))
        .collect::<Result<Vec<_>, _>>()?;
    splices.sort_by_key(|splice| (splice.from, splice.to));
    for pair in splices.windows(2) {
        if pair[1].from < pair[0].to {
            return Err(EditError::invalid(format!(
                "two operations overlap at line {}; give each line to at most one operation",
                pair[1].from + 1
            )));
        }
    }
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut at = 0;
    for splice in splices {
        out.extend(lines[at..splice.from].iter().map(|line| (*line).to_owned()));
        out.extend(splice.lines);
        at = splice.to;
    }
    out.extend(lines[at..].iter().map(|line| (*line).to_owned()));
    let mut after = out.join("\n");
    if !out.is_empty() && (text.ends_with('\n') || text.is_empty()) {
        after.push('\n');
    }
    Ok(Edit::new(text, after))
}

/// The splice `op` (the `index`-th operation) makes on `lines`.
fn locate(lines: &[&str], index: usize, op: &LineOp) -> Result<Splice, EditError> {
    let count = lines.len();
    let number = index + 1;
    let content = || {
        op.content
            .as_deref()
            .map(|content| {
                let content = content.strip_suffix('\n').unwrap_or(content);
                content.split('\n').map(str::to_owned).collect::<Vec<_>>()
            })
            .ok_or_else(|| {
                EditError::invalid(format!("operation {number} needs content: the new lines"))
            })
    };
    let no_end = || {
        if op.end.is_some() {
            Err(EditError::invalid(format!(
                "operation {number}: an insert takes start only, not end"
            )))
        } else {
            Ok(())
        }
    };
    match op.op {
        LineOpKind::InsertAfter | LineOpKind::InsertBefore => {
            no_end()?;
            let (first_valid, anchor) = if op.op == LineOpKind::InsertAfter {
                (0, op.start)
            } else {
                (1, op.start)
            };
            if anchor < first_valid || anchor > count {
                return Err(EditError::InvalidRange {
                    start: op.start,
                    end: op.start,
                    line_count: count,
                });
            }
            if anchor > 0 {
                check_expected(lines, number, anchor, anchor, op.expected.as_deref())?;
            }
            let at = if op.op == LineOpKind::InsertAfter {
                anchor
            } else {
                anchor - 1
            };
            Ok(Splice {
                from: at,
                to: at,
                lines: content()?,
            })
        }
        LineOpKind::Replace | LineOpKind::Delete => {
            let end = op.end.unwrap_or(op.start);
            if op.start == 0 || end < op.start || end > count {
                return Err(EditError::InvalidRange {
                    start: op.start,
                    end,
                    line_count: count,
                });
            }
            let Some(expected) = op.expected.as_deref() else {
                return Err(EditError::invalid(format!(
                    "operation {number} needs expected: the current text of lines {}..={end}",
                    op.start
                )));
            };
            check_expected(lines, number, op.start, end, Some(expected))?;
            let new_lines = if op.op == LineOpKind::Replace {
                content()?
            } else if op.content.is_some() {
                return Err(EditError::invalid(format!(
                    "operation {number}: delete takes no content; use replace"
                )));
            } else {
                Vec::new()
            };
            Ok(Splice {
                from: op.start - 1,
                to: end,
                lines: new_lines,
            })
        }
    }
}

/// Refuses when lines `start..=end` (1-based) are not `expected` (when given).
fn check_expected(
    lines: &[&str],
    number: usize,
    start: usize,
    end: usize,
    expected: Option<&str>,
) -> Result<(), EditError> {
    let Some(expected) = expected else {
        return Ok(());
    };
    let actual = lines[start - 1..end].join("\n");
    if actual == expected.strip_suffix('\n').unwrap_or(expected) {
        return Ok(());
    }
    Err(EditError::invalid(format!(
        "operation {number}: lines {start}..={end} read {actual:?}, not the expected {expected:?}; read the note again and give its current line numbers"
    )))
}
