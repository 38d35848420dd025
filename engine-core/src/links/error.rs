//! Typed failures of link parsing, resolution and rewriting.
//!
//! Nothing in this module panics on bad input: every refusal is one of these values with a
//! reason a caller can show or match on.

use alloc::string::String;
use core::fmt;

use serde::{Deserialize, Serialize};

/// A path given as vault-relative was not one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathError {
    /// The offending path, as given.
    pub path: String,
    /// What is wrong with it (the ACL's path validation decides for every module).
    pub problem: crate::acl::PathError,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "vault path {:?}: {}", self.path, self.problem)
    }
}

/// Why a piece of text is not a link this module understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SyntaxError {
    /// The text starts with neither `[[`, `![[`, `[` nor `![`.
    NotALink,
    /// A wikilink without its closing `]]`.
    UnclosedWikilink,
    /// A wikilink spanning more than one line (Obsidian ends a wikilink at the line end).
    MultilineWikilink,
    /// A link whose target is empty: `[[]]`, `[[|alias]]`, `[text]()`.
    EmptyTarget,
    /// A markdown link whose `[text]` is never closed.
    UnclosedText,
    /// A markdown link whose `]` is not followed by `(`.
    MissingDestination,
    /// A markdown link destination or title that is not closed before the text ends.
    UnclosedDestination,
    /// Text follows the end of the link inside the span.
    TrailingText,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SyntaxError::NotALink => "not a wikilink or markdown link",
            SyntaxError::UnclosedWikilink => "wikilink is not closed with ']]'",
            SyntaxError::MultilineWikilink => "wikilink spans a line break",
            SyntaxError::EmptyTarget => "link target is empty",
            SyntaxError::UnclosedText => "markdown link text is not closed with ']'",
            SyntaxError::MissingDestination => "markdown link text is not followed by '('",
            SyntaxError::UnclosedDestination => "markdown link destination is not closed",
            SyntaxError::TrailingText => "text follows the end of the link",
        })
    }
}

/// Why a link could not be rewritten for a move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RewriteError {
    /// The link text does not parse.
    Syntax(SyntaxError),
    /// A path argument is not a vault path.
    Path(PathError),
    /// The new target cannot be written in the link's syntax (a wikilink cannot hold `|`,
    /// `#`, `[[`, `]]` or a line break in its target).
    Unrepresentable {
        /// The path that could not be written.
        path: String,
    },
    /// No spelling of the link resolves to the new target in the vault after the move
    /// (only possible when the vault holds paths that differ only by case or normalization).
    Unreachable {
        /// The target no spelling reaches.
        path: String,
    },
    /// A link span lies outside the text, is not on character boundaries, or overlaps the
    /// previous span (spans must be sorted by start).
    BadSpan {
        /// Start byte offset of the span.
        start: usize,
        /// End byte offset of the span.
        end: usize,
    },
}

impl fmt::Display for RewriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RewriteError::Syntax(e) => write!(f, "{e}"),
            RewriteError::Path(e) => write!(f, "{e}"),
            RewriteError::Unrepresentable { path } => {
                write!(f, "{path:?} cannot be written as the target of this link")
            }
            RewriteError::Unreachable { path } => {
                write!(f, "no spelling of the link resolves to {path:?}")
            }
            RewriteError::BadSpan { start, end } => {
                write!(
                    f,
                    "link span {start}..{end} is out of bounds, off a character boundary or overlapping"
                )
            }
        }
    }
}

impl From<SyntaxError> for RewriteError {
    fn from(e: SyntaxError) -> Self {
        RewriteError::Syntax(e)
    }
}

impl From<PathError> for RewriteError {
    fn from(e: PathError) -> Self {
        RewriteError::Path(e)
    }
}
