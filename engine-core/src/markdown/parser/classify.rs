//! What a line starts, given its container context.

use super::super::code::{Fence, HtmlEnd, fence_open, html_block_start};
use super::super::headings::{Atx, atx, is_thematic_break, setext_underline};
use super::super::lists::{Marker, marker};
use super::Parser;

/// What a line starts.
#[derive(Debug, Clone, Copy)]
pub(super) enum Start {
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

impl Parser<'_> {
    /// What a non-blank line starts, given its list context (`keep` open items contain it)
    /// and its indentation `relative` to the innermost of them.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn classify(
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
}
