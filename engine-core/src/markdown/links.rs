//! Link syntax: wikilinks, markdown link destinations, autolinks, and the decoding of what
//! they point at. Links never span lines.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::lines::is_space_or_tab;
use super::types::Subpath;

/// The wikilink opened by `[[` at `at`: the end of its inner text and of its `]]`. The inner
/// text runs to the first `]]`; it may not contain `[[` (the inner one is the link) and may
/// not be blank.
pub(crate) fn wikilink(bytes: &[u8], at: usize, limit: usize) -> Option<(usize, usize)> {
    let inner = at + 2;
    let mut close = inner;
    while close + 1 < limit {
        match (bytes[close], bytes[close + 1]) {
            (b']', b']') => {
                let blank = bytes[inner..close].iter().all(|&b| is_space_or_tab(b));
                return (!blank).then_some((close, close + 2));
            }
            (b'[', b'[') => return None,
            _ => close += 1,
        }
    }
    None
}

/// Splits a wikilink's inner text into its destination and display text (after the first
/// `|`; a `\|`, as written in tables, counts as `|`). `None` when the destination is blank.
pub(crate) fn split_wikilink(inner: &str) -> Option<(String, Option<String>)> {
    let (target, display) = match inner.split_once('|') {
        Some((target, display)) => (target.strip_suffix('\\').unwrap_or(target), Some(display)),
        None => (inner, None),
    };
    let target = target.trim();
    let display = display
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(ToString::to_string);
    (!target.is_empty()).then(|| (target.to_string(), display))
}

/// Splits a link destination at its first `#` into the file path and the subpath.
pub(crate) fn split_subpath(link: &str) -> (String, Option<Subpath>) {
    let Some((path, sub)) = link.split_once('#') else {
        return (link.trim().to_string(), None);
    };
    let subpath = match sub.trim_start().strip_prefix('^') {
        Some(id) => Some(id.trim())
            .filter(|id| !id.is_empty())
            .map(|id| Subpath::Block { id: id.to_string() }),
        None => {
            let headings: Vec<String> = sub
                .split('#')
                .map(str::trim)
                .filter(|h| !h.is_empty())
                .map(ToString::to_string)
                .collect();
            (!headings.is_empty()).then_some(Subpath::Heading { headings })
        }
    };
    (path.trim().to_string(), subpath)
}

/// The destination of an inline markdown link: `(dest)`, `(<dest>)`, optionally followed by
/// a title in `"..."`, `'...'` or `(...)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Destination {
    /// The destination text (inside `<>` when bracketed).
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// One past the closing `)`.
    pub(crate) close: usize,
}

/// Parentheses may nest this deep in a destination (CommonMark's limit).
const MAX_PAREN_DEPTH: usize = 32;

/// Parses the destination whose `(` is at `open`, within `bytes[..limit]`.
pub(crate) fn destination(bytes: &[u8], open: usize, limit: usize) -> Option<Destination> {
    let skip_spaces = |mut at: usize| {
        while at < limit && is_space_or_tab(bytes[at]) {
            at += 1;
        }
        at
    };
    let mut at = skip_spaces(open + 1);
    let (start, end);
    if bytes.get(at) == Some(&b'<') && at < limit {
        start = at + 1;
        at = start;
        loop {
            match *bytes.get(at).filter(|_| at < limit)? {
                b'\\' if at + 1 < limit => at += 2,
                b'>' => break,
                b'<' => return None,
                _ => at += 1,
            }
        }
        end = at;
        at += 1;
    } else {
        start = at;
        let mut depth = 0usize;
        while at < limit {
            match bytes[at] {
                b'\\'
                    if bytes.get(at + 1).is_some_and(u8::is_ascii_punctuation)
                        && at + 1 < limit =>
                {
                    at += 2
                }
                b'(' if depth == MAX_PAREN_DEPTH => return None,
                b'(' => {
                    depth += 1;
                    at += 1;
                }
                b')' if depth == 0 => break,
                b')' => {
                    depth -= 1;
                    at += 1;
                }
                b if b <= b' ' || b == 0x7f => break,
                _ => at += 1,
            }
        }
        end = at;
    }
    let after_dest = at;
    at = skip_spaces(at);
    let title_close = match bytes.get(at).filter(|_| at > after_dest && at < limit) {
        Some(b'"') => Some(b'"'),
        Some(b'\'') => Some(b'\''),
        Some(b'(') => Some(b')'),
        _ => None,
    };
    if let Some(close_quote) = title_close {
        at += 1;
        loop {
            match *bytes.get(at).filter(|_| at < limit)? {
                b'\\' if at + 1 < limit => at += 2,
                b if b == close_quote => break,
                _ => at += 1,
            }
        }
        at = skip_spaces(at + 1);
    }
    (at < limit && bytes[at] == b')').then_some(Destination {
        start,
        end,
        close: at + 1,
    })
}

/// An autolink `<scheme:...>` at `at`: the URL's range and the end of the `>`.
pub(crate) fn autolink(bytes: &[u8], at: usize, limit: usize) -> Option<(usize, usize, usize)> {
    let start = at + 1;
    let scheme_len = scheme_len(&bytes[start..limit])?;
    let mut end = start + scheme_len + 1;
    while end < limit && bytes[end] != b'>' {
        if bytes[end] <= b' ' || bytes[end] == b'<' {
            return None;
        }
        end += 1;
    }
    (end < limit).then_some((start, end, end + 1))
}

/// The length of a URI scheme (`[A-Za-z][A-Za-z0-9+.-]{1,31}`) followed by `:` at the start
/// of `s`.
fn scheme_len(s: &[u8]) -> Option<usize> {
    if !s.first()?.is_ascii_alphabetic() {
        return None;
    }
    let len = s
        .iter()
        .take(33)
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'))
        .count();
    ((2..=32).contains(&len) && s.get(len) == Some(&b':')).then_some(len)
}

/// `true` when a destination names a URI scheme (`https:`, `mailto:`, `obsidian:` ...) and
/// so is not a vault path.
pub(crate) fn has_scheme(dest: &str) -> bool {
    scheme_len(dest.as_bytes()).is_some()
}

/// Removes the backslash of backslash-escaped ASCII punctuation.
pub(crate) fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek().is_some_and(char::is_ascii_punctuation) {
            continue;
        }
        out.push(c);
    }
    out
}

/// Decodes `%XX` escapes. Malformed escapes stay as written; if the decoded bytes are not
/// UTF-8, the input is returned unchanged.
pub(crate) fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = |i: usize| bytes.get(i).and_then(|&b| (b as char).to_digit(16));
        match (bytes[at], hex(at + 1), hex(at + 2)) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                at += 3;
            }
            (b, _, _) => {
                out.push(b);
                at += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dest(s: &str) -> Option<&str> {
        destination(s.as_bytes(), 0, s.len()).map(|d| &s[d.start..d.end])
    }

    #[test]
    fn wikilinks_end_at_the_first_close_and_not_across_an_inner_open() {
        assert_eq!(wikilink(b"[[a|b]] x", 0, 9), Some((5, 7)));
        assert_eq!(wikilink(b"[[a [[b]]", 0, 9), None);
        assert_eq!(wikilink(b"[[a [[b]]", 4, 9), Some((7, 9)));
        assert_eq!(wikilink(b"[[ ]]", 0, 5), None);
        assert_eq!(wikilink(b"[[a]", 0, 4), None);
        assert_eq!(wikilink(b"[[a]]", 0, 4), None);
    }

    #[test]
    fn wikilink_parts() {
        assert_eq!(
            split_wikilink("a#b|c|d"),
            Some(("a#b".into(), Some("c|d".into())))
        );
        assert_eq!(
            split_wikilink("a\\|b"),
            Some(("a".into(), Some("b".into())))
        );
        assert_eq!(split_wikilink(" a |"), Some(("a".into(), None)));
        assert_eq!(split_wikilink("|b"), None);
    }

    #[test]
    fn subpaths() {
        assert_eq!(split_subpath("a"), ("a".into(), None));
        assert_eq!(
            split_subpath("a#b#c"),
            (
                "a".into(),
                Some(Subpath::Heading {
                    headings: ["b".into(), "c".into()].into()
                })
            )
        );
        assert_eq!(
            split_subpath("#^x1"),
            ("".into(), Some(Subpath::Block { id: "x1".into() }))
        );
        assert_eq!(split_subpath("a#"), ("a".into(), None));
        assert_eq!(split_subpath("a#^"), ("a".into(), None));
    }

    #[test]
    fn destinations() {
        assert_eq!(dest("(a.md)"), Some("a.md"));
        assert_eq!(dest("( a.md \"title\" )"), Some("a.md"));
        assert_eq!(dest("(<my note.md>)"), Some("my note.md"));
        assert_eq!(dest("(a(b)c)"), Some("a(b)c"));
        assert_eq!(dest("(a b)"), None);
        assert_eq!(dest("(a"), None);
        assert_eq!(dest("()"), Some(""));
        assert_eq!(dest("(<a<b>)"), None);
        assert_eq!(dest("(a 'it''s')"), None);
        assert_eq!(dest("(a (t))"), Some("a"));
        assert_eq!(dest("(a\\)b)"), Some("a\\)b"));
        let deep = alloc::format!("({}{})", "(".repeat(40), ")".repeat(40));
        assert_eq!(dest(&deep), None);
    }

    #[test]
    fn autolinks_and_schemes() {
        let s = b"<https://x.y/#z> ";
        assert_eq!(autolink(s, 0, s.len()), Some((1, 15, 16)));
        assert_eq!(autolink(b"<a b:c>", 0, 7), None);
        assert_eq!(autolink(b"<x:y>", 0, 5), None);
        assert!(has_scheme("mailto:a@b.c"));
        assert!(has_scheme("obsidian://open"));
        assert!(!has_scheme("C:\\notes"));
        assert!(!has_scheme("notes/a.md"));
        assert!(!has_scheme("a.md#b:c"));
    }

    #[test]
    fn decoding() {
        assert_eq!(unescape("a\\_b\\c"), "a_b\\c");
        assert_eq!(percent_decode("My%20Note.md"), "My Note.md");
        assert_eq!(percent_decode("caf%C3%A9"), "café");
        assert_eq!(percent_decode("100%.md"), "100%.md");
        assert_eq!(percent_decode("%FF"), "%FF");
    }
}
