//! Link syntax primitives shared by extraction ([`crate::markdown`]) and by resolution and
//! rewriting ([`crate::links`]), so both read a link the same way: CommonMark inline
//! destinations (`(dest "title")`, `(<dest>)`), URI schemes, backslash escapes,
//! percent-decoding as JavaScript's `decodeURIComponent`, the wikilink `|` / `\|` alias
//! split, the `#` subpath split, and JavaScript's whitespace (Obsidian is JavaScript).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::lines::is_space_or_tab;

/// Whitespace as JavaScript's `\s` and `String.prototype.trim` define it.
pub(crate) fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `s` without surrounding whitespace, like JavaScript's `trim`.
pub(crate) fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// The length of the whitespace [`js_trim`] removes from the start of `s`.
pub(crate) fn js_leading_space(s: &str) -> usize {
    s.len() - s.trim_start_matches(is_js_whitespace).len()
}

/// Where a wikilink's inner text splits into its target and its display text: the end of
/// the target and the start of the display text (after the first `|`; a `\|`, as written in
/// tables, counts as `|`), or the whole text and `None` without a `|`.
pub(crate) fn wikilink_alias_split(inner: &str) -> (usize, Option<usize>) {
    match inner.find('|') {
        Some(bar) if inner[..bar].ends_with('\\') => (bar - 1, Some(bar + 1)),
        Some(bar) => (bar, Some(bar + 1)),
        None => (inner.len(), None),
    }
}

/// Where the subpath of a written link destination starts: the first `#`, in `raw` as
/// written. A backslash-escaped `\#` is a `#` too (escapes are undone before the
/// destination is read as a URL; the index is then that of its `\`), while `%23` is not:
/// percent-encoding is decoded after the split, so it spells a `#` inside a name.
pub(crate) fn subpath_start(raw: &str) -> usize {
    let bytes = raw.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        match (bytes[at], bytes.get(at + 1)) {
            (b'#', _) | (b'\\', Some(b'#')) => return at,
            (b'\\', Some(next)) if next.is_ascii_punctuation() => at += 2,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// The destination of an inline markdown link: `(dest)`, `(<dest>)`, optionally followed by
/// a title in `"..."`, `'...'` or `(...)` after whitespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Destination {
    /// Start of the destination text (inside `<>` when bracketed).
    pub(crate) start: usize,
    /// End of the destination text.
    pub(crate) end: usize,
    /// One past the closing `)`.
    pub(crate) close: usize,
    /// Whether the destination is written in angle brackets.
    pub(crate) angle_brackets: bool,
}

/// Parentheses may nest this deep in a destination (CommonMark's reference limit).
const MAX_PAREN_DEPTH: usize = 32;

/// Parses the destination whose `(` is at `open`, within `bytes[..limit]`. Links do not
/// span lines: only spaces and tabs may separate the parts.
pub(crate) fn destination(bytes: &[u8], open: usize, limit: usize) -> Option<Destination> {
    let skip_spaces = |mut at: usize| {
        while at < limit && is_space_or_tab(bytes[at]) {
            at += 1;
        }
        at
    };
    let mut at = skip_spaces(open + 1);
    let angle_brackets = at < limit && bytes[at] == b'<';
    let (start, end);
    if angle_brackets {
        start = at + 1;
        end = angle_destination_end(bytes, start, limit)?;
        at = end + 1;
    } else {
        start = at;
        at = bare_destination_end(bytes, start, limit)?;
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
        angle_brackets,
    })
}

/// The `>` closing an angle-bracket destination whose text starts at `from`; `None` when
/// an unescaped `<` or a line break comes first, or nothing closes it before `limit`.
pub(crate) fn angle_destination_end(bytes: &[u8], from: usize, limit: usize) -> Option<usize> {
    let mut at = from;
    while at < limit {
        match bytes[at] {
            b'\\' if at + 1 < limit => at += 2,
            b'>' => return Some(at),
            b'<' | b'\n' | b'\r' => return None,
            _ => at += 1,
        }
    }
    None
}

/// The end of a bare destination starting at `from`: the first space or control
/// character, or a `)` that closes no `(` of the destination. `None` when parentheses nest
/// deeper than CommonMark's limit.
fn bare_destination_end(bytes: &[u8], from: usize, limit: usize) -> Option<usize> {
    let mut at = from;
    let mut depth = 0usize;
    while at < limit {
        match bytes[at] {
            b'\\' if at + 1 < limit && bytes[at + 1].is_ascii_punctuation() => at += 2,
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
    Some(at)
}

/// The length of a URI scheme (`[A-Za-z][A-Za-z0-9+.-]{1,31}`, as in CommonMark autolinks)
/// followed by `:` at the start of `s`.
pub(crate) fn scheme_len(s: &[u8]) -> Option<usize> {
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

/// `true` when a destination (backslash escapes undone) names a URI scheme (`https:`,
/// `mailto:`, `obsidian:` ...) and so is not a vault path.
pub(crate) fn has_scheme(dest: &str) -> bool {
    scheme_len(dest.as_bytes()).is_some()
}

/// Removes CommonMark backslash escapes (`\` before ASCII punctuation; `\\` is one `\`).
pub(crate) fn unescape(s: &str) -> Cow<'_, str> {
    if !s.contains('\\') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(&next) if c == '\\' && next.is_ascii_punctuation() => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Percent-decodes `s` the way JavaScript's `decodeURIComponent` does, falling back to `s`
/// unchanged when it is not validly encoded (a `%` without two hex digits, or escapes that
/// do not form UTF-8) — where `decodeURIComponent` would throw.
pub(crate) fn percent_decode(s: &str) -> Cow<'_, str> {
    if !s.contains('%') {
        return Cow::Borrowed(s);
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = |i: usize| bytes.get(i).and_then(|&b| (b as char).to_digit(16));
            match (hex(at + 1), hex(at + 2)) {
                (Some(hi), Some(lo)) => out.push((hi * 16 + lo) as u8),
                _ => return Cow::Borrowed(s),
            }
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).map_or(Cow::Borrowed(s), Cow::Owned)
}

/// A destination as a URL: backslash escapes undone, then percent-decoded.
pub(crate) fn decode_destination(raw: &str) -> String {
    String::from(percent_decode(&unescape(raw)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dest(s: &str) -> Option<&str> {
        destination(s.as_bytes(), 0, s.len()).map(|d| &s[d.start..d.end])
    }

    #[test]
    fn js_whitespace_is_not_rusts() {
        assert!(is_js_whitespace('\u{feff}') && !'\u{feff}'.is_whitespace());
        assert!(!is_js_whitespace('\u{85}') && '\u{85}'.is_whitespace());
        assert_eq!(js_trim("\u{feff} a\u{3000}"), "a");
        assert_eq!(js_trim("\u{85}a"), "\u{85}a");
        assert_eq!(js_leading_space("  a "), 2);
    }

    #[test]
    fn alias_split() {
        assert_eq!(wikilink_alias_split("a#b|c|d"), (3, Some(4)));
        assert_eq!(wikilink_alias_split("a\\|b"), (1, Some(3)));
        assert_eq!(wikilink_alias_split("a"), (1, None));
    }

    #[test]
    fn subpath_starts() {
        assert_eq!(subpath_start("a#b#c"), 1);
        assert_eq!(subpath_start("a"), 1);
        assert_eq!(subpath_start("C%23.md#x"), 7);
        assert_eq!(subpath_start(r"a\#b"), 1);
        assert_eq!(subpath_start(r"a\\#b"), 3);
        assert_eq!(subpath_start(r"a\(#b"), 3);
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
        assert_eq!(dest("(<a\nb>)"), None);
        assert_eq!(dest("(a 'it''s')"), None);
        assert_eq!(dest("(a\"t\")"), Some("a\"t\""));
        assert_eq!(dest("(<a>\"t\")"), None);
        assert_eq!(dest("(a (t))"), Some("a"));
        assert_eq!(dest("(a\\)b)"), Some("a\\)b"));
        let deep = alloc::format!("({}{})", "(".repeat(40), ")".repeat(40));
        assert_eq!(dest(&deep), None);
        let d = destination(b"(<a>)", 0, 5).unwrap();
        assert!(d.angle_brackets && d.close == 5);
    }

    #[test]
    fn schemes() {
        assert!(has_scheme("mailto:a@b.c"));
        assert!(has_scheme("obsidian://open"));
        assert!(!has_scheme("C:\\notes"));
        assert!(!has_scheme("notes/a.md"));
        assert!(!has_scheme("a.md#b:c"));
        assert!(!has_scheme(&alloc::format!("{}:x", "a".repeat(33))));
    }

    #[test]
    fn backslash_escapes() {
        assert_eq!(unescape("a\\_b\\c"), "a_b\\c");
        assert_eq!(unescape(r"a\(b\)"), "a(b)");
        assert_eq!(unescape(r"a\\\_b"), r"a\_b");
        assert_eq!(unescape("a\\"), "a\\");
    }

    #[test]
    fn percent_decoding_is_all_or_nothing() {
        assert_eq!(percent_decode("My%20Note.md"), "My Note.md");
        assert_eq!(percent_decode("caf%C3%A9"), "café");
        assert_eq!(percent_decode("Caf%C3%A9"), "Café");
        assert_eq!(percent_decode("plain"), "plain");
        assert_eq!(percent_decode("a%2Fb"), "a/b");
        assert_eq!(percent_decode("100%.md"), "100%.md");
        assert_eq!(percent_decode("100% sure"), "100% sure");
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("%FF"), "%FF");
        assert_eq!(percent_decode("%C3"), "%C3");
        assert_eq!(percent_decode("%zz%20"), "%zz%20");
        assert_eq!(decode_destination(r"a\%20b%20c"), "a b c");
    }
}
