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

use alloc::vec::Vec;

use super::code::{Fence, HtmlEnd, closes, contains_closing_tag};
use super::inline::{self, Segment};
use super::lines::{Line, indentation, is_blank, strip_quote_markers};
use super::mask::{Masker, Multiline};
use super::position::LineIndex;
use super::sections::Sections;
use super::types::{NoteMetadata, SectionType};
use classify::Start;

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
            // Handled above: it ends the paragraph by turning it into a heading.
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

mod classify;
mod containers;
mod paragraphs;
#[cfg(test)]
mod tests;
