//! Taking one link apart: `[[path#subpath|alias]]`, `![[embed]]`, `[text](dest "title")`,
//! `![alt](<dest>)`, or a lone markdown destination (as in a reference definition).
//!
//! Parsing records where the written target path sits inside the link text, so a rewrite
//! can replace exactly those bytes and keep everything else (alias, subpath, title, escapes,
//! spacing) byte for byte.

use alloc::string::String;
use core::ops::Range;

use super::error::SyntaxError;
use crate::markdown::LinkSyntax;
use crate::markdown::syntax::{
    angle_destination_end, decode_destination, has_scheme, is_js_whitespace, js_leading_space,
    js_trim, subpath_start, unescape, wikilink_alias_split,
};

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
        let close = angle_destination_end(bytes, start + 1, bytes.len())
            .ok_or(SyntaxError::UnclosedDestination)?;
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
    let target = &inner[..wikilink_alias_split(inner).0];
    let (path, subpath) = target.split_at(target.find('#').unwrap_or(target.len()));
    let trimmed = js_trim(path);
    let lead = js_leading_space(path);
    let subpath = subpath.trim_end_matches(is_js_whitespace);
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
    let dest = crate::markdown::syntax::destination(bytes, close + 1, bytes.len())
        .ok_or(SyntaxError::UnclosedDestination)?;
    if dest.close != bytes.len() {
        return Err(SyntaxError::TrailingText);
    }
    destination(
        text,
        dest.start..dest.end,
        LinkSyntax::Markdown,
        embed,
        dest.angle_brackets,
    )
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
    let external = has_scheme(&unescape(raw));
    let (path, subpath) = raw.split_at(subpath_start(raw));
    let trimmed = js_trim(path);
    let lead = js_leading_space(path);
    let linkpath = decode_destination(trimmed);
    let subpath = decode_destination(subpath.trim_end_matches(is_js_whitespace));
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
    fn markdown_reads_like_extraction() {
        // An escaped `#` still starts the subpath; `%23` does not.
        let t = r"[a](Note\#Head)";
        let p = parse_link(t).unwrap();
        assert_eq!((p.linkpath.as_str(), p.subpath.as_str()), ("Note", "#Head"));
        assert_eq!(target(t, &p), "Note");
        // Escaped backslash, then an escaped punctuation character.
        assert_eq!(parse_link(r"[a](x\\\_y)").unwrap().linkpath, r"x\_y");
        // Decoding is all or nothing, like `decodeURIComponent`.
        assert_eq!(parse_link("[a](%zz%20)").unwrap().linkpath, "%zz%20");
        // A 33-letter "scheme" is not one (CommonMark's limit, as extraction reads it).
        let long = alloc::format!("[a]({}:x)", "a".repeat(33));
        assert!(!parse_link(&long).unwrap().external);
        assert_eq!(
            parse_link("[a](<b>\"t\")"),
            Err(SyntaxError::UnclosedDestination)
        );
        assert_eq!(
            parse_link("[a](b\n)"),
            Err(SyntaxError::UnclosedDestination)
        );
        let deep = alloc::format!("[a]({}{})", "(".repeat(40), ")".repeat(40));
        assert_eq!(parse_link(&deep), Err(SyntaxError::UnclosedDestination));
        assert_eq!(parse_link("[[\u{85}a]]").unwrap().linkpath, "\u{85}a");
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
