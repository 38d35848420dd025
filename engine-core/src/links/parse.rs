//! Taking one link apart: `[[path#subpath|alias]]`, `![[embed]]`, `[text](dest "title")`,
//! `![alt](<dest>)`, or a lone markdown destination (as in a reference definition).
//!
//! Parsing records where the written target path sits inside the link text, so a rewrite
//! can replace exactly those bytes and keep everything else (alias, subpath, title, escapes,
//! spacing) byte for byte.

use alloc::string::String;
use core::ops::Range;

use serde::{Deserialize, Serialize};

use super::error::SyntaxError;
use super::percent::{is_trimmed_space, percent_decode, unescape_backslashes};

/// The syntax a link is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkSyntax {
    /// `[[...]]` or `![[...]]`.
    Wikilink,
    /// `[text](destination)` or `![alt](destination)`.
    Markdown,
    /// A markdown destination on its own, e.g. the `dest` of a reference definition
    /// `[ref]: dest`.
    Destination,
}

/// One link, taken apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedLink {
    /// The syntax the link is written in.
    pub syntax: LinkSyntax,
    /// Whether the link is an embed (`![[...]]`, `![...](...)`).
    pub embed: bool,
    /// Whether the markdown destination is written in angle brackets (`(<My Note.md>)`).
    pub angle_brackets: bool,
    /// Byte range, within the link text, of the written target path (without surrounding
    /// whitespace, subpath, alias or title); empty for a link that is only a subpath.
    pub path_span: Range<usize>,
    /// The target path used for resolution: trimmed, and for markdown destinations with
    /// backslash escapes and percent-encoding undone.
    pub linkpath: String,
    /// The subpath including its leading `#` (`#Heading`, `#^block-id`, `#page=3`), decoded
    /// like `linkpath`; empty when there is none.
    pub subpath: String,
    /// Whether a markdown destination is a URL with a scheme (`https:`, `mailto:`), which
    /// is not a vault link at all.
    pub external: bool,
}

/// Parses a wikilink, an embed or a markdown link occupying all of `text`.
pub fn parse_link(text: &str) -> Result<ParsedLink, SyntaxError> {
    if let Some(rest) = text.strip_prefix("![[") {
        parse_wikilink(rest, 3, true)
    } else if let Some(rest) = text.strip_prefix("[[") {
        parse_wikilink(rest, 2, false)
    } else if text.starts_with("![") {
        parse_markdown(text, 2, true)
    } else if text.starts_with('[') {
        parse_markdown(text, 1, false)
    } else {
        Err(SyntaxError::NotALink)
    }
}

/// Parses a markdown destination (bare or in angle brackets) occupying all of `text` apart
/// from surrounding whitespace.
pub fn parse_destination(text: &str) -> Result<ParsedLink, SyntaxError> {
    let start = text.len() - text.trim_start().len();
    let end = text.trim_end().len().max(start);
    let bytes = text.as_bytes();
    if bytes.get(start) == Some(&b'<') {
        let close = scan_angle(bytes, start + 1)?;
        if close + 1 != end {
            return Err(SyntaxError::TrailingText);
        }
        return destination(text, start + 1..close, LinkSyntax::Destination, false, true);
    }
    if text[start..end].bytes().any(|b| b.is_ascii_whitespace()) {
        return Err(SyntaxError::TrailingText);
    }
    destination(text, start..end, LinkSyntax::Destination, false, false)
}

/// `rest` is the wikilink after its opening brackets, which occupy `offset` bytes.
fn parse_wikilink(rest: &str, offset: usize, embed: bool) -> Result<ParsedLink, SyntaxError> {
    let close = rest.find("]]").ok_or(SyntaxError::UnclosedWikilink)?;
    if close + 2 != rest.len() {
        return Err(SyntaxError::TrailingText);
    }
    let inner = &rest[..close];
    if inner.contains(['\n', '\r']) {
        return Err(SyntaxError::MultilineWikilink);
    }
    // The target ends at the first `|`; inside tables the pipe is written `\|`.
    let target_end = match inner.find('|') {
        Some(p) if inner[..p].ends_with('\\') => p - 1,
        Some(p) => p,
        None => inner.len(),
    };
    let target = &inner[..target_end];
    let (path, subpath) = target.split_at(target.find('#').unwrap_or(target.len()));
    let trimmed = trim(path);
    let lead = path.len() - path.trim_start_matches(is_trimmed_space).len();
    let subpath = subpath.trim_end_matches(is_trimmed_space);
    if trimmed.is_empty() && subpath.is_empty() {
        return Err(SyntaxError::EmptyTarget);
    }
    let start = offset + lead;
    Ok(ParsedLink {
        syntax: LinkSyntax::Wikilink,
        embed,
        angle_brackets: false,
        path_span: start..start + trimmed.len(),
        linkpath: String::from(trimmed),
        subpath: String::from(subpath),
        external: false,
    })
}

/// `text` is the whole markdown link; its `[` ends at byte `open`.
fn parse_markdown(text: &str, open: usize, embed: bool) -> Result<ParsedLink, SyntaxError> {
    let bytes = text.as_bytes();
    let close = scan_text(bytes, open)?;
    if bytes.get(close + 1) != Some(&b'(') {
        return Err(SyntaxError::MissingDestination);
    }
    let mut i = skip_space(bytes, close + 2);
    let (range, angle) = if bytes.get(i) == Some(&b'<') {
        let gt = scan_angle(bytes, i + 1)?;
        let range = i + 1..gt;
        i = gt + 1;
        (range, true)
    } else {
        let end = scan_bare(bytes, i);
        let range = i..end;
        i = end;
        (range, false)
    };
    i = skip_space(bytes, i);
    if let Some(&quote) = bytes.get(i).filter(|b| matches!(b, b'"' | b'\'' | b'(')) {
        i = scan_title(bytes, i + 1, if quote == b'(' { b')' } else { quote })?;
        i = skip_space(bytes, i);
    }
    if bytes.get(i) != Some(&b')') {
        return Err(SyntaxError::UnclosedDestination);
    }
    if i + 1 != bytes.len() {
        return Err(SyntaxError::TrailingText);
    }
    destination(text, range, LinkSyntax::Markdown, embed, angle)
}

/// Builds the parsed link from the destination at `range` of `text`.
fn destination(
    text: &str,
    range: Range<usize>,
    syntax: LinkSyntax,
    embed: bool,
    angle_brackets: bool,
) -> Result<ParsedLink, SyntaxError> {
    let raw = &text[range.clone()];
    let external = has_scheme(raw);
    let (path, subpath) = raw.split_at(raw.find('#').unwrap_or(raw.len()));
    let trimmed = trim(path);
    let lead = path.len() - path.trim_start_matches(is_trimmed_space).len();
    let linkpath = String::from(percent_decode(&unescape_backslashes(trimmed)));
    let subpath = String::from(percent_decode(&unescape_backslashes(
        subpath.trim_end_matches(is_trimmed_space),
    )));
    if linkpath.is_empty() && subpath.is_empty() {
        return Err(SyntaxError::EmptyTarget);
    }
    let start = range.start + lead;
    Ok(ParsedLink {
        syntax,
        embed,
        angle_brackets,
        path_span: start..start + trimmed.len(),
        linkpath,
        subpath,
        external,
    })
}

/// `s` without surrounding whitespace.
fn trim(s: &str) -> &str {
    s.trim_matches(is_trimmed_space)
}

/// Whether `raw` starts with a URL scheme of at least two characters (`https:`, `mailto:`).
fn has_scheme(raw: &str) -> bool {
    let Some(colon) = raw.find(':') else {
        return false;
    };
    let scheme = &raw[..colon];
    scheme.len() >= 2
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Finds the `]` closing the link text that opened just before `from`, honouring nested
/// brackets and backslash escapes.
fn scan_text(bytes: &[u8], from: usize) -> Result<usize, SyntaxError> {
    let mut depth = 1usize;
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    Err(SyntaxError::UnclosedText)
}

/// Finds the `>` closing an angle-bracket destination that opened just before `from`.
fn scan_angle(bytes: &[u8], from: usize) -> Result<usize, SyntaxError> {
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'>' => return Ok(i),
            b'<' | b'\n' | b'\r' => return Err(SyntaxError::UnclosedDestination),
            _ => {}
        }
        i += 1;
    }
    Err(SyntaxError::UnclosedDestination)
}

/// Finds the end of a bare destination starting at `from`: the first space or control
/// character, or a `)` that closes no `(` of the destination.
fn scan_bare(bytes: &[u8], from: usize) -> usize {
    let mut depth = 0usize;
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => i += 1,
            b'(' => depth += 1,
            b')' if depth == 0 => return i,
            b')' => depth -= 1,
            b if b <= b' ' || b == 0x7f => return i,
            _ => {}
        }
        i += 1;
    }
    i
}

/// Finds the end (one past the closing delimiter) of a link title starting at `from`.
fn scan_title(bytes: &[u8], from: usize, close: u8) -> Result<usize, SyntaxError> {
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b if b == close => return Ok(i + 1),
            _ => {}
        }
        i += 1;
    }
    Err(SyntaxError::UnclosedDestination)
}

/// Skips spaces, tabs and line breaks.
fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while bytes
        .get(i)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target<'a>(text: &'a str, p: &ParsedLink) -> &'a str {
        &text[p.path_span.clone()]
    }

    #[test]
    fn wikilink_parts() {
        let t = "[[Folder/Note#Heading#Sub|Shown]]";
        let p = parse_link(t).unwrap();
        assert_eq!((p.syntax, p.embed), (LinkSyntax::Wikilink, false));
        assert_eq!(target(t, &p), "Folder/Note");
        assert_eq!(p.linkpath, "Folder/Note");
        assert_eq!(p.subpath, "#Heading#Sub");
    }

    #[test]
    fn embed_block_ref_and_table_pipe() {
        let t = r"![[Note#^abc-1\|300]]";
        let p = parse_link(t).unwrap();
        assert!(p.embed);
        assert_eq!(target(t, &p), "Note");
        assert_eq!(p.subpath, "#^abc-1");
    }

    #[test]
    fn wikilink_whitespace_is_trimmed() {
        let t = "[[  Note  | alias]]";
        let p = parse_link(t).unwrap();
        assert_eq!(target(t, &p), "Note");
        assert_eq!(p.path_span, 4..8);
    }

    #[test]
    fn wikilink_bracket_inside_target() {
        let p = parse_link("[[Sq]uare]]").unwrap();
        assert_eq!(p.linkpath, "Sq]uare");
    }

    #[test]
    fn same_note_heading() {
        let p = parse_link("[[#Heading]]").unwrap();
        assert_eq!(p.linkpath, "");
        assert_eq!(p.subpath, "#Heading");
        assert_eq!(p.path_span, 2..2);
    }

    #[test]
    fn wikilink_failures() {
        assert_eq!(parse_link("[[]]"), Err(SyntaxError::EmptyTarget));
        assert_eq!(parse_link("[[ |x]]"), Err(SyntaxError::EmptyTarget));
        assert_eq!(parse_link("[[Note"), Err(SyntaxError::UnclosedWikilink));
        assert_eq!(parse_link("[[a\nb]]"), Err(SyntaxError::MultilineWikilink));
        assert_eq!(parse_link("[[a]] x"), Err(SyntaxError::TrailingText));
        assert_eq!(parse_link("Note"), Err(SyntaxError::NotALink));
        assert_eq!(parse_link(""), Err(SyntaxError::NotALink));
    }

    #[test]
    fn markdown_link_parts() {
        let t = "[see [this]](My%20Note.md#Some%20Heading \"title\")";
        let p = parse_link(t).unwrap();
        assert_eq!(p.syntax, LinkSyntax::Markdown);
        assert_eq!(target(t, &p), "My%20Note.md");
        assert_eq!(p.linkpath, "My Note.md");
        assert_eq!(p.subpath, "#Some Heading");
        assert!(!p.angle_brackets && !p.external);
    }

    #[test]
    fn markdown_angle_brackets_and_parens() {
        let t = "![alt](<My Note (1).md>)";
        let p = parse_link(t).unwrap();
        assert!(p.embed && p.angle_brackets);
        assert_eq!(p.linkpath, "My Note (1).md");
        let t = r"[a](x\(1\).md)";
        assert_eq!(parse_link(t).unwrap().linkpath, "x(1).md");
        let t = "[a](x(1).md)";
        assert_eq!(parse_link(t).unwrap().linkpath, "x(1).md");
    }

    #[test]
    fn markdown_external_and_anchor() {
        assert!(
            parse_link("[a](https://example.com/x.md)")
                .unwrap()
                .external
        );
        assert!(parse_link("[a](mailto:me@x.org)").unwrap().external);
        let p = parse_link("[a](#Heading)").unwrap();
        assert_eq!((p.linkpath.as_str(), p.subpath.as_str()), ("", "#Heading"));
    }

    #[test]
    fn markdown_failures() {
        assert_eq!(parse_link("[a]"), Err(SyntaxError::MissingDestination));
        assert_eq!(parse_link("[a"), Err(SyntaxError::UnclosedText));
        assert_eq!(parse_link("[a](b"), Err(SyntaxError::UnclosedDestination));
        assert_eq!(parse_link("[a](<b)"), Err(SyntaxError::UnclosedDestination));
        assert_eq!(
            parse_link("[a](b \"t)"),
            Err(SyntaxError::UnclosedDestination)
        );
        assert_eq!(parse_link("[a]()"), Err(SyntaxError::EmptyTarget));
        assert_eq!(parse_link("[a](b) c"), Err(SyntaxError::TrailingText));
    }

    #[test]
    fn lone_destinations() {
        let p = parse_destination("  <My Note.md#x>  ").unwrap();
        assert_eq!(
            (p.linkpath.as_str(), p.subpath.as_str()),
            ("My Note.md", "#x")
        );
        assert_eq!(p.path_span, 3..13);
        let p = parse_destination("a/b%20c.md").unwrap();
        assert_eq!(p.linkpath, "a/b c.md");
        assert_eq!(parse_destination("a b"), Err(SyntaxError::TrailingText));
        assert_eq!(parse_destination("<a> b"), Err(SyntaxError::TrailingText));
        assert_eq!(parse_destination("   "), Err(SyntaxError::EmptyTarget));
    }
}
