//! Lines, indentation and blockquote prefixes: the byte-level layout the block parser reads.

use alloc::vec::Vec;

/// One line of the input: `start..end` is its content without the line ending
/// (`\n` or `\r\n`); `next` is where the following line starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) next: usize,
}

/// Splits `text[from..]` into lines. A final line without `\n` is included when non-empty.
pub(crate) fn split_lines(text: &str, from: usize) -> Vec<Line> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = from;
    while start < bytes.len() {
        let newline = memchr(b'\n', bytes, start);
        let (end, next) = match newline {
            Some(n) => (
                if n > start && bytes[n - 1] == b'\r' {
                    n - 1
                } else {
                    n
                },
                n + 1,
            ),
            None => (bytes.len(), bytes.len()),
        };
        lines.push(Line { start, end, next });
        start = next;
    }
    lines
}

/// The first `needle` in `bytes[from..]`.
pub(crate) fn memchr(needle: u8, bytes: &[u8], from: usize) -> Option<usize> {
    bytes
        .get(from..)?
        .iter()
        .position(|&b| b == needle)
        .map(|i| i + from)
}

/// The first occurrence of `needle` in `bytes[from..]`.
pub(crate) fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let first = *needle.first()?;
    let mut at = from;
    while let Some(hit) = memchr(first, bytes, at) {
        if bytes.get(hit..hit + needle.len()) == Some(needle) {
            return Some(hit);
        }
        at = hit + 1;
    }
    None
}

/// Space or tab.
pub(crate) fn is_space_or_tab(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Leading indentation of `bytes[from..to]`: its width in columns (tabs stop every 4
/// columns, counted from `from`) and the offset of the first other byte.
pub(crate) fn indentation(bytes: &[u8], from: usize, to: usize) -> (usize, usize) {
    let mut cols = 0;
    let mut at = from;
    while at < to {
        match bytes[at] {
            b' ' => cols += 1,
            b'\t' => cols += 4 - cols % 4,
            _ => break,
        }
        at += 1;
    }
    (cols, at)
}

/// `true` when `bytes[from..to]` holds only spaces and tabs.
pub(crate) fn is_blank(bytes: &[u8], from: usize, to: usize) -> bool {
    bytes
        .get(from..to)
        .is_none_or(|s| s.iter().all(|&b| is_space_or_tab(b)))
}

/// `to` moved back over trailing spaces and tabs (not before `from`).
pub(crate) fn trim_end(bytes: &[u8], from: usize, mut to: usize) -> usize {
    while to > from && is_space_or_tab(bytes[to - 1]) {
        to -= 1;
    }
    to
}

/// Strips blockquote markers (`>` after at most 3 spaces, with one optional space or tab
/// after it) from the start of `bytes[from..to]`: the nesting depth and where the quoted
/// content starts.
pub(crate) fn strip_quote_markers(bytes: &[u8], from: usize, to: usize) -> (usize, usize) {
    let mut depth = 0;
    let mut content = from;
    loop {
        let (cols, at) = indentation(bytes, content, to);
        if cols > 3 || at >= to || bytes[at] != b'>' {
            return (depth, content);
        }
        depth += 1;
        content = at + 1;
        if content < to && is_space_or_tab(bytes[content]) {
            content += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_drop_lf_and_crlf_endings() {
        let lines = split_lines("a\r\nbc\n\nd", 0);
        let spans: Vec<_> = lines.iter().map(|l| (l.start, l.end, l.next)).collect();
        assert_eq!(spans, [(0, 1, 3), (3, 5, 6), (6, 6, 7), (7, 8, 8)]);
        assert!(split_lines("", 0).is_empty());
        assert_eq!(split_lines("x\n", 0).len(), 1);
    }

    #[test]
    fn tabs_advance_to_the_next_stop() {
        assert_eq!(indentation(b"  \tx", 0, 4), (4, 3));
        assert_eq!(indentation(b"    x", 0, 5), (4, 4));
        assert_eq!(indentation(b"x", 0, 1), (0, 0));
    }

    #[test]
    fn quote_markers_nest_and_stop_at_deep_indentation() {
        assert_eq!(strip_quote_markers(b"> > x", 0, 5), (2, 4));
        assert_eq!(strip_quote_markers(b">>x", 0, 3), (2, 2));
        assert_eq!(strip_quote_markers(b"    > x", 0, 7), (0, 0));
        assert_eq!(strip_quote_markers(b"   > x", 0, 6), (1, 5));
    }

    #[test]
    fn find_locates_multi_byte_needles() {
        assert_eq!(find(b"a%b%%c", 0, b"%%"), Some(3));
        assert_eq!(find(b"a%b%%c", 4, b"%%"), None);
        assert_eq!(find(b"--->", 0, b"-->"), Some(1));
    }
}
