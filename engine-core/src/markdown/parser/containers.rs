//! Containers: list items (with tasks) and blockquote levels (with callouts).

use alloc::string::ToString;

use super::super::callouts;
use super::super::code::fence_open;
use super::super::lines::{Line, is_blank, trim_end};
use super::super::lists::{Marker, checkbox};
use super::super::types::{Callout, ListItem, SectionType};
use super::{Leaf, OpenItem, Parser};

impl Parser<'_> {
    pub(super) fn list_item(
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
    pub(super) fn set_quote_depth(
        &mut self,
        depth: usize,
        line: Line,
        content: usize,
    ) -> Option<usize> {
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

    pub(super) fn close_quotes_to(&mut self, depth: usize) {
        while self.quotes.len() > depth {
            if let Some(Some(callout)) = self.quotes.pop() {
                self.callout_ends[callout] = self.quote_last_end;
            }
        }
    }
}
