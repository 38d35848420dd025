//! Markdown link destinations are URLs: CommonMark backslash escapes and percent-encoding
//! (`[a](My%20Note.md)`) are undone before resolution, and a rewritten destination is encoded
//! again so that it decodes back to the new path.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// Removes CommonMark backslash escapes (`\` before ASCII punctuation).
pub(crate) fn unescape_backslashes(s: &str) -> Cow<'_, str> {
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
/// do not form UTF-8) — as `decodeURIComponent` would throw.
pub(crate) fn percent_decode(s: &str) -> Cow<'_, str> {
    if !s.contains('%') {
        return Cow::Borrowed(s);
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = |j: usize| bytes.get(j).and_then(|b| (*b as char).to_digit(16));
            match (hex(i + 1), hex(i + 2)) {
                (Some(hi), Some(lo)) => out.push((hi * 16 + lo) as u8),
                _ => return Cow::Borrowed(s),
            }
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_or(Cow::Borrowed(s), Cow::Owned)
}

/// Whether `raw` percent-encodes non-ASCII characters (`Caf%C3%A9`): a rewrite then encodes
/// them too, keeping the link's spelling style.
pub(crate) fn encodes_non_ascii(raw: &str) -> bool {
    raw.as_bytes().windows(3).any(|w| {
        w[0] == b'%'
            && matches!(w[1], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
            && w[2].is_ascii_hexdigit()
    })
}

/// Encodes `path` as a bare markdown link destination that [`unescape_backslashes`] and
/// [`percent_decode`] turn back into `path`: spaces, `%`, `#`, `<`, `>`, `\`, control
/// characters, whitespace at either end (which parsing would trim) and (if unbalanced)
/// parentheses become `%XX`; with `non_ascii`, so do all non-ASCII characters. Other
/// characters stay as they are, as Obsidian writes them.
pub(crate) fn encode_destination(path: &str, non_ascii: bool) -> String {
    let parens_balanced = parens_balance(path);
    encode_with(path, |c| match c {
        ' ' | '%' | '#' | '<' | '>' | '\\' => true,
        '(' | ')' => !parens_balanced,
        c => c.is_control() || (non_ascii && !c.is_ascii()),
    })
}

/// Encodes `path` for an angle-bracket destination `<...>`: `%`, `#`, `<`, `>`, `\`,
/// control characters and whitespace at either end (which parsing would trim) become
/// `%XX`; other spaces stay.
pub(crate) fn encode_angle_destination(path: &str) -> String {
    encode_with(path, |c| {
        matches!(c, '%' | '#' | '<' | '>' | '\\') || c.is_control()
    })
}

/// Encodes the characters of `path` that `must` selects, and any whitespace at either end.
fn encode_with(path: &str, must: impl Fn(char) -> bool) -> String {
    let lead = path.len() - path.trim_start_matches(is_trimmed_space).len();
    let inner_end = path.trim_end_matches(is_trimmed_space).len().max(lead);
    let mut out = String::with_capacity(path.len());
    for (i, c) in path.char_indices() {
        if i < lead || i >= inner_end || must(c) {
            push_encoded(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

/// Whitespace that parsing trims around link targets (JavaScript's `trim` set).
pub(crate) fn is_trimmed_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// Whether every `(` in `s` is closed by a later `)` and no `)` comes unopened.
fn parens_balance(s: &str) -> bool {
    let mut depth: usize = 0;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return false,
            ')' => depth -= 1,
            _ => {}
        }
    }
    depth == 0
}

/// Appends the UTF-8 bytes of `c` as upper-case `%XX` escapes.
fn push_encoded(out: &mut String, c: char) {
    let mut buf = [0u8; 4];
    for b in c.encode_utf8(&mut buf).as_bytes() {
        // Writing to a String cannot fail.
        let _ = write!(out, "%{b:02X}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_valid_escapes() {
        assert_eq!(percent_decode("My%20Note.md"), "My Note.md");
        assert_eq!(percent_decode("Caf%C3%A9"), "Café");
        assert_eq!(percent_decode("a%2Fb"), "a/b");
        assert_eq!(percent_decode("plain"), "plain");
    }

    #[test]
    fn invalid_encoding_is_left_alone() {
        assert_eq!(percent_decode("100% sure"), "100% sure");
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("%C3"), "%C3");
        assert_eq!(percent_decode("%zz%20"), "%zz%20");
    }

    #[test]
    fn backslash_escapes() {
        assert_eq!(unescape_backslashes(r"a\(b\)"), "a(b)");
        assert_eq!(unescape_backslashes(r"a\b"), r"a\b");
        assert_eq!(unescape_backslashes("a\\"), "a\\");
    }

    #[test]
    fn encoding_round_trips() {
        for p in [
            "My Note.md",
            "100% (done).md",
            "a#b.md",
            "x) y.md",
            "Café/日本 😀.md",
            "a\\b<c>.md",
            "tab\there.md",
        ] {
            for full in [false, true] {
                let enc = encode_destination(p, full);
                assert!(!enc.contains(' '), "{enc}");
                assert_eq!(percent_decode(&unescape_backslashes(&enc)), p);
            }
            assert_eq!(percent_decode(&encode_angle_destination(p)), p);
        }
        assert_eq!(
            encode_destination("My Note (1).md", false),
            "My%20Note%20(1).md"
        );
        assert_eq!(encode_destination("x) y.md", false), "x%29%20y.md");
        assert_eq!(encode_destination("Café.md", true), "Caf%C3%A9.md");
        assert_eq!(encode_destination("Café.md", false), "Café.md");
        assert_eq!(encode_angle_destination("My Note #1.md"), "My Note %231.md");
        assert_eq!(encode_angle_destination(" a b "), "%20a b%20");
        assert_eq!(encode_angle_destination("a\u{3000}"), "a%E3%80%80");
    }

    #[test]
    fn detects_encoded_non_ascii() {
        assert!(encodes_non_ascii("Caf%C3%A9.md"));
        assert!(!encodes_non_ascii("My%20Note.md"));
        assert!(!encodes_non_ascii("Café.md"));
    }
}
