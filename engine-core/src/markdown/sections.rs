//! Top-level blocks, built line by line: a section opens when a top-level block starts and
//! grows with every non-blank line that belongs to it.

use alloc::vec::Vec;

use super::position::LineIndex;
use super::types::{Section, SectionType};

/// The sections found so far and the one being built.
#[derive(Debug, Default)]
pub(crate) struct Sections {
    done: Vec<Section>,
    open: Option<(SectionType, usize, usize)>,
}

impl Sections {
    /// Starts a new section at `start` (closing the open one) that reaches `end` so far.
    pub(crate) fn open(&mut self, kind: SectionType, start: usize, end: usize, index: &LineIndex) {
        self.close(index);
        self.open = Some((kind, start, end));
    }

    /// Extends the open section to `end`.
    pub(crate) fn extend(&mut self, end: usize) {
        if let Some((_, _, last)) = &mut self.open {
            *last = (*last).max(end);
        }
    }

    /// Changes the kind of the open section (a paragraph that turns out to be a table or a
    /// setext heading).
    pub(crate) fn retype(&mut self, kind: SectionType) {
        if let Some((open_kind, _, _)) = &mut self.open {
            *open_kind = kind;
        }
    }

    /// Closes the open section.
    pub(crate) fn close(&mut self, index: &LineIndex) {
        if let Some((section_type, start, end)) = self.open.take() {
            self.done.push(Section {
                section_type,
                position: index.pos(start, end),
            });
        }
    }

    /// All sections, the open one closed.
    pub(crate) fn finish(mut self, index: &LineIndex) -> Vec<Section> {
        self.close(index);
        self.done
    }
}
