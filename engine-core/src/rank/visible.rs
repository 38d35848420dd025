//! A caller's view of an index: the documents it may see, with their own statistics.
//!
//! BM25F's document count, document frequencies and average field lengths are statistics of
//! a corpus. Computed over the whole index, they let a caller who may see only some documents
//! learn about the others (a visible document's score drops as hidden documents share its
//! terms). A [`Visible`] view holds which documents are visible and the count and field-length
//! totals of those alone; [`InvertedIndex::search_terms_visible`] counts document frequencies
//! over them too, so a search through the view scores every visible document bit-identically
//! to an index holding only the visible documents, whatever the hidden ones contain.

use alloc::vec::Vec;
use core::fmt;

use super::field::Field;
use super::index::InvertedIndex;

/// Which documents of one [`InvertedIndex`] a caller may see, and their statistics. Built by
/// [`InvertedIndex::visible`]; valid until the index next changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visible {
    /// The index revision it was built at.
    pub(crate) revision: u64,
    /// Whether each ordinal is visible (free slots are not).
    pub(crate) admitted: Vec<bool>,
    /// Number of visible documents.
    pub(crate) live: u32,
    /// Field lengths summed over the visible documents.
    pub(crate) field_totals: [u64; Field::COUNT],
}

impl Visible {
    /// Number of visible documents.
    pub fn len(&self) -> usize {
        self.live as usize
    }

    /// Whether no document is visible.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Whether the view was built from `index` as it is now.
    pub fn is_current(&self, index: &InvertedIndex) -> bool {
        self.revision == index.revision() && self.admitted.len() == index.docs.len()
    }
}

/// A [`Visible`] view used after its index changed: build a new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaleView;

impl fmt::Display for StaleView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the visible view was built before the index last changed")
    }
}
