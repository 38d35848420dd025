//! The text-level index: an [`Analyzer`] and an [`InvertedIndex`] that always travel
//! together, so documents and queries are analyzed alike and a persisted index is never
//! read with a different analyzer than the one that built it.

use alloc::borrow::ToOwned;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::codec::{AnalyzerStamp, DecodeError};
use super::field::Field;
use super::index::{IndexError, InvertedIndex};
use super::params::{Bm25Params, ParamsError};
use super::topk::ScoredDoc;
use super::visible::{StaleView, Visible};
use crate::text::{Analyzer, AnalyzerSettings};

/// A note as the lexical index sees it: the text of each field.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Document {
    /// The title.
    pub title: String,
    /// Aliases (each analyzed separately, terms concatenated).
    pub aliases: Vec<String>,
    /// Heading texts.
    pub headings: Vec<String>,
    /// Tags (e.g. `project/alpha`).
    pub tags: Vec<String>,
    /// The body text.
    pub body: String,
}

/// A [`Document`] turned into the terms of each field: the costly half of an upsert, which
/// needs only the analyzer and so can run on another thread than the one that owns the
/// index. It remembers which analyzer made it, so it is never indexed by another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalyzedDocument {
    fingerprint: String,
    /// Every term, back to back.
    text: String,
    /// Where each term of `text` ends.
    ends: Vec<u32>,
    /// How many terms the title, aliases, headings, tags and body (in that order) end at.
    field_ends: [usize; Field::COUNT],
}

impl AnalyzedDocument {
    /// Analyzes `doc` with `analyzer`.
    pub fn new(analyzer: &Analyzer, doc: &Document) -> Self {
        Self::from_fields(
            analyzer,
            &doc.title,
            &doc.aliases,
            &doc.headings,
            &doc.tags,
            &doc.body,
        )
    }

    /// Analyzes a document given by borrowed fields (see [`Document`] for each), so a
    /// caller that keeps its text need not copy it into a [`Document`] first.
    pub fn from_fields(
        analyzer: &Analyzer,
        title: &str,
        aliases: &[String],
        headings: &[String],
        tags: &[String],
        body: &str,
    ) -> Self {
        let mut doc = AnalyzedDocument {
            fingerprint: analyzer.fingerprint().to_owned(),
            text: String::with_capacity(body.len()),
            ends: Vec::with_capacity(body.len() / 6),
            field_ends: [0; Field::COUNT],
        };
        doc.add(analyzer, Field::Title, [title]);
        doc.add(analyzer, Field::Aliases, aliases.iter().map(String::as_str));
        doc.add(
            analyzer,
            Field::Headings,
            headings.iter().map(String::as_str),
        );
        doc.add(analyzer, Field::Tags, tags.iter().map(String::as_str));
        doc.add(analyzer, Field::Body, [body]);
        doc
    }

    /// Appends the terms of `texts` as the next field, `field`.
    fn add<'t>(
        &mut self,
        analyzer: &Analyzer,
        field: Field,
        texts: impl IntoIterator<Item = &'t str>,
    ) {
        for text in texts {
            analyzer.each_term(text, |term| {
                self.text.push_str(term);
                // Saturates past 4 GiB of terms, a document the index refuses anyway
                // (far more than `MAX_TF` terms in a field).
                self.ends
                    .push(u32::try_from(self.text.len()).unwrap_or(u32::MAX));
            });
        }
        self.field_ends[field.index()] = self.ends.len();
    }

    /// Every term, fields in the order of [`Field::ALL`].
    fn terms(&self) -> Vec<&str> {
        let mut start = 0;
        self.ends
            .iter()
            .map(|&end| {
                let term = self.text.get(start..end as usize).unwrap_or_default();
                start = end as usize;
                term
            })
            .collect()
    }
}

/// Why serialized bytes could not be read back as a [`LexicalIndex`].
#[derive(Debug, Clone, PartialEq)]
pub enum LexicalDecodeError {
    /// The index bytes themselves are invalid.
    Index(DecodeError),
    /// The stored analyzer settings cannot be read by this build.
    Settings(String),
    /// This build's analyzer for the stored settings has a different fingerprint than the
    /// one that built the index (the analyzer changed): the index must be rebuilt.
    AnalyzerMismatch {
        /// Fingerprint stored in the bytes.
        stored: String,
        /// Fingerprint of this build's analyzer.
        current: String,
    },
}

impl fmt::Display for LexicalDecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LexicalDecodeError::Index(e) => e.fmt(f),
            LexicalDecodeError::Settings(why) => {
                write!(f, "stored analyzer settings unreadable: {why}")
            }
            LexicalDecodeError::AnalyzerMismatch { stored, current } => write!(
                f,
                "index built by analyzer {stored}, this build's analyzer is {current}: rebuild the index"
            ),
        }
    }
}

impl From<DecodeError> for LexicalDecodeError {
    fn from(e: DecodeError) -> Self {
        LexicalDecodeError::Index(e)
    }
}

/// A BM25F index over [`Document`]s, searched with free text.
#[derive(Debug, Clone)]
pub struct LexicalIndex {
    analyzer: Analyzer,
    index: InvertedIndex,
}

impl LexicalIndex {
    /// An empty index with the given analyzer settings and scoring parameters.
    pub fn new(settings: AnalyzerSettings, params: Bm25Params) -> Result<Self, ParamsError> {
        Ok(LexicalIndex {
            analyzer: Analyzer::new(settings),
            index: InvertedIndex::new(params)?,
        })
    }

    /// The analyzer.
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// The underlying term-level index.
    pub fn index(&self) -> &InvertedIndex {
        &self.index
    }

    /// Replaces the scoring parameters (no re-indexing needed).
    pub fn set_params(&mut self, params: Bm25Params) -> Result<(), ParamsError> {
        self.index.set_params(params)
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether the index holds no document.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Whether a document with this id is indexed.
    pub fn contains(&self, id: &str) -> bool {
        self.index.contains(id)
    }

    /// Analyzes and inserts the document `id`, replacing any previous version.
    pub fn upsert(&mut self, id: &str, doc: &Document) -> Result<(), IndexError> {
        let analyzed = AnalyzedDocument::new(&self.analyzer, doc);
        self.upsert_analyzed(id, &analyzed)
    }

    /// Inserts the document `id`, already analyzed (by a clone of [`Self::analyzer`], on any
    /// thread), replacing any previous version. A document analyzed by another analyzer is
    /// refused with [`IndexError::AnalyzerMismatch`] and changes nothing.
    pub fn upsert_analyzed(&mut self, id: &str, doc: &AnalyzedDocument) -> Result<(), IndexError> {
        if doc.fingerprint != self.analyzer.fingerprint() {
            return Err(IndexError::AnalyzerMismatch);
        }
        let terms = doc.terms();
        let mut start = 0;
        let fields = Field::ALL.map(|field| {
            let end = doc.field_ends[field.index()];
            let terms = &terms[start..end];
            start = end;
            (field, terms)
        });
        self.index.upsert(id, &fields)
    }

    /// Removes the document `id`; returns whether it was indexed.
    pub fn remove(&mut self, id: &str) -> bool {
        self.index.remove(id)
    }

    /// The `k` best documents for a free-text query (analyzed like the documents).
    pub fn search(&self, query: &str, k: usize) -> Vec<ScoredDoc> {
        self.index.search_terms(&self.analyzer.terms(query), k)
    }

    /// The view of the documents whose ids `admits` accepts (see [`InvertedIndex::visible`]).
    pub fn visible(&self, admits: &mut dyn FnMut(&str) -> bool) -> Visible {
        self.index.visible(admits)
    }

    /// Whether `visible` was built from this index as it is now (a view of an index that
    /// changed since must be built again).
    pub fn is_current(&self, visible: &Visible) -> bool {
        visible.is_current(&self.index)
    }

    /// The view of the chunks (documents whose ids are [`chunk_key`](super::chunk_key)s) of
    /// the notes `readable` admits, asked once per note path; an id that is not a chunk key
    /// is left out. What the server and the plugin search through for a caller.
    pub fn visible_notes(&self, readable: &mut dyn FnMut(&str) -> bool) -> Visible {
        let mut decided: super::FixedMap<String, bool> = super::FixedMap::default();
        self.index.visible(&mut |id| {
            let Some(path) = super::chunk_key_path(id) else {
                return false;
            };
            if let Some(&known) = decided.get(path) {
                return known;
            }
            let admitted = readable(path);
            decided.insert(path.to_owned(), admitted);
            admitted
        })
    }

    /// [`Self::search`] over the documents of `visible` only, scored with their statistics
    /// (see [`InvertedIndex::search_terms_visible`]).
    pub fn search_visible(
        &self,
        visible: &Visible,
        query: &str,
        k: usize,
    ) -> Result<Vec<ScoredDoc>, StaleView> {
        self.index
            .search_terms_visible(visible, &self.analyzer.terms(query), k)
    }

    /// The analyzer stamp written with the index: fingerprint and settings as JSON.
    fn stamp(&self) -> AnalyzerStamp {
        AnalyzerStamp {
            fingerprint: self.analyzer.fingerprint().to_owned(),
            settings: serde_json::to_string(self.analyzer.settings()).unwrap_or_default(),
        }
    }

    /// The canonical bytes of the index (see [`InvertedIndex::to_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.index.to_bytes(&self.stamp())
    }

    /// Reads bytes written by [`LexicalIndex::to_bytes`], rebuilding the analyzer from the
    /// stored settings and checking that it still has the stored fingerprint.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, LexicalDecodeError> {
        let (index, stamp) = InvertedIndex::from_bytes(bytes)?;
        let settings: AnalyzerSettings = serde_json::from_str(&stamp.settings)
            .map_err(|e| LexicalDecodeError::Settings(e.to_string()))?;
        let analyzer = Analyzer::new(settings);
        let current = analyzer.fingerprint().to_owned();
        if current != stamp.fingerprint {
            return Err(LexicalDecodeError::AnalyzerMismatch {
                stored: stamp.fingerprint,
                current,
            });
        }
        Ok(LexicalIndex { analyzer, index })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{Stemmer, StopWords};
    use alloc::borrow::ToOwned;
    use alloc::vec;

    fn note(title: &str, body: &str) -> Document {
        Document {
            title: title.to_owned(),
            body: body.to_owned(),
            ..Document::default()
        }
    }

    fn index() -> LexicalIndex {
        let mut index =
            LexicalIndex::new(AnalyzerSettings::default(), Bm25Params::default()).unwrap();
        index
            .upsert("a.md", &note("Running notes", "I went running today"))
            .unwrap();
        index
            .upsert("b.md", &note("Bread", "flour and water"))
            .unwrap();
        let tagged = Document {
            tags: vec!["project/run".to_owned()],
            ..Document::default()
        };
        index.upsert("c.md", &tagged).unwrap();
        index
    }

    #[test]
    fn documents_and_queries_are_analyzed_alike() {
        let index = index();
        let ids: Vec<String> = index.search("RUNS", 10).into_iter().map(|d| d.id).collect();
        assert_eq!(ids, ["a.md", "c.md"]);
        assert!(index.search("", 10).is_empty());
        assert_eq!(index.len(), 3);
    }

    #[test]
    fn analysis_done_apart_indexes_the_same() {
        let doc = Document {
            title: "Running notes".to_owned(),
            aliases: vec!["Jogging".to_owned()],
            headings: vec!["Monday".to_owned(), "Morning runs".to_owned()],
            tags: vec!["sport/run".to_owned()],
            body: "I went running today".to_owned(),
        };
        let mut whole = index();
        whole.upsert("d.md", &doc).unwrap();
        let mut apart = index();
        let analyzed = AnalyzedDocument::new(&apart.analyzer().clone(), &doc);
        apart.upsert_analyzed("d.md", &analyzed).unwrap();
        assert_eq!(apart.to_bytes(), whole.to_bytes());
        assert_eq!(apart.search("jog", 5), whole.search("jog", 5));
    }

    #[test]
    fn a_view_scores_as_an_index_of_its_documents_alone() {
        let public = |id: &str| !id.starts_with("hidden/");
        let mut only_public = index();
        let mut everything = index();
        for i in 0..60 {
            let hidden = note("Merger plans", &alloc::format!("the merger, draft {i}"));
            everything
                .upsert(&alloc::format!("hidden/{i}.md"), &hidden)
                .unwrap();
        }
        for index in [&mut only_public, &mut everything] {
            index
                .upsert(
                    "merger.md",
                    &note("Merger", "a merger of two running clubs"),
                )
                .unwrap();
        }
        let view = everything.visible(&mut |id| public(id));
        assert_eq!(view.len(), only_public.len());
        for query in ["merger", "running merger", "clubs", "draft"] {
            let want = only_public.search(query, 10);
            let got = everything.search_visible(&view, query, 10).unwrap();
            assert_eq!(got, want, "{query}");
            for (a, b) in got.iter().zip(&want) {
                assert_eq!(a.score.to_bits(), b.score.to_bits());
            }
        }
        // The whole index scores the public note lower: the leak the view closes.
        let leaky = everything.search("merger", 100);
        let leaky = leaky.iter().find(|hit| hit.id == "merger.md").unwrap();
        assert!(leaky.score < only_public.search("merger", 1)[0].score);
        everything.remove("hidden/0.md");
        assert_eq!(
            everything.search_visible(&view, "merger", 10),
            Err(StaleView)
        );
    }

    #[test]
    fn a_document_analyzed_by_another_analyzer_is_refused() {
        let mut index = index();
        let before = index.to_bytes();
        let other = Analyzer::new(AnalyzerSettings {
            stemmer: Stemmer::None,
            ..AnalyzerSettings::default()
        });
        let analyzed = AnalyzedDocument::new(&other, &note("Running", "runs"));
        assert_eq!(
            index.upsert_analyzed("a.md", &analyzed),
            Err(IndexError::AnalyzerMismatch)
        );
        assert_eq!(index.to_bytes(), before);
    }

    #[test]
    fn bytes_round_trip_with_the_analyzer() {
        let settings = AnalyzerSettings {
            stemmer: Stemmer::None,
            stopwords: StopWords::English,
            ..AnalyzerSettings::default()
        };
        let mut index = LexicalIndex::new(settings.clone(), Bm25Params::default()).unwrap();
        index.upsert("x", &note("The running man", "runs")).unwrap();
        let bytes = index.to_bytes();
        let back = LexicalIndex::from_bytes(&bytes).unwrap();
        assert_eq!(back.analyzer().settings(), &settings);
        assert_eq!(back.search("running", 5), index.search("running", 5));
        assert_eq!(back.to_bytes(), bytes);
    }

    #[test]
    fn a_foreign_analyzer_is_refused() {
        let index = index();
        let settings = serde_json::to_string(index.analyzer().settings()).unwrap();
        let stamp = AnalyzerStamp {
            fingerprint: "0".repeat(32),
            settings,
        };
        let bytes = index.index().to_bytes(&stamp);
        assert!(matches!(
            LexicalIndex::from_bytes(&bytes),
            Err(LexicalDecodeError::AnalyzerMismatch { .. })
        ));
        let bytes = index.index().to_bytes(&AnalyzerStamp::default());
        assert!(matches!(
            LexicalIndex::from_bytes(&bytes),
            Err(LexicalDecodeError::Settings(_))
        ));
        assert!(matches!(
            LexicalIndex::from_bytes(b"nope"),
            Err(LexicalDecodeError::Index(DecodeError::NotAnIndex))
        ));
    }
}
