//! The typed errors of the note edits, each with a stable code and a message that says what
//! to do next. An error always means the note is left unchanged.

use std::fmt;

use serde::Serialize;

/// One place a target matched, for an [`EditError::Ambiguous`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Candidate {
    /// 1-based line number of the match.
    pub line: usize,
    /// What matched there: a heading path, a block id or the matching line's text.
    pub label: String,
}

/// Why an edit or a read could not be done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum EditError {
    /// The heading, block id or string is not in the note.
    NotFound {
        /// What was looked for, as the caller named it.
        target: String,
        /// What to do next.
        hint: String,
    },
    /// The target matches more than one place.
    Ambiguous {
        /// What was looked for, as the caller named it.
        target: String,
        /// How many places match.
        count: usize,
        /// The matches, in note order.
        candidates: Vec<Candidate>,
        /// What to do next.
        hint: String,
    },
    /// A line range that is empty, starts at 0 or starts after the last line.
    InvalidRange {
        /// The requested first line (1-based).
        start: usize,
        /// The requested last line (1-based, inclusive).
        end: usize,
        /// How many lines the note has.
        line_count: usize,
    },
    /// An argument that no note could satisfy (an empty search string, a malformed block id).
    InvalidInput {
        /// What is wrong and what to give instead.
        reason: String,
    },
}

impl EditError {
    /// The stable snake_case code: `not_found`, `ambiguous`, `invalid_range` or `invalid_input`.
    pub fn code(&self) -> &'static str {
        match self {
            EditError::NotFound { .. } => "not_found",
            EditError::Ambiguous { .. } => "ambiguous",
            EditError::InvalidRange { .. } => "invalid_range",
            EditError::InvalidInput { .. } => "invalid_input",
        }
    }

    /// An [`EditError::InvalidInput`] with `reason`.
    pub(crate) fn invalid(reason: impl Into<String>) -> EditError {
        EditError::InvalidInput {
            reason: reason.into(),
        }
    }
}

/// At most this many candidate lines are spelled out in a message.
const LINES_IN_MESSAGE: usize = 10;

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::NotFound { target, hint } => {
                write!(f, "{target} was not found in the note; {hint}")
            }
            EditError::Ambiguous {
                target,
                count,
                candidates,
                hint,
            } => {
                let lines: Vec<String> = candidates
                    .iter()
                    .take(LINES_IN_MESSAGE)
                    .map(|c| c.line.to_string())
                    .collect();
                let more = if candidates.len() > LINES_IN_MESSAGE {
                    ", …"
                } else {
                    ""
                };
                write!(
                    f,
                    "{target} matches {count} places (lines {}{more}); {hint}",
                    lines.join(", ")
                )
            }
            EditError::InvalidRange {
                start,
                end,
                line_count,
            } => write!(
                f,
                "lines {start}..={end} are not a range of this note, which has {line_count} lines; give 1 <= start <= end with start <= {line_count}"
            ),
            EditError::InvalidInput { reason } => f.write_str(reason),
        }
    }
}

impl std::error::Error for EditError {}
