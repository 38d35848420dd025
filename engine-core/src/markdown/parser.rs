//! The block parser: one pass over the lines of the note body, tracking blockquotes (and
//! callouts), lists, paragraphs, code fences, indented code, HTML blocks and multi-line
//! comments and math; each line's inline text goes to [`inline`](super::inline).
//!
//! Choices where Obsidian is not CommonMark or not documented:
//! - a code fence ends at a closing fence at any indentation, when its blockquote ends, or
//!   at the end of the note (list indentation does not end it);
//! - headings count only at the top level (not in blockquotes, callouts or list items);
//! - a block id counts at the end of a block (the last line of a paragraph, list item line,
//!   blockquote or table row before a blank line or another block), not on heading lines.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::block_ids::trailing_block_id;
use super::callouts;
use super::code::{Fence, HtmlEnd, closes, contains_closing_tag, fence_open, html_block_start};
use super::headings::{Atx, atx, is_thematic_break, setext_underline};
use super::inline::{self, Segment};
use super::lines::{Line, indentation, is_blank, is_space_or_tab, strip_quote_markers, trim_end};
use super::lists::{Marker, checkbox, marker};
use super::mask::{Masker, Multiline};
use super::position::LineIndex;
use super::sections::Sections;
use super::types::{BlockId, Callout, Heading, ListItem, NoteMetadata, SectionType};

/// Parses `lines` (the note body) into `meta`; `sections` may already hold the frontmatter.
pub(crate) fn parse(
    text: &str,
    index: &LineIndex,
    lines: &[Line],
    meta: NoteMetadata,
    sections: Sections,
) -> NoteMetadata {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        index,
        lines,
        meta,
        sections,
        masker: Masker::default(),
        masks: Vec::new(),
        multiline: None,
        leaf: Leaf::None,
        para: None,
        quotes: Vec::new(),
        quote_last_end: 0,
        callout_ends: Vec::new(),
        lists: Vec::new(),
        item_ends: Vec::new(),
        pending_id: None,
        in_indented_code: false,
    };
    for number in 0..lines.len() {
        parser.line(number);
    }
    parser.finish()
}

/// A leaf block that swallows whole lines until its end.
#[derive(Debug, Clone, Copy)]
enum Leaf {
    None,
    Fence { fence: Fence, depth: usize },
    Html(HtmlEnd),
}

/// The open paragraph (or table).
#[derive(Debug, Clone, Copy)]
struct Paragraph {
    first_line: usize,
    /// At the top level: not in a blockquote or list.
    root: bool,
    table: bool,
    lines: usize,
    header_has_pipe: bool,
    /// The list item it belongs to.
    item: Option<usize>,
}

/// An open list item.
#[derive(Debug, Clone, Copy)]
struct OpenItem {
    /// Blockquote depth it lives at.
    depth: usize,
    /// Column where its content starts (within the blockquote's content).
    content_col: usize,
    /// The bullet character or the `.`/`)` of an ordered marker: a change starts a new list.
    kind: u8,
    index: usize,
}

/// A `^id` at the end of a line, kept until the next line shows whether it ends a block.
#[derive(Debug, Clone, Copy)]
struct PendingId {
    caret: usize,
    end: usize,
    item: Option<usize>,
}

/// What a line starts.
#[derive(Debug, Clone, Copy)]
enum Start {
    /// Paragraph text: continues an open paragraph or starts one.
    Text,
    /// A paragraph that may not continue the open one (a heading line below the top level).
    NewParagraph,
    IndentedCode,
    Fence(Fence),
    Heading(Atx),
    Setext(u8),
    ThematicBreak,
    Html(HtmlEnd),
    Item(Marker),
}

struct Parser<'t> {
    text: &'t str,
    bytes: &'t [u8],
    index: &'t LineIndex,
    lines: &'t [Line],
    meta: NoteMetadata,
    sections: Sections,
    masker: Masker,
    /// Masked spans of the segment read last.
    masks: Vec<(usize, usize)>,
    multiline: Option<Multiline>,
    leaf: Leaf,
    para: Option<Paragraph>,
    /// Open blockquote levels; each holds its callout's index, if it is one.
    quotes: Vec<Option<usize>>,
    /// End of the last non-blank line inside a blockquote.
    quote_last_end: usize,
    callout_ends: Vec<usize>,
    lists: Vec<OpenItem>,
    item_ends: Vec<usize>,
    pending_id: Option<PendingId>,
    in_indented_code: bool,
}

impl Parser<'_> {
    fn line(&mut self, number: usize) {
        let line = self.lines[number];
        if let Some(kind) = self.multiline {
            self.touch(line.end);
            if let Some(end) = kind.close_in(self.bytes, line.start, line.end) {
                self.multiline = None;
                if !is_blank(self.bytes, end, line.end) {
                    self.read_inline(end, line.end, None, false);
                    self.block_id_candidate(end, line.end);
                }
            }
            return;
        }
        let (depth, quoted) = strip_quote_markers(self.bytes, line.start, line.end);
        match self.leaf {
            Leaf::Fence {
                fence,
                depth: fence_depth,
            } if depth >= fence_depth => {
                let (_, at) = indentation(self.bytes, quoted, line.end);
                if closes(fence, self.bytes, at, line.end) {
                    self.leaf = Leaf::None;
                }
                self.touch(line.end);
                return;
            }
            Leaf::Html(HtmlEnd::BlankLine) if !is_blank(self.bytes, quoted, line.end) => {
                self.touch(line.end);
                return;
            }
            Leaf::Html(HtmlEnd::ClosingTag(tag)) => {
                if contains_closing_tag(self.bytes, line.start, line.end, tag) {
                    self.leaf = Leaf::None;
                }
                self.touch(line.end);
                return;
            }
            Leaf::Fence { .. } | Leaf::Html(HtmlEnd::BlankLine) => self.leaf = Leaf::None,
            Leaf::None => {}
        }
        if is_blank(self.bytes, quoted, line.end) {
            self.end_paragraph();
            self.close_quotes_to(depth);
            while self.lists.last().is_some_and(|item| item.depth > depth) {
                self.lists.pop();
            }
            return;
        }
        self.block_line(number, line, depth, quoted);
    }

    fn block_line(&mut self, number: usize, line: Line, depth: usize, quoted: usize) {
        let (indent, at) = indentation(self.bytes, quoted, line.end);
        let keep = self
            .lists
            .iter()
            .take_while(|item| item.depth == depth && item.content_col <= indent)
            .count();
        let base = keep.checked_sub(1).map_or(0, |k| self.lists[k].content_col);
        let could_continue = self.para.is_some() && depth <= self.quotes.len();
        let open_list_kind = self
            .lists
            .first()
            .filter(|item| item.depth == depth)
            .map(|item| item.kind);
        let list_was_open = open_list_kind.is_some();
        let start = self.classify(
            depth,
            keep,
            indent - base,
            at,
            line.end,
            could_continue,
            list_was_open,
        );
        if could_continue && matches!(start, Start::Text) {
            self.continue_paragraph(line, at);
            return;
        }
        if let Start::Setext(level) = start {
            self.setext_heading(number, line, level);
            return;
        }
        self.end_paragraph();
        self.lists.truncate(keep);
        let callout_title = self.set_quote_depth(depth, line, at);
        let root = self.quotes.is_empty() && keep == 0;
        match start {
            Start::Text | Start::NewParagraph => {
                self.start_paragraph(number, line, callout_title.unwrap_or(at), root, None);
            }
            Start::IndentedCode => {
                if root && !self.in_indented_code {
                    self.sections
                        .open(SectionType::Code, line.start, line.end, self.index);
                }
            }
            Start::Fence(fence) => {
                self.leaf = Leaf::Fence { fence, depth };
                if root {
                    self.sections
                        .open(SectionType::Code, line.start, line.end, self.index);
                }
            }
            Start::Heading(heading) => self.atx_heading(line, heading),
            Start::Setext(_) => {}
            Start::ThematicBreak => {
                if root {
                    self.sections.open(
                        SectionType::ThematicBreak,
                        line.start,
                        line.end,
                        self.index,
                    );
                }
            }
            Start::Html(end) => {
                let closed = matches!(end, HtmlEnd::ClosingTag(tag) if contains_closing_tag(self.bytes, at + 1, line.end, tag));
                if !closed {
                    self.leaf = Leaf::Html(end);
                }
                if root {
                    self.sections
                        .open(SectionType::Html, line.start, line.end, self.index);
                }
            }
            Start::Item(marker) => {
                let same_list =
                    open_list_kind == Some(self.bytes[marker.marker_end - 1]) || keep > 0;
                if depth == 0 && self.quotes.is_empty() && !same_list {
                    self.sections
                        .open(SectionType::List, line.start, line.end, self.index);
                }
                self.list_item(number, line, depth, indent, at, marker);
            }
        }
        self.in_indented_code = matches!(start, Start::IndentedCode);
        self.touch(line.end);
    }

    /// What a non-blank line starts, given its list context (`keep` open items contain it)
    /// and its indentation `relative` to the innermost of them.
    #[allow(clippy::too_many_arguments)]
    fn classify(
        &self,
        depth: usize,
        keep: usize,
        relative: usize,
        at: usize,
        end: usize,
        could_continue: bool,
        in_list: bool,
    ) -> Start {
        let bytes = self.bytes;
        if relative >= 4 {
            return if could_continue {
                Start::Text
            } else {
                Start::IndentedCode
            };
        }
        if let Some(fence) = fence_open(bytes, at, end) {
            return Start::Fence(fence);
        }
        let root = depth == 0 && keep == 0;
        if let Some(heading) = atx(bytes, at, end) {
            return if root {
                Start::Heading(heading)
            } else {
                Start::NewParagraph
            };
        }
        let root_para = self.para.is_some_and(|p| p.root && !p.table);
        if could_continue
            && root
            && root_para
            && let Some(level) = setext_underline(bytes, at, end)
        {
            return Start::Setext(level);
        }
        if is_thematic_break(bytes, at, end) {
            return Start::ThematicBreak;
        }
        if let Some(html) = html_block_start(bytes, at, end) {
            return Start::Html(html);
        }
        if let Some(marker) = marker(bytes, at, end) {
            // Only the first item of a new list is held back from interrupting a paragraph.
            let first_item_interrupts = could_continue && !in_list;
            if !first_item_interrupts || !marker.empty && (!marker.ordered || marker.starts_at_one)
            {
                return Start::Item(marker);
            }
        }
        Start::Text
    }

    fn continue_paragraph(&mut self, line: Line, at: usize) {
        self.pending_id = None;
        let Some(para) = self.para.as_mut() else {
            return;
        };
        if para.lines == 1
            && !para.table
            && para.header_has_pipe
            && is_table_delimiter(self.bytes, at, line.end)
        {
            para.table = true;
            para.lines += 1;
            if para.root {
                self.sections.retype(SectionType::Table);
            }
            self.touch(line.end);
            return;
        }
        para.lines += 1;
        let pipe = para.table || self.bytes[at] == b'|';
        self.touch(line.end);
        self.read_inline(at, line.end, Some(at), pipe);
        self.block_id_candidate(at, line.end);
    }

    fn start_paragraph(
        &mut self,
        number: usize,
        line: Line,
        from: usize,
        root: bool,
        item: Option<usize>,
    ) {
        let item = item.or_else(|| self.lists.last().map(|open| open.index));
        let header_has_pipe = self.bytes[from..line.end].contains(&b'|');
        self.para = Some(Paragraph {
            first_line: number,
            root,
            table: false,
            lines: 1,
            header_has_pipe,
            item,
        });
        if root {
            let rest = &self.bytes[from..line.end];
            let kind = if rest.starts_with(b"$$") {
                SectionType::Math
            } else if rest.starts_with(b"%%") {
                SectionType::Comment
            } else if rest.starts_with(b"<!--") {
                SectionType::Html
            } else {
                SectionType::Paragraph
            };
            self.sections.open(kind, line.start, line.end, self.index);
        }
        let pipe = self.bytes.get(from) == Some(&b'|');
        self.read_inline(from, line.end, Some(from), pipe);
        self.block_id_candidate(from, line.end);
    }

    fn atx_heading(&mut self, line: Line, heading: Atx) {
        self.sections
            .open(SectionType::Heading, line.start, line.end, self.index);
        self.meta.headings.push(Heading {
            heading: self.text[heading.text_start..heading.text_end].to_string(),
            level: heading.level,
            position: self.index.pos(line.start, line.end),
        });
        self.read_inline(
            heading.text_start,
            heading.text_end,
            Some(heading.text_start),
            false,
        );
    }

    /// The open top-level paragraph, underlined, becomes a heading.
    fn setext_heading(&mut self, number: usize, line: Line, level: u8) {
        let Some(para) = self.para.take() else { return };
        self.pending_id = None;
        let mut heading = String::new();
        for (i, text_line) in self.lines[para.first_line..number].iter().enumerate() {
            let (_, from) = indentation(self.bytes, text_line.start, text_line.end);
            if i > 0 {
                heading.push('\n');
            }
            heading.push_str(&self.text[from..trim_end(self.bytes, from, text_line.end)]);
        }
        let start = self.lines[para.first_line].start;
        self.meta.headings.push(Heading {
            heading,
            level,
            position: self.index.pos(start, line.end),
        });
        self.sections.retype(SectionType::Heading);
        self.touch(line.end);
    }

    fn list_item(
        &mut self,
        number: usize,
        line: Line,
        depth: usize,
        indent: usize,
        at: usize,
        marker: Marker,
    ) {
        let index = self.meta.list_items.len();
        let (task, text_from) = match checkbox(self.text, marker.content, line.end) {
            Some((status, from)) => (Some(status), from),
            None => (None, marker.content.min(line.end)),
        };
        self.meta.list_items.push(ListItem {
            marker: self.text[at..marker.marker_end].to_string(),
            task,
            text: self.text[text_from..trim_end(self.bytes, text_from, line.end)].to_string(),
            parent: self.lists.last().map(|open| open.index),
            id: None,
            position: self.index.pos(at, line.end),
        });
        self.item_ends.push(line.end);
        let kind = self.bytes[marker.marker_end - 1];
        self.lists.push(OpenItem {
            depth,
            content_col: indent + marker.content_offset,
            kind,
            index,
        });
        if let Some(fence) = fence_open(self.bytes, marker.content, line.end) {
            self.leaf = Leaf::Fence { fence, depth };
        } else if !is_blank(self.bytes, text_from, line.end) {
            self.start_paragraph(number, line, text_from, false, Some(index));
        }
    }

    /// Opens and closes blockquote levels to reach `depth`; a new innermost level whose
    /// content starts with `[!type]` is a callout. Returns where the callout title starts.
    fn set_quote_depth(&mut self, depth: usize, line: Line, content: usize) -> Option<usize> {
        self.close_quotes_to(depth);
        if self.quotes.len() >= depth {
            return None;
        }
        let header = callouts::header(self.text, content, line.end);
        if self.quotes.is_empty() {
            let kind = if depth == 1 && header.is_some() {
                SectionType::Callout
            } else {
                SectionType::Blockquote
            };
            self.sections.open(kind, line.start, line.end, self.index);
        }
        while self.quotes.len() + 1 < depth {
            self.quotes.push(None);
        }
        let title_start = header.as_ref().map(|h| h.title_start);
        let callout = header.map(|h| {
            self.meta.callouts.push(Callout {
                callout_type: h.callout_type,
                metadata: h.metadata,
                fold: h.fold,
                title: h.title,
                depth,
                position: self.index.pos(line.start, line.end),
            });
            self.callout_ends.push(line.end);
            self.meta.callouts.len() - 1
        });
        self.quotes.push(callout);
        title_start
    }

    fn close_quotes_to(&mut self, depth: usize) {
        while self.quotes.len() > depth {
            if let Some(Some(callout)) = self.quotes.pop() {
                self.callout_ends[callout] = self.quote_last_end;
            }
        }
    }

    /// A non-blank line belongs to the open section, blockquote and list item.
    fn touch(&mut self, end: usize) {
        self.sections.extend(end);
        if !self.quotes.is_empty() {
            self.quote_last_end = end;
        }
        if let Some(item) = self.lists.last() {
            self.item_ends[item.index] = end;
        }
    }

    fn read_inline(
        &mut self,
        from: usize,
        to: usize,
        content_start: Option<usize>,
        pipe_boundary: bool,
    ) {
        self.masks.clear();
        self.multiline = self
            .masker
            .mask_segment(self.bytes, from, to, &mut self.masks);
        let segment = Segment {
            from,
            to,
            content_start,
            pipe_boundary,
            masks: &self.masks,
        };
        inline::read(self.text, self.index, &segment, &mut self.meta);
    }

    /// Keeps a `^id` ending the line just read, unless it is masked or a comment is open.
    fn block_id_candidate(&mut self, from: usize, to: usize) {
        if self.multiline.is_some() {
            return;
        }
        if let Some((caret, end)) = trailing_block_id(self.bytes, from, to)
            && !self.masks.iter().any(|&(s, e)| s <= caret && caret < e)
        {
            let item = self.para.and_then(|p| p.item);
            self.pending_id = Some(PendingId { caret, end, item });
        }
    }

    /// Closes the open paragraph; a pending `^id` ended its block, so it counts.
    fn end_paragraph(&mut self) {
        if let Some(pending) = self.pending_id.take() {
            let id = self.text[pending.caret + 1..pending.end].to_string();
            if let Some(item) = pending.item {
                self.meta.list_items[item].id = Some(id.clone());
            }
            self.meta.blocks.push(BlockId {
                id,
                position: self.index.pos(pending.caret, pending.end),
            });
        }
        self.para = None;
    }

    fn finish(mut self) -> NoteMetadata {
        self.end_paragraph();
        self.close_quotes_to(0);
        for (item, &end) in self.meta.list_items.iter_mut().zip(&self.item_ends) {
            item.position.end = self.index.loc(end);
        }
        for (callout, &end) in self.meta.callouts.iter_mut().zip(&self.callout_ends) {
            callout.position.end = self.index.loc(end);
        }
        self.meta.sections = self.sections.finish(self.index);
        self.meta
    }
}

/// A table delimiter row: only `|`, `-`, `:`, spaces and tabs, with at least one `-` and
/// one `|`.
fn is_table_delimiter(bytes: &[u8], at: usize, end: usize) -> bool {
    let row = &bytes[at..end];
    row.iter()
        .all(|&b| matches!(b, b'|' | b'-' | b':') || is_space_or_tab(b))
        && row.contains(&b'-')
        && row.contains(&b'|')
}

#[cfg(test)]
mod tests {
    use super::super::extract;
    use alloc::vec::Vec;

    fn links(text: &str) -> Vec<String> {
        extract(text).links.into_iter().map(|l| l.link).collect()
    }

    fn tags(text: &str) -> Vec<String> {
        extract(text).tags.into_iter().map(|t| t.tag).collect()
    }

    fn blocks(text: &str) -> Vec<String> {
        extract(text).blocks.into_iter().map(|b| b.id).collect()
    }

    use alloc::string::String;

    #[test]
    fn code_fences_hide_everything_until_their_closer() {
        assert_eq!(links("```\n[[a]]\n```\n[[b]]"), ["b"]);
        assert_eq!(links("~~~~ js\n[[a]]\n~~~\n[[b]]\n~~~~\n[[c]]"), ["c"]);
        assert_eq!(links("```\n[[a]]\n``` x\n[[b]]"), Vec::<String>::new());
        assert_eq!(links("> ```\n> [[a]]\n[[b]]"), ["b"]);
        assert_eq!(links("- item\n  ```\n  [[a]]\n  ```\n- [[b]]"), ["b"]);
    }

    #[test]
    fn indented_code_needs_no_open_paragraph() {
        assert_eq!(tags("    #a\n\npara\n    #b\n\n    #c"), ["#b"]);
        // Four columns past the item's content column: code inside the item.
        assert_eq!(tags("- item\n\n      #d\n\n    #e"), ["#e"]);
        assert_eq!(tags("# H\n    #f"), Vec::<String>::new());
    }

    #[test]
    fn multi_line_comments_and_math() {
        assert_eq!(links("a %% b\n[[x]]\n# h\nc %% [[y]]"), ["y"]);
        assert_eq!(extract("a %% b\n# h\nc %% d").headings.len(), 0);
        assert_eq!(links("%%\n[[x]]"), Vec::<String>::new());
        assert_eq!(tags("$$\n#x\n$$ #y"), ["#y"]);
        assert_eq!(tags("<!--\n#x\n--> #y"), ["#y"]);
        assert_eq!(tags("a $$ #x no closer"), ["#x"]);
    }

    #[test]
    fn html_blocks_hide_their_lines() {
        assert_eq!(tags("<div>\nhello #a\n</div>\n\n#b"), ["#b"]);
        assert_eq!(tags("<pre>\n#a\n\n#b\n</pre>\n#c"), ["#c"]);
        assert_eq!(tags("<span>\n#a"), ["#a"]);
    }

    #[test]
    fn headings_atx_and_setext_at_the_top_level_only() {
        let meta = extract("# A\nText\n===\nMore\n---\n> # Q\n- # L\n#nope");
        let headings: Vec<(u8, &str)> = meta
            .headings
            .iter()
            .map(|h| (h.level, h.heading.as_str()))
            .collect();
        assert_eq!(headings, [(1, "A"), (1, "Text"), (2, "More")]);
        assert_eq!(meta.tags.len(), 1);
        assert_eq!(extract("a\n\n---\n").headings.len(), 0);
        assert_eq!(extract("- a\n  ---").headings.len(), 0);
    }

    #[test]
    fn block_ids_end_blocks() {
        assert_eq!(blocks("a ^one\nb ^two\n\n^three"), ["two", "three"]);
        assert_eq!(blocks("- a ^x\n- b ^y\n  more"), ["x"]);
        assert_eq!(blocks("# H ^no\n`^no`\n^yes"), ["yes"]);
        assert_eq!(blocks("> q\n^lazy\n"), ["lazy"]);
        let meta = extract("- a ^x\n");
        assert_eq!(meta.list_items[0].id.as_deref(), Some("x"));
    }

    #[test]
    fn lists_nest_and_tasks_take_any_status() {
        let meta = extract(
            "- [ ] a\n  - [x] b\n    1. [/] c\n- [-] d\n\t- [>] e\n* f\n\npara\n2. not a list after a paragraph",
        );
        let items: Vec<(Option<char>, Option<usize>, &str)> = meta
            .list_items
            .iter()
            .map(|i| (i.task, i.parent, i.text.as_str()))
            .collect();
        assert_eq!(
            items,
            [
                (Some(' '), None, "a"),
                (Some('x'), Some(0), "b"),
                (Some('/'), Some(1), "c"),
                (Some('-'), None, "d"),
                (Some('>'), Some(3), "e"),
                (None, None, "f"),
            ]
        );
        // `*` after `-` starts a new list; the paragraph is its own section.
        assert_eq!(meta.sections.len(), 3);
    }

    #[test]
    fn callouts_nest_and_end_with_their_blockquote() {
        let meta = extract("> [!Note]+ T\n> > [!tip|wide] U\n>\n> x\nlazy\n\n> plain");
        let callouts: Vec<(&str, usize, usize)> = meta
            .callouts
            .iter()
            .map(|c| (c.callout_type.as_str(), c.depth, c.position.end.line))
            .collect();
        assert_eq!(callouts, [("note", 1, 4), ("tip", 2, 1)]);
        // A deeper paragraph continues lazily (CommonMark): `x` belongs to the tip.
        let lazy = extract("> [!note]\n> > [!tip] U\n> x\n");
        assert_eq!(lazy.callouts[1].position.end.line, 2);
        assert_eq!(meta.callouts[1].metadata.as_deref(), Some("wide"));
        let kinds: Vec<_> = meta.sections.iter().map(|s| s.section_type).collect();
        assert_eq!(
            kinds,
            [super::SectionType::Callout, super::SectionType::Blockquote]
        );
    }

    #[test]
    fn crlf_and_bom() {
        let meta = extract("\u{feff}---\r\na: 1\r\n---\r\n# T\r\n[[x]] #y ^z\r\n");
        assert_eq!(
            meta.frontmatter.as_ref().map(|f| f.yaml.as_str()),
            Some("a: 1")
        );
        assert_eq!(meta.headings[0].heading, "T");
        assert_eq!(meta.links[0].position.end.col, 5);
        assert_eq!(meta.tags[0].tag, "#y");
        assert_eq!(meta.blocks[0].id, "z");
    }

    #[test]
    fn tables_make_pipes_tag_boundaries() {
        let meta = extract("|a|b|\n|-|-|\n|#uo|x|\n");
        assert_eq!(meta.tags.len(), 1);
        assert_eq!(meta.sections[0].section_type, super::SectionType::Table);
    }
}
