//! Ranking notes for a query: lexical (BM25F over chunks), semantic (cosine over chunk
//! vectors) or hybrid (the two rankings' scores z-normalised and combined convexly with
//! engine-core's `fuse_scores`). Each note is represented by its best chunk. Only notes `allowed` admits are
//! ranked, and each ranking is read deeper until the page is full or it ends, so hidden
//! notes never show and never shorten a page. Lexical scores are computed over the chunks of
//! `visible` (the caller's readable notes) with their statistics, so hidden notes change no
//! score, and no z-score of the hybrid fusion either.

use std::collections::HashMap;

use engine_core::rank::{self, Hit, Normalization, NoteRanking, ScoredList, Visible, fuse_scores};

use super::lexical::{ChunkHit, LexicalView};
use super::semantic::{SemanticError, SemanticIndex};

/// How deep each ranking is read before fusion (deeper when the page asks for more). The
/// z-scores are taken over these lists, so this is part of the tuned setting.
pub const FUSION_DEPTH: usize = 100;

/// How notes are ranked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retrieval {
    /// BM25F only.
    Lexical,
    /// Vectors only.
    Semantic,
    /// Both, their z-normalised scores combined.
    Hybrid,
}

/// An inner stage of a note ranking, as [`Retriever::notes_watched`] shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The BM25F ranking of notes.
    Lexical,
    /// The cosine ranking of notes.
    Semantic,
    /// The hybrid fusion of the two.
    Fusion,
}

/// Watches a ranking run: called with each stage's notes, best first, as the stage ends.
pub type Watch<'w> = dyn FnMut(Stage, &[NoteHit]) + 'w;

/// One ranked note.
#[derive(Debug, Clone, PartialEq)]
pub struct NoteHit {
    /// The chunk shown for it (its best lexical chunk when it has one).
    pub chunk_id: i64,
    /// The note's path.
    pub path: String,
    /// The rank score (higher is better): the BM25F score, the cosine, or the fused score
    /// (the weighted sum of the two z-scores).
    pub score: f64,
    /// Its best chunk's BM25F score, when the lexical ranking has it.
    pub lexical: Option<f32>,
    /// Its best chunk's cosine, when the semantic ranking has it.
    pub semantic: Option<f32>,
}

/// What a ranking reads.
pub struct Retriever<'a> {
    /// The vault's lexical view (it also places every chunk in its note).
    pub view: &'a LexicalView,
    /// The chunks the caller may read, whose statistics lexical scores use.
    pub visible: &'a Visible,
    /// The vectors, for semantic and hybrid rankings.
    pub semantic: Option<&'a SemanticIndex>,
    /// The vault.
    pub vault: &'a str,
    /// Which notes may be ranked.
    pub allowed: &'a dyn Fn(&str) -> bool,
    /// How chunk scores make a note's lexical score.
    pub ranking: NoteRanking,
    /// The lexical ranking's weight in hybrid fusion (the semantic one has the rest; the
    /// config's `search.lexicalWeight`, default
    /// [`LEXICAL_WEIGHT`](crate::config::LEXICAL_WEIGHT)).
    pub lexical_weight: f64,
}

impl Retriever<'_> {
    /// The first `wanted` notes for `query`, best first. Semantic and hybrid rankings need
    /// the `semantic` field; without it they rank lexically.
    pub fn notes(
        &self,
        how: Retrieval,
        query: &str,
        wanted: usize,
    ) -> Result<Vec<NoteHit>, SemanticError> {
        self.notes_watched(how, query, wanted, &mut |_, _| {})
    }

    /// [`Self::notes`], showing `watch` each stage's ranking as it ends (the same run: what
    /// `diagnose_retrieval` traces is what a search ranks).
    pub fn notes_watched(
        &self,
        how: Retrieval,
        query: &str,
        wanted: usize,
        watch: &mut Watch<'_>,
    ) -> Result<Vec<NoteHit>, SemanticError> {
        let semantic = match (how, self.semantic) {
            (Retrieval::Lexical, _) | (_, None) => {
                let by_words = self.rank_by_words(query, wanted);
                watch(Stage::Lexical, &by_words);
                return Ok(by_words);
            }
            (_, Some(semantic)) => semantic,
        };
        let vector = semantic.query_vector(query)?;
        if how == Retrieval::Semantic {
            let by_vector = self.rank_by_vector(semantic, &vector, wanted)?;
            watch(Stage::Semantic, &by_vector);
            return Ok(by_vector);
        }
        // Fuse deeper than the page, so a note ranked low by one list can still rise.
        let depth = wanted.max(FUSION_DEPTH);
        let by_words = self.rank_by_words(query, depth);
        watch(Stage::Lexical, &by_words);
        let by_vector = self.rank_by_vector(semantic, &vector, depth)?;
        watch(Stage::Semantic, &by_vector);
        let fused = fuse(by_words, by_vector, self.lexical_weight, wanted);
        watch(Stage::Fusion, &fused);
        Ok(fused)
    }

    /// The `k` best readable chunks for `query` by BM25F, best first.
    pub fn chunks(&self, query: &str, k: usize) -> Vec<ChunkHit> {
        self.view.search(self.visible, query, k)
    }

    /// The lexical ranking.
    fn rank_by_words(&self, query: &str, wanted: usize) -> Vec<NoteHit> {
        self.view
            .rank_notes(self.visible, query, wanted, &self.ranking, self.allowed)
            .into_iter()
            .map(|(chunk_id, path, score, chunk_score)| NoteHit {
                chunk_id,
                path,
                score: f64::from(score),
                lexical: Some(chunk_score),
                semantic: None,
            })
            .collect()
    }

    /// The semantic ranking.
    fn rank_by_vector(
        &self,
        semantic: &SemanticIndex,
        query: &[f32],
        wanted: usize,
    ) -> Result<Vec<NoteHit>, SemanticError> {
        let mut failure = None;
        let ranked = best_per_note(self.view, wanted, self.allowed, &mut |depth| match semantic
            .search(self.vault, query, depth, self.allowed)
        {
            Ok(hits) => hits,
            Err(error) => {
                failure.get_or_insert(error);
                Vec::new()
            }
        });
        if let Some(error) = failure {
            return Err(error);
        }
        Ok(ranked
            .into_iter()
            .map(|(chunk_id, path, score)| NoteHit {
                chunk_id,
                path,
                score: f64::from(score),
                lexical: None,
                semantic: Some(score),
            })
            .collect())
    }
}

/// The best chunk of each of the first `wanted` allowed notes of a chunk ranking
/// (`rank(depth)` gives its first `depth` chunks), as `(chunk_id, path, score)`: engine-core's
/// [`best_per_note`], the plugin's too, with the notes this view places the chunks in.
fn best_per_note(
    view: &LexicalView,
    wanted: usize,
    allowed: &dyn Fn(&str) -> bool,
    rank: &mut dyn FnMut(usize) -> Vec<(i64, f32)>,
) -> Vec<(i64, String, f32)> {
    let note_of = |chunk_id: &i64| view.place(*chunk_id).map(|place| place.path.clone());
    rank::best_per_note(wanted, &mut |path| allowed(path), &note_of, rank)
}

/// The two note rankings fused: each list's scores z-normalised (a note missing from a list
/// takes that list's lowest z-score) and summed with `lexical_weight` and `1 - lexical_weight`;
/// a note keeps its best lexical chunk when it has one.
fn fuse(
    by_words: Vec<NoteHit>,
    by_vector: Vec<NoteHit>,
    lexical_weight: f64,
    wanted: usize,
) -> Vec<NoteHit> {
    let scored = |weight: f64, hits: &[NoteHit]| ScoredList {
        weight,
        hits: hits
            .iter()
            .map(|hit| Hit {
                id: hit.path.clone(),
                score: hit.score,
            })
            .collect(),
    };
    let lists = [
        scored(lexical_weight, &by_words),
        scored(1.0 - lexical_weight, &by_vector),
    ];
    let Ok(fused) = fuse_scores(&lists, Normalization::ZScore) else {
        // Weights are constants and scores finite (BM25F and cosines); keep the lexical order.
        return by_words.into_iter().take(wanted).collect();
    };
    let mut notes: HashMap<String, NoteHit> = HashMap::new();
    for hit in by_vector {
        notes.insert(hit.path.clone(), hit);
    }
    for hit in by_words {
        let semantic = notes.get(&hit.path).and_then(|other| other.semantic);
        notes.insert(hit.path.clone(), NoteHit { semantic, ..hit });
    }
    fused
        .into_iter()
        .take(wanted)
        .filter_map(|fused| {
            let mut hit = notes.remove(&fused.id)?;
            hit.score = fused.score;
            Some(hit)
        })
        .collect()
}
