//! The result every edit returns, and the one splice every edit makes.

use engine_core::markdown::extract;
use serde::Serialize;

use super::diff::{counts, diff};
use super::guard::needs_confirmation;
use super::text_lines::line_count;

/// A note's new text and what the edit did to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edit {
    /// The whole note after the edit.
    pub text: String,
    /// Whether `text` differs from the note before.
    pub changed: bool,
    /// Lines of the old note the new one no longer has (by a line diff, so rewording one
    /// line of a long section counts 1).
    pub lines_removed: usize,
    /// Lines of the new note the old one did not have.
    pub lines_added: usize,
    /// Lines of the old note's body (after the frontmatter).
    pub body_lines_before: usize,
    /// Whether the edit discards so much that a human must confirm it
    /// ([`needs_confirmation`](super::needs_confirmation)).
    pub needs_confirmation: bool,
}

impl Edit {
    /// Describes the edit from `before` to `after`.
    pub(crate) fn new(before: &str, after: String) -> Edit {
        let old: Vec<&str> = before.lines().collect();
        let new: Vec<&str> = after.lines().collect();
        let (lines_removed, lines_added) = counts(&diff(&old, &new));
        let body_start = extract(before)
            .frontmatter
            .map_or(0, |fm| fm.body_start.min(before.len()));
        let body_lines_before = line_count(&before[body_start..]);
        Edit {
            changed: after != before,
            text: after,
            lines_removed,
            lines_added,
            body_lines_before,
            needs_confirmation: needs_confirmation(lines_removed, body_lines_before),
        }
    }
}

/// `text` with `start..end` (whole lines, or an insertion point at a line boundary or the
/// end) replaced by `content`, keeping lines whole: a line break goes before `content` when
/// it would otherwise continue the line before, and after it when text follows or the note
/// ended with a line break. With `separate`, a blank line follows `content` too (so that it
/// cannot join a setext heading's text line that comes next).
pub(crate) fn splice(
    text: &str,
    start: usize,
    end: usize,
    content: &str,
    separate: bool,
) -> String {
    let mut out = String::with_capacity(text.len() + content.len() + 2);
    out.push_str(&text[..start]);
    if !content.is_empty() {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(content);
        if !content.ends_with('\n') && (end < text.len() || text.ends_with('\n')) {
            out.push('\n');
        }
        if separate && !out.ends_with("\n\n") {
            out.push('\n');
        }
    }
    out.push_str(&text[end..]);
    out
}
