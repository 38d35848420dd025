//! From a chunk ranking to a note ranking, and only the notes a caller may see: the chunk
//! ranking is read deeper until the page is full or it ends, so hidden notes never show and
//! never shorten a page.
//!
//! - [`best_per_note`]: each note is its best chunk (any chunk ranking, vectors too).
//! - [`LexicalIndex::rank_notes`]: the BM25F note ranking of the server and the plugin alike,
//!   with what a vault knows beyond the words of a chunk (see [`NoteRanking`]).

use alloc::borrow::ToOwned;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use alloc::collections::BTreeSet;
use serde::{Deserialize, Serialize};

use super::chunk_key::chunk_key_path;
use super::lexical::LexicalIndex;
use super::topk::rank_order;
use super::visible::{StaleView, Visible};

/// The best chunk of each of the first `wanted` allowed notes of a chunk ranking, as
/// `(chunk, note path, score)`, best first. `rank(depth)` gives the first `depth` chunks
/// (best first), `note_of` the note of a chunk (`None` leaves the chunk out), `allowed`
/// whether a note may be ranked. The first read is `max(4 · wanted, 64)` deep, and each
/// next one four times deeper.
pub fn best_per_note<I>(
    wanted: usize,
    allowed: &mut dyn FnMut(&str) -> bool,
    note_of: &dyn Fn(&I) -> Option<String>,
    rank: &mut dyn FnMut(usize) -> Vec<(I, f32)>,
) -> Vec<(I, String, f32)> {
    let mut depth = wanted.saturating_mul(4).max(64);
    loop {
        let hits = rank(depth);
        let exhausted = hits.len() < depth;
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for (chunk, score) in hits {
            let Some(path) = note_of(&chunk) else {
                continue;
            };
            if seen.contains(&path) {
                continue;
            }
            seen.insert(path.clone());
            if !allowed(&path) {
                continue;
            }
            out.push((chunk, path, score));
            if out.len() == wanted {
                return out;
            }
        }
        if exhausted {
            return out;
        }
        depth = depth.saturating_mul(4);
    }
}

/// How [`LexicalIndex::rank_notes`] turns chunk scores into a note's score. For a note whose
/// chunks score `s1 >= s2 >= s3 ...` (BM25F) and whose title match is `t` in `[0, 1]` (the
/// query's idf share found in the title or aliases times the share of the title those words
/// make up), the note scores `(s1 + aggregation · (s2 + s3)) · (1 + title_boost · t)`, in
/// `f32` in that order.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NoteRanking {
    /// How much a note's second and third best chunks add (`0`: the best chunk alone).
    pub aggregation: f32,
    /// How much a title or alias that names the query multiplies the score by (`0`: off).
    pub title_boost: f32,
    /// Whether a query word the vault does not know searches the known terms one or two
    /// edits away (typo tolerance; at a lower weight than an exact word).
    pub fuzzy: bool,
}

impl Default for NoteRanking {
    /// The setting chosen on the tuning set (bench/tuning, 122 queries, lexical nDCG@5):
    /// typo tolerance 0.7152 -> 0.7214, then a title boost of 1 -> 0.7450 (0.5: 0.7397, 2:
    /// 0.7343, 4: 0.7284); adding the second and third chunks lowered it at every weight tried
    /// (0.1: 0.7370, 0.25: 0.7106, 0.5: 0.6755). SciFact train is unchanged by the boost
    /// (0.7061) and up by typo tolerance (0.7049 -> 0.7061).
    fn default() -> Self {
        NoteRanking {
            aggregation: 0.0,
            title_boost: 1.0,
            fuzzy: true,
        }
    }
}

/// One note of [`LexicalIndex::rank_notes`].
#[derive(Debug, Clone, PartialEq)]
pub struct NoteHit {
    /// Its best chunk's id.
    pub chunk: String,
    /// The note's path.
    pub path: String,
    /// The note's score (see [`NoteRanking`]).
    pub score: f32,
    /// Its best chunk's BM25F score.
    pub chunk_score: f32,
}

/// A note found in the chunk ranking: its chunks' ordinals and scores, best first, and whether
/// it may be ranked.
type Candidate = (Vec<(u32, f32)>, bool);

/// How many notes past the page a note ranking weighs, so that a note whose best chunk ranks
/// a little lower can still rise by its title or its other chunks.
const NOTE_POOL: usize = 32;

impl LexicalIndex {
    /// The first `wanted` notes for `query` among the chunks of `visible` (all when `None`)
    /// whose notes `allowed` admits, best first (score descending, then path): chunks ranked
    /// by BM25F with `ranking`'s typo tolerance, grouped by note and scored as
    /// [`NoteRanking`] says. Chunk ids must be [`chunk_key`](super::chunk_key)s (others are
    /// left out). [`StaleView`] when the index changed since `visible` was built.
    pub fn rank_notes(
        &self,
        visible: Option<&Visible>,
        query: &str,
        wanted: usize,
        ranking: &NoteRanking,
        allowed: &mut dyn FnMut(&str) -> bool,
    ) -> Result<Vec<NoteHit>, StaleView> {
        let index = self.index();
        if let Some(visible) = visible
            && !visible.is_current(index)
        {
            return Err(StaleView);
        }
        if wanted == 0 {
            return Ok(Vec::new());
        }
        let terms = self.analyzer().terms(query);
        let plan = index.plan(&terms, ranking.fuzzy, visible);
        let pool = wanted.saturating_add(NOTE_POOL);
        let mut depth = pool.saturating_mul(4).max(64);
        let mut notes: BTreeMap<&str, Candidate>;
        loop {
            let hits = index.search_plan(&plan, depth, visible);
            let exhausted = hits.len() < depth;
            notes = BTreeMap::new();
            let mut admitted = 0;
            for (ord, score) in hits {
                let Some(path) = chunk_key_path(index.doc_id(ord)) else {
                    continue;
                };
                let note = notes.entry(path).or_insert_with(|| {
                    let ok = allowed(path);
                    admitted += usize::from(ok);
                    (Vec::new(), ok)
                });
                note.0.push((ord, score));
            }
            if exhausted || admitted >= pool {
                break;
            }
            depth = depth.saturating_mul(4);
        }
        let mut ranked: Vec<NoteHit> = notes
            .into_iter()
            .filter(|(_, (_, ok))| *ok)
            .map(|(path, (chunks, _))| {
                let (best, best_score) = chunks[0];
                let rest = chunks.get(1).map_or(0.0, |c| c.1) + chunks.get(2).map_or(0.0, |c| c.1);
                let mut score = best_score + ranking.aggregation * rest;
                if ranking.title_boost > 0.0 {
                    let title = index.title_match(&plan, best).score(&plan);
                    score *= 1.0 + ranking.title_boost * title;
                }
                NoteHit {
                    chunk: index.doc_id(best).to_owned(),
                    path: path.to_owned(),
                    score,
                    chunk_score: best_score,
                }
            })
            .collect();
        ranked.sort_unstable_by(|a, b| rank_order((a.score, &a.path), (b.score, &b.path)));
        ranked.truncate(wanted);
        Ok(ranked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::borrow::ToOwned;
    use alloc::vec;

    fn ranking() -> Vec<(u32, f32)> {
        // chunk id / 10 is the note
        (0..200u32).map(|i| (i, 1000.0 - i as f32)).collect()
    }

    #[test]
    fn one_chunk_per_note_and_hidden_notes_skipped() {
        let all = ranking();
        let mut reads = vec![];
        let got = best_per_note(
            3,
            &mut |path: &str| path != "n1",
            &|chunk: &u32| Some(alloc::format!("n{}", chunk / 10)),
            &mut |depth| {
                reads.push(depth);
                all.iter().copied().take(depth).collect()
            },
        );
        let paths: Vec<_> = got.iter().map(|(_, p, _)| p.to_owned()).collect();
        assert_eq!(paths, ["n0", "n2", "n3"]);
        assert_eq!(got[1].0, 20);
        assert_eq!(reads, [64]);
    }

    #[test]
    fn reads_deeper_until_full_or_exhausted() {
        let all = ranking();
        let mut reads = vec![];
        let got = best_per_note(
            10,
            &mut |_: &str| true,
            &|chunk: &u32| Some(alloc::format!("n{}", chunk / 10)),
            &mut |depth| {
                reads.push(depth);
                all.iter().copied().take(depth).collect()
            },
        );
        assert_eq!(got.len(), 10);
        assert_eq!(reads, [64, 256]);
    }
}
