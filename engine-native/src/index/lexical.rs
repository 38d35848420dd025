//! A vault's lexical index: engine-core's BM25F over its chunks (title and aliases of the
//! note, the chunk's heading breadcrumb, the note's tags, the chunk's text), the same index
//! and scoring the plugin runs in WASM, plus what a hit needs to be shown (note path, heading,
//! position). It can be saved as bytes and read back, so a reopened vault is searchable at
//! once. Inside the engine-core index a chunk's id is its [`chunk_key`] (note path and
//! ordinal), not its row id, so chunks with equal scores rank in the same order here as in
//! the plugin, whose chunks have no row ids.
//!
//! A caller who may read only some notes searches through its [`Visible`] view of the index
//! (see engine-core's `rank` module: the BM25F statistics of the chunks it may read), so hidden
//! notes change no score it sees. The views are kept per ACL view key (the vault's ACL and the
//! caller's scopes), at most [`KEPT_VIEWS`] of them, and dropped whenever the index changes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use engine_core::rank::{
    AnalyzedDocument, Bm25Params, LexicalIndex, NoteRanking, Visible, chunk_key,
};
use engine_core::text::{Analyzer, AnalyzerSettings};

use crate::store::{ChunkRow, NoteFields};

/// Where a chunk is: its note and its place in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkPlace {
    /// The note's path.
    pub path: String,
    /// Position in the note, from 0.
    pub ordinal: u32,
    /// The heading breadcrumb, outermost first.
    pub headings: Vec<String>,
}

/// One chunk hit.
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkHit {
    /// The chunk's row id.
    pub chunk_id: i64,
    /// Its BM25F score.
    pub score: f32,
}

/// How many ACL views' [`Visible`] views a [`LexicalView`] keeps (the oldest goes first).
pub const KEPT_VIEWS: usize = 16;

/// The lexical index of one vault.
#[derive(Debug)]
pub struct LexicalView {
    index: LexicalIndex,
    places: HashMap<i64, ChunkPlace>,
    /// The row id of each indexed chunk, by its [`chunk_key`].
    ids: HashMap<String, i64>,
    /// The visible views built since the index last changed, by ACL view key, oldest first.
    views: Mutex<Vec<(String, Arc<Visible>)>>,
}

impl LexicalView {
    /// An empty index with the engine's analyzer and BM25 parameters.
    pub fn empty() -> LexicalView {
        LexicalView {
            index: new_index(),
            places: HashMap::new(),
            ids: HashMap::new(),
            views: Mutex::new(Vec::new()),
        }
    }

    /// Builds the index of `chunks`, with the note-level `fields` of their notes.
    pub fn build(chunks: Vec<ChunkRow>, fields: &HashMap<String, NoteFields>) -> LexicalView {
        let mut view = LexicalView::empty();
        for chunk in chunks {
            let note = fields.get(&chunk.path).cloned().unwrap_or_default();
            view.insert(chunk, &note);
        }
        view
    }

    /// Reads a saved index back; `chunks` give the places (the bytes hold only the index).
    /// The chunks are handed back when the bytes are not a valid index of exactly these
    /// chunks (so the caller builds the view from them without having copied them: a copy
    /// of pf2e-srd's chunk texts was part of the serving peak, issue 35).
    pub fn restore(bytes: &[u8], chunks: Vec<ChunkRow>) -> Result<LexicalView, Vec<ChunkRow>> {
        let Ok(index) = LexicalIndex::from_bytes(bytes) else {
            return Err(chunks);
        };
        let keys: Vec<String> = chunks
            .iter()
            .map(|chunk| chunk_key(&chunk.path, chunk.ordinal))
            .collect();
        if index.len() != chunks.len() || !keys.iter().all(|key| index.contains(key)) {
            return Err(chunks);
        }
        let mut places = HashMap::with_capacity(chunks.len());
        let mut ids = HashMap::with_capacity(chunks.len());
        for (chunk, key) in chunks.into_iter().zip(keys) {
            ids.insert(key, chunk.chunk_id);
            places.insert(chunk.chunk_id, place(chunk));
        }
        Ok(LexicalView {
            index,
            places,
            ids,
            views: Mutex::new(Vec::new()),
        })
    }

    /// The bytes to save.
    pub fn snapshot(&self) -> Vec<u8> {
        self.index.to_bytes()
    }

    /// A copy of the analyzer, for analyzing chunks on another thread.
    pub fn analyzer(&self) -> Analyzer {
        self.index.analyzer().clone()
    }

    /// Adds or replaces one chunk.
    pub fn insert(&mut self, chunk: ChunkRow, note: &NoteFields) {
        let analyzed = AnalyzedDocument::from_fields(
            self.index.analyzer(),
            &note.title,
            &note.aliases,
            &chunk.headings,
            &note.tags,
            &chunk.text,
        );
        self.insert_analyzed(chunk.chunk_id, place(chunk), &analyzed);
    }

    /// Adds or replaces chunk `id`, at `place`, analyzed with this view's
    /// [`analyzer`](Self::analyzer): the title, aliases and tags of its note, its heading
    /// breadcrumb and its text.
    pub fn insert_analyzed(&mut self, id: i64, place: ChunkPlace, analyzed: &AnalyzedDocument) {
        // Only an analyzer failure on a document fails an upsert; such a chunk is left out of
        // the index (the note is still listed and readable).
        let key = chunk_key(&place.path, place.ordinal);
        self.forget_views();
        if self.index.upsert_analyzed(&key, analyzed).is_ok() {
            self.places.insert(id, place);
            self.ids.insert(key, id);
        }
    }

    /// Removes chunks (a changed or deleted note's old ones).
    pub fn remove(&mut self, chunk_ids: &[i64]) {
        self.forget_views();
        for id in chunk_ids {
            if let Some(place) = self.places.remove(id) {
                let key = chunk_key(&place.path, place.ordinal);
                self.index.remove(&key);
                self.ids.remove(&key);
            }
        }
    }

    /// The view of the chunks whose notes `readable` admits (asked once per note), kept under
    /// `key` until the index changes: `key` must name everything `readable` depends on (the
    /// vault's ACL and the caller's scopes).
    pub fn visible(&self, key: &str, readable: &dyn Fn(&str) -> bool) -> Arc<Visible> {
        let mut views = self.views.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, view)) = views.iter().find(|(kept, _)| kept == key) {
            return Arc::clone(view);
        }
        let view = Arc::new(self.index.visible_notes(&mut |path| readable(path)));
        if views.len() == KEPT_VIEWS {
            views.remove(0);
        }
        views.push((key.to_owned(), Arc::clone(&view)));
        view
    }

    /// The `k` best chunks for `query` among those of `visible` (built by [`Self::visible`]
    /// under the same lock, so it is current), scored with their statistics, best first.
    pub fn search(&self, visible: &Visible, query: &str, k: usize) -> Vec<ChunkHit> {
        // A stale view cannot reach here (the lock that keeps the index unchanged is held
        // from building the view to this search); it would rank nothing rather than leak.
        let hits = self
            .index
            .search_visible(visible, query, k)
            .unwrap_or_default();
        hits.into_iter()
            .filter_map(|hit| {
                Some(ChunkHit {
                    chunk_id: *self.ids.get(&hit.id)?,
                    score: hit.score,
                })
            })
            .collect()
    }

    /// The first `wanted` notes for `query` among the chunks of `visible` whose notes `allowed`
    /// admits, ranked by engine-core's [`LexicalIndex::rank_notes`] (the plugin's ranking), as
    /// `(best chunk id, path, note score, best chunk score)`.
    pub fn rank_notes(
        &self,
        visible: &Visible,
        query: &str,
        wanted: usize,
        ranking: &NoteRanking,
        allowed: &dyn Fn(&str) -> bool,
    ) -> Vec<(i64, String, f32, f32)> {
        // A stale view cannot reach here (see `search`); it would rank nothing.
        let notes = self
            .index
            .rank_notes(Some(visible), query, wanted, ranking, &mut |path| {
                allowed(path)
            })
            .unwrap_or_default();
        notes
            .into_iter()
            .filter_map(|note| {
                let id = *self.ids.get(&note.chunk)?;
                Some((id, note.path, note.score, note.chunk_score))
            })
            .collect()
    }

    /// Drops the kept visible views (the index is about to change).
    fn forget_views(&mut self) {
        self.views
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// Where chunk `id` is.
    pub fn place(&self, id: i64) -> Option<&ChunkPlace> {
        self.places.get(&id)
    }

    /// The row id of the chunk indexed at `ordinal` in the note at `path`.
    pub fn chunk_at(&self, path: &str, ordinal: u32) -> Option<i64> {
        self.ids.get(&chunk_key(path, ordinal)).copied()
    }

    /// The paths of the notes with an indexed chunk, sorted, each once.
    pub fn note_paths(&self) -> Vec<&str> {
        let mut paths: Vec<&str> = self
            .places
            .values()
            .map(|place| place.path.as_str())
            .collect();
        paths.sort_unstable();
        paths.dedup();
        paths
    }

    /// How many chunks of the note at `path` are indexed.
    pub fn chunks_of(&self, path: &str) -> usize {
        self.places
            .values()
            .filter(|place| place.path == path)
            .count()
    }

    /// How many chunks are indexed.
    pub fn len(&self) -> usize {
        self.places.len()
    }

    /// Whether no chunk is indexed.
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }
}

/// An empty engine-core index with the default (SciFact-tuned) analyzer and parameters.
fn new_index() -> LexicalIndex {
    match LexicalIndex::new(AnalyzerSettings::default(), Bm25Params::default()) {
        Ok(index) => index,
        // The defaults are valid by construction (engine-core tests them).
        Err(error) => unreachable!("engine-core's default BM25 parameters are invalid: {error:?}"),
    }
}

fn place(chunk: ChunkRow) -> ChunkPlace {
    ChunkPlace {
        path: chunk.path,
        ordinal: chunk.ordinal,
        headings: chunk.headings,
    }
}
