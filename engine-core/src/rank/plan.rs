//! What a query searches once it is matched against an index's dictionary: the planned
//! terms with their weights and idf, and for each query word its weight in coverage figures.

use alloc::vec::Vec;

/// One indexed term a query searches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PlannedTerm {
    /// The term id.
    pub(crate) term: u32,
    /// How much it counts: `1` for the query's own word, less for a term standing in for a
    /// misspelt one.
    pub(crate) weight: f32,
    /// Its idf over the searched documents.
    pub(crate) idf: f32,
    /// The position of the query word it stands for (among the distinct words).
    pub(crate) word: u16,
}

/// A query matched against the dictionary.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct QueryPlan {
    /// The terms searched, in the order of the words they stand for (a word's near terms
    /// fewest edits first).
    pub(crate) terms: Vec<PlannedTerm>,
    /// Per distinct query word, its weight in coverage: the largest `idf · weight` of its
    /// terms, or the idf of a term no document has when nothing stands for it.
    pub(crate) word_idf: Vec<f32>,
}

impl QueryPlan {
    /// The weight of a term standing in for an unknown word one and two edits away. Chosen on
    /// the tuning set (bench/tuning): a misspelt title word should still find its note, below
    /// the notes that have the word as typed.
    pub(crate) const FUZZY_WEIGHTS: [f32; 2] = [0.8, 0.6];

    /// How many known terms at most stand in for one unknown word.
    pub(crate) const FUZZY_TERMS: usize = 2;

    /// The share of the query's word weight (see [`QueryPlan::word_idf`]) that the words in
    /// `words` (a bit per word position, modulo 64) carry, in `[0, 1]`; `0` for an empty query.
    pub(crate) fn coverage(&self, words: u64) -> f32 {
        let mut total = 0.0f32;
        let mut covered = 0.0f32;
        for (word, idf) in self.word_idf.iter().enumerate() {
            total += *idf;
            if words & (1u64 << (word % 64)) != 0 {
                covered += *idf;
            }
        }
        if total > 0.0 { covered / total } else { 0.0 }
    }
}

/// How a document's title and aliases match a query (see
/// [`InvertedIndex::title_match`](super::InvertedIndex::title_match)).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct TitleMatch {
    /// A bit per query word found in the title or the aliases.
    pub(crate) words: u64,
    /// Occurrences of planned terms in the title.
    pub(crate) title_hits: u32,
    /// The title's length in terms.
    pub(crate) title_len: u32,
    /// Occurrences of planned terms in the aliases.
    pub(crate) alias_hits: u32,
    /// The aliases' length in terms.
    pub(crate) alias_len: u32,
}

impl TitleMatch {
    /// How well the title (or, when better, the aliases) matches, in `[0, 1]`: the query's
    /// coverage by title words times the title's coverage by query words, so the note called
    /// exactly what was asked scores 1 and a long title sharing one word scores little.
    pub(crate) fn score(&self, plan: &QueryPlan) -> f32 {
        if self.words == 0 {
            return 0.0;
        }
        let share = |hits: u32, len: u32| {
            if len == 0 {
                0.0
            } else {
                (hits as f32 / len as f32).min(1.0)
            }
        };
        let named =
            share(self.title_hits, self.title_len).max(share(self.alias_hits, self.alias_len));
        plan.coverage(self.words) * named
    }
}
