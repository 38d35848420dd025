//! Block-level openers of regions nothing is extracted from: code fences and HTML blocks.
//!
//! All functions take `bytes[at..end]`: a line's content after its indentation.

use super::lines::{is_space_or_tab, trim_end};

/// An open code fence: its character and run length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fence {
    pub(crate) ch: u8,
    pub(crate) len: usize,
}

/// A fence opener: three or more backticks or tildes; a backtick fence's info string may
/// not contain a backtick.
pub(crate) fn fence_open(bytes: &[u8], at: usize, end: usize) -> Option<Fence> {
    let ch = *bytes.get(at).filter(|_| at < end)?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = bytes[at..end].iter().take_while(|&&b| b == ch).count();
    let info_has_backtick = ch == b'`' && bytes[at + len..end].contains(&b'`');
    (len >= 3 && !info_has_backtick).then_some(Fence { ch, len })
}

/// `true` when the line closes `fence`: a run of the same character at least as long,
/// followed only by spaces or tabs.
pub(crate) fn closes(fence: Fence, bytes: &[u8], at: usize, end: usize) -> bool {
    let len = bytes[at..end]
        .iter()
        .take_while(|&&b| b == fence.ch)
        .count();
    len >= fence.len && trim_end(bytes, at + len, end) == at + len
}

/// How an HTML block ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HtmlEnd {
    /// At the next blank line (CommonMark type 6: block-level tags).
    BlankLine,
    /// On the line containing this closing tag (type 1: `script`, `pre`, `style`, `textarea`).
    ClosingTag(&'static str),
}

const RAW_TAGS: [&str; 4] = ["script", "pre", "style", "textarea"];

/// CommonMark's block-level tag names (HTML block type 6).
const BLOCK_TAGS: [&str; 62] = [
    "address",
    "article",
    "aside",
    "base",
    "basefont",
    "blockquote",
    "body",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "iframe",
    "legend",
    "li",
    "link",
    "main",
    "menu",
    "menuitem",
    "nav",
    "noframes",
    "ol",
    "optgroup",
    "option",
    "p",
    "param",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
];

/// An HTML block opener (CommonMark types 1 and 6; comments are masked inline instead and
/// type 7, a lone arbitrary tag, is read as text).
pub(crate) fn html_block_start(bytes: &[u8], at: usize, end: usize) -> Option<HtmlEnd> {
    let line = &bytes[at..end];
    if line.first() != Some(&b'<') {
        return None;
    }
    let closing = line.get(1) == Some(&b'/');
    let name_start = if closing { 2 } else { 1 };
    let name_len = line[name_start..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    let name = &line[name_start..name_start + name_len];
    let after = &line[name_start + name_len..];
    let ends_name = |allow_slash: bool| match after.first() {
        None => true,
        Some(&b) => is_space_or_tab(b) || b == b'>' || allow_slash && after.starts_with(b"/>"),
    };
    if !closing
        && ends_name(false)
        && let Some(tag) = RAW_TAGS
            .iter()
            .find(|t| name.eq_ignore_ascii_case(t.as_bytes()))
    {
        return Some(HtmlEnd::ClosingTag(tag));
    }
    (ends_name(true)
        && BLOCK_TAGS
            .iter()
            .any(|t| name.eq_ignore_ascii_case(t.as_bytes())))
    .then_some(HtmlEnd::BlankLine)
}

/// `true` when `bytes[from..to]` contains `</tag>` in any letter case.
pub(crate) fn contains_closing_tag(bytes: &[u8], from: usize, to: usize, tag: &str) -> bool {
    let len = tag.len() + 3;
    let line = &bytes[from..to];
    line.windows(len).any(|w| {
        w.starts_with(b"</")
            && w[len - 1] == b'>'
            && w[2..len - 1].eq_ignore_ascii_case(tag.as_bytes())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_open_and_close() {
        let f = fence_open(b"````js", 0, 6).unwrap();
        assert_eq!(f, Fence { ch: b'`', len: 4 });
        assert!(fence_open(b"``", 0, 2).is_none());
        assert!(fence_open(b"``` a`b", 0, 7).is_none());
        assert!(fence_open(b"~~~ a`b", 0, 7).is_some());
        assert!(!closes(f, b"```", 0, 3));
        assert!(closes(f, b"`````  ", 0, 7));
        assert!(!closes(f, b"```` js", 0, 7));
        assert!(!closes(f, b"~~~~", 0, 4));
    }

    #[test]
    fn html_blocks_of_types_one_and_six() {
        assert_eq!(
            html_block_start(b"<div class=x>", 0, 13),
            Some(HtmlEnd::BlankLine)
        );
        assert_eq!(html_block_start(b"</P>", 0, 4), Some(HtmlEnd::BlankLine));
        assert_eq!(html_block_start(b"<hr/>", 0, 5), Some(HtmlEnd::BlankLine));
        assert_eq!(
            html_block_start(b"<pre>", 0, 5),
            Some(HtmlEnd::ClosingTag("pre"))
        );
        assert_eq!(html_block_start(b"<span>", 0, 6), None);
        assert_eq!(html_block_start(b"<divx>", 0, 6), None);
        assert_eq!(html_block_start(b"<", 0, 1), None);
        assert!(contains_closing_tag(b"x </PRE> y", 0, 10, "pre"));
        assert!(!contains_closing_tag(b"x </pr> y", 0, 9, "pre"));
    }
}
