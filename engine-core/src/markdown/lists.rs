//! List item markers and task checkboxes.

use super::lines::{indentation, is_space_or_tab};

/// A list item marker line, read from `bytes[at..end]` (the line after its indentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Marker {
    /// One past the marker (`-`, `1.`).
    pub(crate) marker_end: usize,
    /// Columns from the marker to the item's content (CommonMark: the marker width plus
    /// 1 to 4 spaces; plus 1 when the content is empty or indented further).
    pub(crate) content_offset: usize,
    /// First byte of the content (after the spaces following the marker).
    pub(crate) content: usize,
    /// `1.` / `1)` style.
    pub(crate) ordered: bool,
    /// An ordered marker numbered 1 (only those may interrupt a paragraph).
    pub(crate) starts_at_one: bool,
    /// Nothing but spaces after the marker.
    pub(crate) empty: bool,
}

/// Parses a bullet (`-`, `*`, `+`) or ordered (1–9 digits, then `.` or `)`) marker followed
/// by a space, a tab or the end of the line.
pub(crate) fn marker(bytes: &[u8], at: usize, end: usize) -> Option<Marker> {
    let first = *bytes.get(at).filter(|_| at < end)?;
    let (marker_end, ordered) = if matches!(first, b'-' | b'*' | b'+') {
        (at + 1, false)
    } else {
        let digits = bytes[at..end]
            .iter()
            .take(10)
            .take_while(|b| b.is_ascii_digit())
            .count();
        let delimiter = bytes.get(at + digits).filter(|_| at + digits < end);
        if !(1..=9).contains(&digits) || !matches!(delimiter, Some(b'.' | b')')) {
            return None;
        }
        (at + digits + 1, true)
    };
    if marker_end < end && !is_space_or_tab(bytes[marker_end]) {
        return None;
    }
    let (spaces, content) = indentation(bytes, marker_end, end);
    let empty = content >= end;
    let width = marker_end - at;
    let content_offset = if empty || spaces > 4 {
        width + 1
    } else {
        width + spaces
    };
    let starts_at_one = ordered
        && bytes[marker_end - 2] == b'1'
        && bytes[at..marker_end - 2].iter().all(|&b| b == b'0');
    Some(Marker {
        marker_end,
        content_offset,
        content,
        ordered,
        starts_at_one,
        empty,
    })
}

/// A task checkbox `[c]` at `at` (any single character `c`), followed by a space, a tab or
/// the end of the line: the status character and where the task text starts.
pub(crate) fn checkbox(text: &str, at: usize, end: usize) -> Option<(char, usize)> {
    let rest = text.get(at..end)?;
    let mut chars = rest.char_indices();
    if chars.next()?.1 != '[' {
        return None;
    }
    let (_, status) = chars.next()?;
    let (close_at, close) = chars.next()?;
    if close != ']' || status == '\n' {
        return None;
    }
    let after = at + close_at + 1;
    let bytes = text.as_bytes();
    if after < end && !is_space_or_tab(bytes[after]) {
        return None;
    }
    let (_, text_start) = indentation(bytes, after, end);
    Some((status, text_start))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Option<(usize, usize, bool, bool, bool)> {
        marker(s.as_bytes(), 0, s.len()).map(|m| {
            (
                m.content_offset,
                m.content,
                m.ordered,
                m.starts_at_one,
                m.empty,
            )
        })
    }

    #[test]
    fn bullet_and_ordered_markers() {
        assert_eq!(parse("- a"), Some((2, 2, false, false, false)));
        assert_eq!(parse("*   a"), Some((4, 4, false, false, false)));
        assert_eq!(parse("-      code"), Some((2, 7, false, false, false)));
        assert_eq!(parse("-"), Some((2, 1, false, false, true)));
        assert_eq!(parse("10. a"), Some((4, 4, true, false, false)));
        assert_eq!(parse("1) a"), Some((3, 3, true, true, false)));
        assert_eq!(parse("01. a"), Some((4, 4, true, true, false)));
        assert_eq!(parse("11. a"), Some((4, 4, true, false, false)));
        assert_eq!(parse("-a"), None);
        assert_eq!(parse("1234567890. a"), None);
        assert_eq!(parse("1.5"), None);
        assert_eq!(parse("x. a"), None);
    }

    #[test]
    fn checkboxes_take_any_single_character() {
        assert_eq!(checkbox("[ ] a", 0, 5), Some((' ', 4)));
        assert_eq!(checkbox("[x]", 0, 3), Some(('x', 3)));
        assert_eq!(checkbox("[é] b", 0, 6), Some(('é', 5)));
        assert_eq!(checkbox("[/]   c", 0, 7), Some(('/', 6)));
        assert_eq!(checkbox("[]", 0, 2), None);
        assert_eq!(checkbox("[xy] a", 0, 6), None);
        assert_eq!(checkbox("[x]a", 0, 4), None);
    }
}
