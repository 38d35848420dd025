//! Heading and thematic-break lines (CommonMark rules).
//!
//! All functions take `bytes[at..end]`: a line's content after its indentation.

use super::lines::{is_space_or_tab, trim_end};

/// An ATX heading line: `#`..`######`, then a space, a tab or the end of the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Atx {
    pub(crate) level: u8,
    /// The heading text, trimmed, without a closing `#` sequence.
    pub(crate) text_start: usize,
    pub(crate) text_end: usize,
}

/// Parses an ATX heading starting at `at`.
pub(crate) fn atx(bytes: &[u8], at: usize, end: usize) -> Option<Atx> {
    let hashes = bytes[at..end].iter().take_while(|&&b| b == b'#').count();
    let after = at + hashes;
    if !(1..=6).contains(&hashes) || (after < end && !is_space_or_tab(bytes[after])) {
        return None;
    }
    let mut text_start = after;
    while text_start < end && is_space_or_tab(bytes[text_start]) {
        text_start += 1;
    }
    let mut text_end = trim_end(bytes, text_start, end);
    let closing = bytes[text_start..text_end]
        .iter()
        .rev()
        .take_while(|&&b| b == b'#')
        .count();
    let before_closing = text_end - closing;
    if closing > 0 && (before_closing == text_start || is_space_or_tab(bytes[before_closing - 1])) {
        text_end = trim_end(bytes, text_start, before_closing);
    }
    Some(Atx {
        level: hashes as u8,
        text_start,
        text_end,
    })
}

/// The level of a setext underline (`===` → 1, `---` → 2), if the line is one.
pub(crate) fn setext_underline(bytes: &[u8], at: usize, end: usize) -> Option<u8> {
    let marker = *bytes.get(at).filter(|_| at < end)?;
    let level = match marker {
        b'=' => 1,
        b'-' => 2,
        _ => return None,
    };
    let run_end = at + bytes[at..end].iter().take_while(|&&b| b == marker).count();
    (trim_end(bytes, run_end, end) == run_end).then_some(level)
}

/// `true` for a thematic break: three or more `-`, `*` or `_` (the same one), spaces and
/// tabs allowed between them, nothing else.
pub(crate) fn is_thematic_break(bytes: &[u8], at: usize, end: usize) -> bool {
    let Some(&marker) = bytes.get(at).filter(|_| at < end) else {
        return false;
    };
    if !matches!(marker, b'-' | b'*' | b'_') {
        return false;
    }
    let mut count = 0;
    for &b in &bytes[at..end] {
        if b == marker {
            count += 1;
        } else if !is_space_or_tab(b) {
            return false;
        }
    }
    count >= 3
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heading(s: &str) -> Option<(u8, &str)> {
        atx(s.as_bytes(), 0, s.len()).map(|h| (h.level, &s[h.text_start..h.text_end]))
    }

    #[test]
    fn atx_levels_and_closing_sequences() {
        assert_eq!(heading("# Title"), Some((1, "Title")));
        assert_eq!(heading("###### six ##"), Some((6, "six")));
        assert_eq!(heading("## a#b #"), Some((2, "a#b")));
        assert_eq!(heading("## C#"), Some((2, "C#")));
        assert_eq!(heading("#"), Some((1, "")));
        assert_eq!(heading("### ###"), Some((3, "")));
        assert_eq!(heading("#\tTab"), Some((1, "Tab")));
        assert_eq!(heading("#tag"), None);
        assert_eq!(heading("####### seven"), None);
    }

    #[test]
    fn setext_and_breaks() {
        assert_eq!(setext_underline(b"===  ", 0, 5), Some(1));
        assert_eq!(setext_underline(b"-", 0, 1), Some(2));
        assert_eq!(setext_underline(b"- -", 0, 3), None);
        assert!(is_thematic_break(b"- - -", 0, 5));
        assert!(is_thematic_break(b"___", 0, 3));
        assert!(!is_thematic_break(b"--", 0, 2));
        assert!(!is_thematic_break(b"-*-", 0, 3));
    }
}
