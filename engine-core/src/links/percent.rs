//! Markdown link destinations are URLs: parsing undoes backslash escapes and
//! percent-encoding (`[a](My%20Note.md)`, see [`crate::markdown::syntax`]), so a rewritten
//! destination is encoded here so that it decodes back to the new path.

use alloc::string::String;
use core::fmt::Write;

use crate::markdown::syntax::is_js_whitespace;

/// Whether `raw` percent-encodes non-ASCII characters (`Caf%C3%A9`): a rewrite then encodes
/// them too, keeping the link's spelling style.
pub(crate) fn encodes_non_ascii(raw: &str) -> bool {
    raw.as_bytes().windows(3).any(|w| {
        w[0] == b'%'
            && matches!(w[1], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
            && w[2].is_ascii_hexdigit()
    })
}

/// Encodes `path` as a bare markdown link destination that
/// [`decode_destination`](crate::markdown::syntax::decode_destination) turns back into `path`: spaces, `%`, `#`, `<`, `>`, `\`, control
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
    let lead = path.len() - path.trim_start_matches(is_js_whitespace).len();
    let inner_end = path.trim_end_matches(is_js_whitespace).len().max(lead);
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
    use crate::markdown::syntax::{percent_decode, unescape};

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
                assert_eq!(percent_decode(&unescape(&enc)), p);
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
