//! The in-memory inverted index over pre-analyzed terms.

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use super::FixedMap;
use super::field::Field;
use super::fuzzy::{distance_within, max_edits};
use super::params::{Bm25Params, ParamsError};
use super::plan::{PlannedTerm, QueryPlan, TitleMatch};
use super::postings::{MAX_TF, Posting, PostingList, doc_runs};
use super::scoring::{FieldScorer, idf};
use super::topk::{ScoredDoc, rank_order, select_top};
use super::visible::{StaleView, Visible};

/// Largest number of documents an index holds at once.
pub const MAX_DOCS: u32 = u32::MAX - 1;

/// Why a document could not be indexed.
#[derive(Debug, Clone, PartialEq)]
pub enum IndexError {
    /// The index already holds [`MAX_DOCS`] documents.
    TooManyDocuments,
    /// A field has more than [`MAX_TF`] terms.
    FieldTooLong {
        /// The field.
        field: Field,
        /// Its number of terms.
        len: usize,
    },
    /// The document was analyzed by another analyzer than the index's (see
    /// [`LexicalIndex::upsert_analyzed`](super::LexicalIndex::upsert_analyzed)).
    AnalyzerMismatch,
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::TooManyDocuments => write!(f, "the index is full ({MAX_DOCS} documents)"),
            IndexError::FieldTooLong { field, len } => {
                write!(
                    f,
                    "field {field:?} has {len} terms, more than the limit of {MAX_TF}"
                )
            }
            IndexError::AnalyzerMismatch => {
                write!(
                    f,
                    "the document was analyzed by another analyzer than the index's"
                )
            }
        }
    }
}

/// One term of the dictionary.
#[derive(Debug, Clone, Default)]
pub(crate) struct TermEntry {
    /// The term text (empty once the id is on the free list).
    pub(crate) text: String,
    /// Number of live documents containing the term in any field.
    pub(crate) df: u32,
    /// Its postings.
    pub(crate) postings: PostingList,
}

/// One live document.
#[derive(Debug, Clone)]
pub(crate) struct DocEntry {
    /// The caller's id.
    pub(crate) id: String,
    /// Distinct term ids of the document, ascending: what removal must visit.
    terms: Vec<u32>,
}

/// An in-memory BM25F inverted index: documents are given as per-field lists of already
/// analyzed terms and identified by a caller-chosen string id.
///
/// Documents get internal ordinals, reused through a free list after removal; terms get
/// ids through a hash map with a fixed-seed hasher, also reused once no document holds
/// the term. Scores depend only on the indexed content and the parameters, never on the
/// order of operations that produced the index (df, N and field-length totals are exact
/// integer counts).
#[derive(Debug, Clone)]
pub struct InvertedIndex {
    params: Bm25Params,
    pub(crate) term_ids: FixedMap<String, u32>,
    pub(crate) terms: Vec<TermEntry>,
    free_terms: Vec<u32>,
    doc_ords: FixedMap<String, u32>,
    /// Live documents by ordinal (`None`: free slot).
    pub(crate) docs: Vec<Option<DocEntry>>,
    /// Per-ordinal field lengths (number of terms), kept apart from `docs` for cache locality.
    lens: Vec<[u32; Field::COUNT]>,
    free_docs: Vec<u32>,
    field_totals: [u64; Field::COUNT],
    live: u32,
    /// Counts the changes (upserts and removals), so a [`Visible`] view knows it is stale.
    revision: u64,
}

impl InvertedIndex {
    /// An empty index with validated parameters.
    pub fn new(params: Bm25Params) -> Result<Self, ParamsError> {
        params.validate()?;
        Ok(InvertedIndex {
            params,
            term_ids: FixedMap::default(),
            terms: Vec::new(),
            free_terms: Vec::new(),
            doc_ords: FixedMap::default(),
            docs: Vec::new(),
            lens: Vec::new(),
            free_docs: Vec::new(),
            field_totals: [0; Field::COUNT],
            live: 0,
            revision: 0,
        })
    }

    /// Rebuilds an index from canonical parts: `ids` strictly ascending, `terms` strictly
    /// ascending by text, each with a non-empty posting list sorted by (doc, field) whose
    /// docs index `ids`. The caller (the decoder) has checked all of this.
    pub(crate) fn from_canonical_parts(
        params: Bm25Params,
        ids: Vec<String>,
        terms: Vec<(String, Vec<Posting>)>,
    ) -> Result<Self, ParamsError> {
        let mut index = InvertedIndex::new(params)?;
        index.lens = vec![[0; Field::COUNT]; ids.len()];
        // Every container at its final size from the start: a large index (a whole vault) is
        // read in one go, and growing millions of small lists step by step costs more than
        // counting them first, in time and in peak memory (most of all in WebAssembly).
        let mut counts = vec![0usize; ids.len()];
        for (_, postings) in &terms {
            for run in doc_runs(postings) {
                counts[run[0].doc() as usize] += 1;
            }
        }
        let mut doc_terms: Vec<Vec<u32>> = counts.into_iter().map(Vec::with_capacity).collect();
        index.term_ids.reserve(terms.len());
        index.terms.reserve_exact(terms.len());
        index.doc_ords.reserve(ids.len());
        index.docs.reserve_exact(ids.len());
        for (term, (text, postings)) in terms.into_iter().enumerate() {
            let term = term as u32;
            let mut df = 0;
            for run in doc_runs(&postings) {
                let doc = run[0].doc() as usize;
                for p in run {
                    index.lens[doc][p.field_index()] += p.tf();
                }
                doc_terms[doc].push(term);
                df += 1;
            }
            index.term_ids.insert(text.clone(), term);
            index.terms.push(TermEntry {
                text,
                df,
                postings: PostingList::from_sorted(postings),
            });
        }
        for (ord, (id, terms)) in ids.into_iter().zip(doc_terms).enumerate() {
            index.doc_ords.insert(id.clone(), ord as u32);
            index.docs.push(Some(DocEntry { id, terms }));
        }
        for lens in &index.lens {
            for (total, len) in index.field_totals.iter_mut().zip(lens) {
                *total += u64::from(*len);
            }
        }
        index.live = index.docs.len() as u32;
        Ok(index)
    }

    /// The scoring parameters.
    pub fn params(&self) -> &Bm25Params {
        &self.params
    }

    /// Replaces the scoring parameters; the index content is unaffected (parameters are
    /// only used at query time).
    pub fn set_params(&mut self, params: Bm25Params) -> Result<(), ParamsError> {
        params.validate()?;
        self.params = params;
        Ok(())
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.live as usize
    }

    /// Whether the index holds no document.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Whether a document with this id is indexed.
    pub fn contains(&self, id: &str) -> bool {
        self.doc_ords.contains_key(id)
    }

    /// Number of distinct terms held by at least one document.
    pub fn term_count(&self) -> usize {
        self.term_ids.len()
    }

    /// Number of documents containing `term` in any field.
    pub fn doc_freq(&self, term: &str) -> u32 {
        self.term_ids
            .get(term)
            .map_or(0, |&t| self.terms[t as usize].df)
    }

    /// Inserts the document `id`, replacing any previous version. `fields` lists each
    /// field's terms; a field may be listed more than once (its terms are concatenated)
    /// or not at all (empty). The field length is its number of terms.
    pub fn upsert<S: AsRef<str>>(
        &mut self,
        id: &str,
        fields: &[(Field, &[S])],
    ) -> Result<(), IndexError> {
        let mut lens = [0usize; Field::COUNT];
        for (field, terms) in fields {
            lens[field.index()] += terms.len();
        }
        for field in Field::ALL {
            let len = lens[field.index()];
            if len > MAX_TF as usize {
                return Err(IndexError::FieldTooLong { field, len });
            }
        }
        let ord = match self.doc_ords.get(id) {
            Some(&ord) => {
                self.unlink(ord);
                ord
            }
            None => {
                let ord = self.allocate_ordinal()?;
                self.doc_ords.insert(id.to_owned(), ord);
                ord
            }
        };
        let mut occurrences: Vec<(u32, u8)> = Vec::with_capacity(lens.iter().sum());
        for (field, terms) in fields {
            for term in terms.iter() {
                occurrences.push((self.intern(term.as_ref()), field.index() as u8));
            }
        }
        occurrences.sort_unstable();
        let mut doc_terms = Vec::new();
        let mut run: Vec<Posting> = Vec::with_capacity(Field::COUNT);
        for same_term in occurrences.chunk_by(|a, b| a.0 == b.0) {
            run.clear();
            for same_field in same_term.chunk_by(|a, b| a.1 == b.1) {
                let field = Field::ALL[same_field[0].1 as usize];
                run.push(Posting::new(ord, field, same_field.len() as u32));
            }
            let term = same_term[0].0;
            let entry = &mut self.terms[term as usize];
            entry.postings.insert_doc(&run);
            entry.df += 1;
            doc_terms.push(term);
        }
        let lens = lens.map(|l| l as u32);
        for (total, len) in self.field_totals.iter_mut().zip(lens) {
            *total += u64::from(len);
        }
        self.lens[ord as usize] = lens;
        self.docs[ord as usize] = Some(DocEntry {
            id: id.to_owned(),
            terms: doc_terms,
        });
        self.live += 1;
        self.revision += 1;
        Ok(())
    }

    /// Removes the document `id`; returns whether it was indexed.
    pub fn remove(&mut self, id: &str) -> bool {
        let Some(ord) = self.doc_ords.remove(id) else {
            return false;
        };
        self.unlink(ord);
        self.free_docs.push(ord);
        true
    }

    /// The `k` best documents for the query terms, ranked by score descending, then id
    /// ascending. Each distinct query term counts once, however often it is listed
    /// (repeats are dropped; chosen on SciFact train, where it beats weighting by query
    /// term frequency); terms are summed in first-occurrence order; unknown terms are
    /// ignored. Only documents containing a query term in a field of non-zero weight are
    /// returned.
    pub fn search_terms<S: AsRef<str>>(&self, query: &[S], k: usize) -> Vec<ScoredDoc> {
        let plan = self.plan(query, false, None);
        self.scored_docs(self.search_plan(&plan, k, None))
    }

    /// How many times the index changed (each upsert and removal counts one).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The view of the documents whose ids `admits` accepts (asked once per document), with
    /// their count and field-length totals.
    pub fn visible(&self, admits: &mut dyn FnMut(&str) -> bool) -> Visible {
        let mut admitted = vec![false; self.docs.len()];
        let mut live = 0;
        let mut field_totals = [0u64; Field::COUNT];
        for (ord, doc) in self.docs.iter().enumerate() {
            let Some(doc) = doc else { continue };
            if admits(&doc.id) {
                admitted[ord] = true;
                live += 1;
                for (total, len) in field_totals.iter_mut().zip(self.lens[ord]) {
                    *total += u64::from(len);
                }
            }
        }
        Visible {
            revision: self.revision,
            admitted,
            live,
            field_totals,
        }
    }

    /// [`Self::search_terms`] over the documents of `visible` only, with their statistics
    /// (document count, document frequencies, field-length totals): every score is the one an
    /// index holding only those documents gives. [`StaleView`] when the index changed since
    /// `visible` was built.
    pub fn search_terms_visible<S: AsRef<str>>(
        &self,
        visible: &Visible,
        query: &[S],
        k: usize,
    ) -> Result<Vec<ScoredDoc>, StaleView> {
        if !visible.is_current(self) {
            return Err(StaleView);
        }
        let plan = self.plan(query, false, Some(visible));
        Ok(self.scored_docs(self.search_plan(&plan, k, Some(visible))))
    }

    /// The query plan of `query` (analyzed terms) over the documents of `visible` (all when
    /// `None`): see [`QueryPlan`]. With `fuzzy`, a word the index does not know is replaced by
    /// the known terms a few edits away (see [`QueryPlan::FUZZY_WEIGHTS`]).
    pub(crate) fn plan<S: AsRef<str>>(
        &self,
        query: &[S],
        fuzzy: bool,
        visible: Option<&Visible>,
    ) -> QueryPlan {
        let admitted = visible.map(|visible| visible.admitted.as_slice());
        let live = visible.map_or(self.live, |visible| visible.live);
        let mut words: Vec<&str> = Vec::new();
        for term in query {
            if !words.contains(&term.as_ref()) {
                words.push(term.as_ref());
            }
        }
        let mut plan = QueryPlan {
            terms: Vec::new(),
            word_idf: Vec::with_capacity(words.len()),
        };
        let mut seen: FixedMap<u32, ()> = FixedMap::default();
        for (word, text) in words.iter().enumerate() {
            let word = word as u16;
            let mut best = 0.0f32;
            let mut add = |plan: &mut QueryPlan, term: u32, weight: f32, df: u32| {
                if seen.insert(term, ()).is_none() && df > 0 {
                    let idf = idf(live, df);
                    best = best.max(idf * weight);
                    plan.terms.push(PlannedTerm {
                        term,
                        weight,
                        idf,
                        word,
                    });
                }
            };
            if let Some(&term) = self.term_ids.get(*text) {
                add(&mut plan, term, 1.0, self.df_among(term, admitted));
            } else if fuzzy {
                for (term, edits, df) in self.near_terms(text, admitted) {
                    add(
                        &mut plan,
                        term,
                        QueryPlan::FUZZY_WEIGHTS[edits as usize - 1],
                        df,
                    );
                }
            }
            // A word found nowhere weighs as the rarest term would (it is missed by every
            // document).
            plan.word_idf
                .push(if best > 0.0 { best } else { idf(live, 0) });
        }
        plan
    }

    /// How many documents (among `admitted`, all when `None`) contain `term`.
    fn df_among(&self, term: u32, admitted: Option<&[bool]>) -> u32 {
        let entry = &self.terms[term as usize];
        match admitted {
            None => entry.df,
            Some(admitted) => doc_runs(entry.postings.entries())
                .filter(|run| admitted[run[0].doc() as usize])
                .count() as u32,
        }
    }

    /// The known terms within [`max_edits`] of `word` that some admitted document contains, as
    /// `(term, edits, df)`: the fewest edits first, then the most documents, then by text; at
    /// most [`QueryPlan::FUZZY_TERMS`]. Statistics are the admitted documents' only, so which
    /// terms stand in for a word never depends on a document the caller may not see.
    fn near_terms(&self, word: &str, admitted: Option<&[bool]>) -> Vec<(u32, u32, u32)> {
        let word: Vec<char> = word.chars().collect();
        let max = max_edits(word.len());
        if max == 0 {
            return Vec::new();
        }
        let mut chars = Vec::new();
        let mut near: Vec<(u32, u32, u32)> = Vec::new();
        for (term, entry) in self.terms.iter().enumerate() {
            if entry.df == 0 || entry.text.chars().count().abs_diff(word.len()) > max as usize {
                continue;
            }
            chars.clear();
            chars.extend(entry.text.chars());
            let Some(edits) = distance_within(&word, &chars, max) else {
                continue;
            };
            let df = self.df_among(term as u32, admitted);
            if df > 0 {
                near.push((term as u32, edits, df));
            }
        }
        near.sort_unstable_by(|a, b| {
            a.1.cmp(&b.1).then(b.2.cmp(&a.2)).then_with(|| {
                self.terms[a.0 as usize]
                    .text
                    .cmp(&self.terms[b.0 as usize].text)
            })
        });
        near.truncate(QueryPlan::FUZZY_TERMS);
        near
    }

    /// The ranking behind every search: `live` documents with field lengths summing to
    /// `field_totals`, only the ordinals `admitted` marks (all when `None`), each planned term
    /// weighted by its idf (computed over those documents) times its plan weight. The `k` best
    /// as `(ordinal, score)`, by score descending, then id ascending.
    fn rank(
        &self,
        plan: &QueryPlan,
        k: usize,
        live: u32,
        field_totals: &[u64; Field::COUNT],
        admitted: Option<&[bool]>,
    ) -> Vec<(u32, f32)> {
        if k == 0 || live == 0 {
            return Vec::new();
        }
        let admits = |doc: usize| admitted.is_none_or(|admitted| admitted[doc]);
        let scorer = FieldScorer::new(&self.params, live, field_totals);
        let mut scores = vec![0.0f32; self.docs.len()];
        let mut matched = vec![false; self.docs.len()];
        let mut candidates: Vec<u32> = Vec::new();
        for planned in &plan.terms {
            let entry = &self.terms[planned.term as usize];
            // `idf * 1.0` is `idf` exactly: an exact term scores as it always did.
            let weight = planned.idf * planned.weight;
            for run in doc_runs(entry.postings.entries()) {
                let doc = run[0].doc() as usize;
                if !admits(doc) {
                    continue;
                }
                if let Some(tf) = scorer.weighted_tf(run, &self.lens[doc]) {
                    scores[doc] += weight * scorer.saturate(tf);
                    if !matched[doc] {
                        matched[doc] = true;
                        candidates.push(doc as u32);
                    }
                }
            }
        }
        select_top(&mut candidates, k, |&a, &b| {
            rank_order(
                (scores[a as usize], self.doc_id(a)),
                (scores[b as usize], self.doc_id(b)),
            )
        });
        candidates
            .into_iter()
            .map(|ord| (ord, scores[ord as usize]))
            .collect()
    }

    /// The `k` best `(ordinal, score)` for `plan` over the documents of `visible` (all when
    /// `None`), which must be current.
    pub(crate) fn search_plan(
        &self,
        plan: &QueryPlan,
        k: usize,
        visible: Option<&Visible>,
    ) -> Vec<(u32, f32)> {
        match visible {
            None => self.rank(plan, k, self.live, &self.field_totals, None),
            Some(visible) => self.rank(
                plan,
                k,
                visible.live,
                &visible.field_totals,
                Some(&visible.admitted),
            ),
        }
    }

    /// The id of the document at `ord` (empty for a free slot).
    pub(crate) fn doc_id(&self, ord: u32) -> &str {
        self.docs[ord as usize]
            .as_ref()
            .map_or("", |d| d.id.as_str())
    }

    /// Ranked ordinals as [`ScoredDoc`]s.
    fn scored_docs(&self, ranked: Vec<(u32, f32)>) -> Vec<ScoredDoc> {
        ranked
            .into_iter()
            .map(|(ord, score)| ScoredDoc {
                id: self.doc_id(ord).to_owned(),
                score,
            })
            .collect()
    }

    /// Which words of `plan` the title or the aliases of the document at `ord` contain, and
    /// how many of the title's and of the aliases' terms they are.
    pub(crate) fn title_match(&self, plan: &QueryPlan, ord: u32) -> TitleMatch {
        let mut found = TitleMatch::default();
        for planned in &plan.terms {
            let postings = self.terms[planned.term as usize].postings.entries();
            let at = postings.partition_point(|p| p.doc() < ord);
            for p in postings[at..].iter().take_while(|p| p.doc() == ord) {
                let hits = match p.field_index() {
                    f if f == Field::Title.index() => &mut found.title_hits,
                    f if f == Field::Aliases.index() => &mut found.alias_hits,
                    _ => continue,
                };
                *hits += p.tf();
                found.words |= 1u64 << (planned.word % 64);
            }
        }
        found.title_len = self.lens[ord as usize][Field::Title.index()];
        found.alias_len = self.lens[ord as usize][Field::Aliases.index()];
        found
    }

    /// The term id of `text`, creating the term if needed.
    fn intern(&mut self, text: &str) -> u32 {
        if let Some(&id) = self.term_ids.get(text) {
            return id;
        }
        let id = match self.free_terms.pop() {
            Some(id) => {
                self.terms[id as usize].text = text.to_owned();
                id
            }
            None => {
                self.terms.push(TermEntry {
                    text: text.to_owned(),
                    ..TermEntry::default()
                });
                (self.terms.len() - 1) as u32
            }
        };
        self.term_ids.insert(text.to_owned(), id);
        id
    }

    /// A free ordinal, growing the tables if none is free.
    fn allocate_ordinal(&mut self) -> Result<u32, IndexError> {
        if let Some(ord) = self.free_docs.pop() {
            return Ok(ord);
        }
        if self.docs.len() >= MAX_DOCS as usize {
            return Err(IndexError::TooManyDocuments);
        }
        self.docs.push(None);
        self.lens.push([0; Field::COUNT]);
        Ok((self.docs.len() - 1) as u32)
    }

    /// Takes the document at `ord` out of the postings and statistics, leaving its
    /// ordinal allocated and its id mapping untouched.
    fn unlink(&mut self, ord: u32) {
        let Some(doc) = self.docs[ord as usize].take() else {
            return;
        };
        for term in doc.terms {
            let entry = &mut self.terms[term as usize];
            entry.postings.remove_doc(ord);
            entry.df -= 1;
            if entry.df == 0 {
                entry.postings.release();
                let text = core::mem::take(&mut entry.text);
                self.term_ids.remove(text.as_str());
                self.free_terms.push(term);
            }
        }
        let lens = core::mem::take(&mut self.lens[ord as usize]);
        for (total, len) in self.field_totals.iter_mut().zip(lens) {
            *total -= u64::from(len);
        }
        self.live -= 1;
        self.revision += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::field::FieldWeights;

    fn terms(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn body_only(params_k1: f32, b: f32) -> InvertedIndex {
        let w = FieldWeights {
            title: 0.0,
            aliases: 0.0,
            headings: 0.0,
            tags: 0.0,
            body: 1.0,
        };
        InvertedIndex::new(Bm25Params {
            k1: params_k1,
            b,
            weights: w,
        })
        .unwrap()
    }

    fn add(index: &mut InvertedIndex, id: &str, title: &str, body: &str) {
        let (t, b) = (terms(title), terms(body));
        index
            .upsert(id, &[(Field::Title, &t[..]), (Field::Body, &b[..])])
            .unwrap();
    }

    #[test]
    fn plain_bm25_by_hand() {
        let mut index = body_only(1.2, 0.75);
        add(&mut index, "a", "", "cat cat dog");
        add(&mut index, "b", "", "dog");
        let got = index.search_terms(&["cat"], 10);
        // N = 2, df = 1, avglen = 2, len = 3, tf = 2
        let idf = libm::log(1.0 + 1.5 / 1.5);
        let tf = 2.0 / (0.25 + 0.75 * 3.0 / 2.0);
        let want = idf * tf * 2.2 / (tf + 1.2);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].id, "a");
        assert!((f64::from(got[0].score) - want).abs() < 1e-6);
    }

    #[test]
    fn fields_combine_before_saturation() {
        let w = FieldWeights {
            title: 2.0,
            body: 1.0,
            ..FieldWeights::UNIFORM
        };
        let mut index = InvertedIndex::new(Bm25Params {
            k1: 1.0,
            b: 0.0,
            weights: w,
        })
        .unwrap();
        add(&mut index, "x", "rust", "rust and more rust");
        let got = index.search_terms(&["rust"], 1);
        // b = 0: tf~ = 2*1 + 1*2 = 4; s = 2 * 4 / 5; idf(N=1, df=1) = ln(1 + 0.5/1.5)
        let want = libm::log(1.0 + 0.5 / 1.5) * 8.0 / 5.0;
        assert!((f64::from(got[0].score) - want).abs() < 1e-6);
    }

    #[test]
    fn duplicate_query_terms_count_once() {
        let mut index = body_only(1.2, 0.75);
        add(&mut index, "a", "", "cat dog");
        add(&mut index, "b", "", "bird");
        let once = index.search_terms(&["cat", "dog"], 1);
        let repeated = index.search_terms(&["cat", "dog", "cat", "unknown", "cat"], 1);
        assert_eq!(repeated, once);
    }

    #[test]
    fn ties_break_by_id_and_k_limits() {
        let mut index = body_only(1.2, 0.75);
        for id in ["c", "a", "b", "d"] {
            add(&mut index, id, "", "same words");
        }
        let ids: Vec<String> = index
            .search_terms(&["same"], 3)
            .into_iter()
            .map(|d| d.id)
            .collect();
        assert_eq!(ids, ["a", "b", "c"]);
        assert!(index.search_terms(&["same"], 0).is_empty());
        assert_eq!(index.search_terms(&["same"], 100).len(), 4);
        assert!(index.search_terms::<&str>(&[], 10).is_empty());
        assert!(index.search_terms(&["absent"], 10).is_empty());
    }

    #[test]
    fn upsert_and_remove_keep_statistics_exact() {
        let mut fresh = body_only(1.2, 0.75);
        add(&mut fresh, "a", "t", "alpha beta");
        add(&mut fresh, "c", "", "gamma alpha alpha");

        let mut churned = body_only(1.2, 0.75);
        add(&mut churned, "b", "", "beta beta delta epsilon");
        add(&mut churned, "a", "old", "alpha");
        add(&mut churned, "c", "", "gamma alpha alpha");
        add(&mut churned, "a", "t", "alpha beta");
        assert!(churned.remove("b"));
        assert!(!churned.remove("b"));
        assert!(!churned.remove("never"));

        assert_eq!(churned.len(), 2);
        assert_eq!(churned.doc_freq("beta"), 1);
        assert_eq!(churned.doc_freq("delta"), 0);
        assert_eq!(churned.term_count(), fresh.term_count());
        for q in [&["alpha"][..], &["beta", "gamma"], &["alpha", "t"]] {
            assert_eq!(churned.search_terms(q, 10), fresh.search_terms(q, 10));
        }
    }

    #[test]
    fn removed_ordinals_and_terms_are_reused() {
        let mut index = body_only(1.2, 0.75);
        add(&mut index, "a", "", "one");
        index.remove("a");
        add(&mut index, "b", "", "two");
        assert_eq!(index.docs.len(), 1);
        assert_eq!(index.terms.len(), 1);
        assert_eq!(index.search_terms(&["two"], 5)[0].id, "b");
        assert!(index.search_terms(&["one"], 5).is_empty());
    }

    #[test]
    fn empty_documents_count_in_n() {
        let mut index = body_only(1.2, 0.75);
        add(&mut index, "empty", "", "");
        add(&mut index, "full", "", "word");
        assert_eq!(index.len(), 2);
        let got = index.search_terms(&["word"], 5);
        // N = 2 (the empty note counts), avglen = 0.5: tf~ = 1 / (0.25 + 0.75 * 1 / 0.5)
        let tf = 1.0 / 1.75;
        let want = libm::log(2.0) * 2.2 * tf / (tf + 1.2);
        assert_eq!(got.len(), 1);
        assert!((f64::from(got[0].score) - want).abs() < 1e-6);
    }

    #[test]
    fn huge_weights_saturate_instead_of_overflowing() {
        let w = FieldWeights {
            body: f32::MAX,
            ..FieldWeights::UNIFORM
        };
        let mut index = InvertedIndex::new(Bm25Params {
            k1: 1.2,
            b: 0.75,
            weights: w,
        })
        .unwrap();
        add(&mut index, "a", "", "x x x");
        add(&mut index, "b", "", "y");
        let got = index.search_terms(&["x"], 1);
        assert_eq!(got[0].score, idf(2, 1) * 2.2);
    }
}
