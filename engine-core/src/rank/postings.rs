//! Posting lists: for one term, the (document ordinal, field, term frequency) triples,
//! kept sorted by ordinal and then field so that one document's fields form a contiguous
//! run in [`Field::ALL`] order.

use alloc::vec::Vec;

use super::field::Field;

/// Largest term frequency (and field length) a posting can hold: 2^29 - 1.
pub const MAX_TF: u32 = (1 << 29) - 1;

/// One entry of a posting list: 8 bytes, the field packed in the low 3 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Posting {
    doc: u32,
    field_tf: u32,
}

impl Posting {
    /// A posting for `tf` occurrences (`1..=MAX_TF`) in `field` of document `doc`.
    pub(crate) fn new(doc: u32, field: Field, tf: u32) -> Posting {
        debug_assert!((1..=MAX_TF).contains(&tf));
        Posting {
            doc,
            field_tf: (tf << 3) | field.index() as u32,
        }
    }

    /// The document ordinal.
    pub(crate) fn doc(self) -> u32 {
        self.doc
    }

    /// The field position in [`Field::ALL`].
    pub(crate) fn field_index(self) -> usize {
        (self.field_tf & 7) as usize
    }

    /// The term frequency in that field.
    pub(crate) fn tf(self) -> u32 {
        self.field_tf >> 3
    }
}

/// The postings of one term, sorted by (doc, field).
#[derive(Debug, Clone, Default)]
pub(crate) struct PostingList {
    entries: Vec<Posting>,
}

impl PostingList {
    /// All entries in (doc, field) order.
    pub(crate) fn entries(&self) -> &[Posting] {
        &self.entries
    }

    /// Inserts the run of one document (entries of `doc`, sorted by field), which must not
    /// already be present.
    pub(crate) fn insert_doc(&mut self, run: &[Posting]) {
        let Some(first) = run.first() else { return };
        let at = self.entries.partition_point(|p| p.doc < first.doc);
        self.entries.splice(at..at, run.iter().copied());
    }

    /// A list from entries already sorted by (doc, field).
    pub(crate) fn from_sorted(entries: Vec<Posting>) -> Self {
        PostingList { entries }
    }

    /// Removes every entry of `doc`; returns whether there was one.
    pub(crate) fn remove_doc(&mut self, doc: u32) -> bool {
        let start = self.entries.partition_point(|p| p.doc < doc);
        let end = start + self.entries[start..].partition_point(|p| p.doc == doc);
        self.entries.drain(start..end);
        start != end
    }

    /// Frees the storage of an emptied list.
    pub(crate) fn release(&mut self) {
        self.entries = Vec::new();
    }
}

/// Iterates the postings grouped per document: each item is one document's run.
pub(crate) fn doc_runs(entries: &[Posting]) -> impl Iterator<Item = &[Posting]> {
    entries.chunk_by(|a, b| a.doc == b.doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_keeps_field_and_tf() {
        let p = Posting::new(7, Field::Headings, MAX_TF);
        assert_eq!((p.doc(), p.field_index(), p.tf()), (7, 2, MAX_TF));
    }

    #[test]
    fn insert_and_remove_keep_order() {
        let mut list = PostingList::default();
        list.insert_doc(&[Posting::new(5, Field::Body, 1)]);
        list.insert_doc(&[
            Posting::new(1, Field::Title, 2),
            Posting::new(1, Field::Body, 3),
        ]);
        list.insert_doc(&[Posting::new(3, Field::Tags, 1)]);
        let docs: Vec<u32> = list.entries().iter().map(|p| p.doc()).collect();
        assert_eq!(docs, [1, 1, 3, 5]);
        assert_eq!(doc_runs(list.entries()).count(), 3);
        assert!(list.remove_doc(1));
        assert!(!list.remove_doc(1));
        assert!(!list.remove_doc(9));
        let docs: Vec<u32> = list.entries().iter().map(|p| p.doc()).collect();
        assert_eq!(docs, [3, 5]);
    }
}
