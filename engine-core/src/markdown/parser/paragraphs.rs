//! Paragraphs (and the tables and setext headings they turn into), ATX headings and the
//! block ids that end paragraphs.

use alloc::string::{String, ToString};

use super::super::block_ids::trailing_block_id;
use super::super::headings::Atx;
use super::super::lines::{Line, indentation, is_space_or_tab, trim_end};
use super::super::types::{BlockId, Heading, SectionType};
use super::{Paragraph, Parser, PendingId};

impl Parser<'_> {
    pub(super) fn continue_paragraph(&mut self, line: Line, at: usize) {
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

    pub(super) fn start_paragraph(
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

    pub(super) fn atx_heading(&mut self, line: Line, heading: Atx) {
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
    pub(super) fn setext_heading(&mut self, number: usize, line: Line, level: u8) {
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

    /// Keeps a `^id` ending the line just read, unless it is masked or a comment is open.
    pub(super) fn block_id_candidate(&mut self, from: usize, to: usize) {
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
    pub(super) fn end_paragraph(&mut self) {
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
