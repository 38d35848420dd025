//! Links, embeds, external links and tags in one stretch of inline text (a line's content),
//! skipping the masked spans (code, comments, math).
//!
//! Tag boundary (after Obsidian, as read back from its metadata cache): a `#` starts a tag
//! at the start of the line's content, after whitespace, after `_` or `*` (emphasis marks,
//! whose closing `_` is then not part of the tag: `_#a_` is `#a`),
//! right after another tag (`#a#b` is two tags), or after `|` on a table line. Link text
//! is text (`[see #x](y)` has the tag `#x`); wikilinks, destinations and autolinks are not.

use alloc::string::ToString;
use alloc::vec::Vec;

use super::links::{autolink, split_destination, split_subpath, split_wikilink, wikilink};
use super::position::LineIndex;
use super::syntax::{
    decode_destination, destination, has_scheme, is_js_whitespace, js_trim, unescape,
};
use super::tags::{body_end, is_valid_body};
use super::types::{ExternalLink, Link, LinkSyntax, NoteMetadata, Tag};

/// One stretch of inline text to read.
pub(crate) struct Segment<'m> {
    pub(crate) from: usize,
    pub(crate) to: usize,
    /// The start of the line's content, where a tag may start without whitespace before it.
    pub(crate) content_start: Option<usize>,
    /// `|` counts as a tag boundary (a table line).
    pub(crate) pipe_boundary: bool,
    /// Masked spans, sorted and disjoint, all at or after `from`.
    pub(crate) masks: &'m [(usize, usize)],
}

/// Reads `segment` of `text`, appending what it finds to `meta`.
pub(crate) fn read(text: &str, index: &LineIndex, segment: &Segment<'_>, meta: &mut NoteMetadata) {
    Reader {
        text,
        bytes: text.as_bytes(),
        index,
        segment,
        meta,
        pairs: bracket_pairs(text.as_bytes(), segment),
        pair_cursor: 0,
        skips: Vec::new(),
    }
    .run();
}

struct Reader<'t, 's, 'm> {
    text: &'t str,
    bytes: &'t [u8],
    index: &'t LineIndex,
    segment: &'s Segment<'s>,
    meta: &'m mut NoteMetadata,
    /// Matching `[` / `]` offsets, sorted by the `[`.
    pairs: Vec<(usize, usize)>,
    pair_cursor: usize,
    /// Destinations of markdown links whose text is being read: skipped when reached.
    skips: Vec<(usize, usize)>,
}

impl Reader<'_, '_, '_> {
    fn run(&mut self) {
        let Segment { to, masks, .. } = *self.segment;
        let mut at = self.segment.from;
        let mut mask_cursor = 0;
        let mut chained_tag: Option<usize> = None;
        while at < to {
            if let Some(&(start, end)) = masks.get(mask_cursor)
                && at >= start
            {
                at = at.max(end);
                mask_cursor += 1;
                continue;
            }
            if let Some(&(start, end)) = self.skips.last()
                && at >= start
            {
                at = at.max(end);
                self.skips.pop();
                continue;
            }
            let limit = masks.get(mask_cursor).map_or(to, |m| m.0.min(to));
            let next = |n: usize| self.bytes.get(at + n).copied().filter(|_| at + n < limit);
            at = match self.bytes[at] {
                b'\\' => {
                    at + if next(1).is_some_and(|b| b.is_ascii_punctuation()) {
                        2
                    } else {
                        1
                    }
                }
                b'!' if next(1) == Some(b'[') => self
                    .wikilink(at, at + 1, limit, next(2) == Some(b'['))
                    .or_else(|| self.markdown_link(at, at + 1, true))
                    .unwrap_or(at + 1),
                b'[' => self
                    .wikilink(at, at, limit, next(1) == Some(b'['))
                    .or_else(|| self.markdown_link(at, at, false))
                    .unwrap_or(at + 1),
                b'<' => self.autolink(at, limit).unwrap_or(at + 1),
                b'#' => match self.tag(at, limit, chained_tag == Some(at)) {
                    Some(end) => {
                        chained_tag = Some(end);
                        end
                    }
                    None => at + 1,
                },
                _ => at + 1,
            };
        }
    }

    /// A wikilink or embed whose `[[` is at `open`; returns where reading resumes.
    fn wikilink(&mut self, start: usize, open: usize, limit: usize, double: bool) -> Option<usize> {
        if !double {
            return None;
        }
        let (inner_end, end) = wikilink(self.bytes, open, limit)?;
        let (link, display_text) = split_wikilink(&self.text[open + 2..inner_end])?;
        let (path, subpath) = split_subpath(&link);
        let found = Link {
            syntax: LinkSyntax::Wikilink,
            link,
            original: self.text[start..end].to_string(),
            display_text,
            path,
            subpath,
            position: self.index.pos(start, end),
        };
        if start == open {
            self.meta.links.push(found)
        } else {
            self.meta.embeds.push(found)
        }
        Some(end)
    }

    /// A markdown link (or image, with `embed`) whose `[` is at `open`. A link's text is
    /// read on (reading resumes after `[`); an image is skipped whole.
    fn markdown_link(&mut self, start: usize, open: usize, embed: bool) -> Option<usize> {
        while self.pairs.get(self.pair_cursor).is_some_and(|p| p.0 < open) {
            self.pair_cursor += 1;
        }
        let &(pair_open, close) = self.pairs.get(self.pair_cursor)?;
        if pair_open != open
            || self.bytes.get(close + 1) != Some(&b'(')
            || close + 1 >= self.segment.to
        {
            return None;
        }
        let masks = self.segment.masks;
        let limit = masks
            .get(masks.partition_point(|m| m.0 <= close))
            .map_or(self.segment.to, |m| m.0.min(self.segment.to));
        let dest = destination(self.bytes, close + 1, limit)?;
        self.record_markdown_link(start, open, close, dest.start, dest.end, dest.close, embed);
        if embed {
            Some(dest.close)
        } else {
            self.skips.push((close, dest.close));
            Some(open + 1)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn record_markdown_link(
        &mut self,
        start: usize,
        open: usize,
        close: usize,
        dest_start: usize,
        dest_end: usize,
        end: usize,
        embed: bool,
    ) {
        let raw = &self.text[dest_start..dest_end];
        let display = self.text[open + 1..close].trim();
        let display_text = (!display.is_empty()).then(|| display.to_string());
        let original = self.text[start..end].to_string();
        let position = self.index.pos(start, end);
        let unescaped = unescape(raw);
        if has_scheme(&unescaped) {
            self.meta.external_links.push(ExternalLink {
                url: unescaped.into_owned(),
                original,
                display_text,
                embed,
                position,
            });
            return;
        }
        let link = decode_destination(raw);
        if js_trim(&link).is_empty() {
            return;
        }
        let (path, subpath) = split_destination(raw);
        let found = Link {
            syntax: LinkSyntax::Markdown,
            link,
            original,
            display_text,
            path,
            subpath,
            position,
        };
        if embed {
            self.meta.embeds.push(found)
        } else {
            self.meta.links.push(found)
        }
    }

    fn autolink(&mut self, at: usize, limit: usize) -> Option<usize> {
        let (start, end, close) = autolink(self.bytes, at, limit)?;
        self.meta.external_links.push(ExternalLink {
            url: self.text[start..end].to_string(),
            original: self.text[at..close].to_string(),
            display_text: None,
            embed: false,
            position: self.index.pos(at, close),
        });
        Some(close)
    }

    /// A tag at `at` (a `#`): the end of its body when a body starts there (valid tag or
    /// not: an all-digit `#123` still ends where the next `#` may chain on). After `_`
    /// (emphasis), as many trailing `_` as open it are the closing mark, not the tag.
    fn tag(&mut self, at: usize, limit: usize, chained: bool) -> Option<usize> {
        let before = self.text[..at].chars().next_back();
        let boundary = chained
            || self.segment.content_start == Some(at)
            || before.is_some_and(|c| is_js_whitespace(c) || c == '_' || c == '*')
            || self.segment.pipe_boundary && before == Some('|');
        if !boundary {
            return None;
        }
        let end = body_end(self.text, at + 1, limit);
        if end == at + 1 {
            return None;
        }
        let opening = self.bytes[self.segment.from..at]
            .iter()
            .rev()
            .take_while(|&&b| b == b'_')
            .count();
        let closing = self.bytes[at + 1..end]
            .iter()
            .rev()
            .take_while(|&&b| b == b'_')
            .count();
        let tag_end = end - closing.min(opening);
        let body = &self.text[at + 1..tag_end];
        if is_valid_body(body) {
            self.meta.tags.push(Tag {
                tag: self.text[at..tag_end].to_string(),
                key: body.to_lowercase(),
                position: self.index.pos(at, tag_end),
            });
        }
        Some(end)
    }
}

/// Matches `[` with `]` (nearest unmatched first) outside masks and escapes.
fn bracket_pairs(bytes: &[u8], segment: &Segment<'_>) -> Vec<(usize, usize)> {
    let mut open = Vec::new();
    let mut pairs = Vec::new();
    let mut mask_cursor = 0;
    let mut at = segment.from;
    while at < segment.to {
        if let Some(&(start, end)) = segment.masks.get(mask_cursor)
            && at >= start
        {
            at = at.max(end);
            mask_cursor += 1;
            continue;
        }
        match bytes[at] {
            b'\\' if bytes.get(at + 1).is_some_and(u8::is_ascii_punctuation) => at += 1,
            b'[' => open.push(at),
            b']' => {
                if let Some(o) = open.pop() {
                    pairs.push((o, at));
                }
            }
            _ => {}
        }
        at += 1;
    }
    pairs.sort_unstable();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec;

    fn read_all(text: &str) -> NoteMetadata {
        let mut meta = NoteMetadata::default();
        let segment = Segment {
            from: 0,
            to: text.len(),
            content_start: Some(0),
            pipe_boundary: false,
            masks: &[],
        };
        read(text, &LineIndex::new(text), &segment, &mut meta);
        meta
    }

    fn tags(text: &str) -> Vec<String> {
        read_all(text).tags.into_iter().map(|t| t.tag).collect()
    }

    fn links(text: &str) -> Vec<String> {
        read_all(text).links.into_iter().map(|l| l.link).collect()
    }

    #[test]
    fn tag_boundaries() {
        assert_eq!(tags("#a b #c d#e (#f) [x #g]"), ["#a", "#c", "#g"]);
        assert_eq!(tags("#tl#tm #tn/#to"), ["#tl", "#tm", "#tn/", "#to"]);
        assert_eq!(
            tags("x _#uc_ y snake_case_#wc **#b** __#c__ #d_"),
            ["#uc", "#wc", "#b", "#c", "#d_"]
        );
        assert_eq!(tags("#123 #1a #123#x"), ["#1a", "#x"]);
        assert_eq!(
            tags("x\u{a0}#nb x\u{3000}#ideo x\u{2014}#no"),
            ["#nb", "#ideo"]
        );
        assert_eq!(tags("http://x/#y"), Vec::<String>::new());
    }

    #[test]
    fn links_and_embeds() {
        let meta = read_all(
            "[[a]] ![[b.png|100x200]] [t](c%20d.md#h) ![i](e.png) [w](https://x.y) <http://z>",
        );
        assert_eq!(
            meta.links
                .iter()
                .map(|l| l.link.as_str())
                .collect::<Vec<_>>(),
            ["a", "c d.md#h"]
        );
        assert_eq!(
            meta.embeds
                .iter()
                .map(|l| l.link.as_str())
                .collect::<Vec<_>>(),
            ["b.png", "e.png"]
        );
        assert_eq!(meta.embeds[0].display_text.as_deref(), Some("100x200"));
        assert_eq!(
            meta.external_links
                .iter()
                .map(|l| l.url.as_str())
                .collect::<Vec<_>>(),
            ["https://x.y", "http://z"]
        );
    }

    #[test]
    fn link_text_is_text_but_destinations_are_not() {
        let meta = read_all("[see #x](y.md#z) [![img](a.png)](b.md)");
        assert_eq!(
            meta.tags.iter().map(|t| t.tag.as_str()).collect::<Vec<_>>(),
            ["#x"]
        );
        assert_eq!(
            meta.links
                .iter()
                .map(|l| l.link.as_str())
                .collect::<Vec<_>>(),
            ["y.md#z", "b.md"]
        );
        assert_eq!(
            meta.embeds
                .iter()
                .map(|l| l.link.as_str())
                .collect::<Vec<_>>(),
            ["a.png"]
        );
    }

    #[test]
    fn odd_brackets() {
        assert_eq!(
            links("\\[[not]] [[a [[b]] c]] x]] [[x] y](z)"),
            vec!["b", "z"]
        );
        assert_eq!(links("[[a|b|c]] [[#h]] [[^b]]"), ["a", "#h", "^b"]);
        assert_eq!(links(&"[".repeat(1000)), Vec::<String>::new());
    }
}
