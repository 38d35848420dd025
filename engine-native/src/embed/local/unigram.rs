//! [`CompactUnigram`]: the Unigram model of a SentencePiece tokenizer (XLM-R's 250,002
//! pieces for multilingual-e5-small, the default model) in a few megabytes.
//!
//! The `tokenizers` crate's own Unigram keeps its pieces in a trie with a hash map in every
//! node: about 280 MB resident for e5's vocabulary, more than ONNX Runtime's session and
//! two thirds of the 400 MB the server may use while it embeds. This one keeps the pieces in
//! one double-array automaton (`daachorse`, which `tokenizers` itself uses for added tokens)
//! and runs the same Viterbi search as `tokenizers`' optimized encoder: pieces starting at
//! each character, shortest first, a strictly better score replacing a node's best; a
//! character no piece covers is `unk` scored `min score - 10`; runs of `unk` fused into one.
//! It is written here because no crate offers that search over a compact automaton; the
//! rest of the pipeline (normalizer, pre-tokenizer, added tokens, post-processor) stays the
//! `tokenizers` crate's ([`super::tokenizer`]). A vocabulary with byte fallback keeps the
//! crate's own model.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use daachorse::CharwiseDoubleArrayAhoCorasick;
use tokenizers::Token;

/// The score below the lowest piece's that an uncovered character gets (sentencepiece's
/// `kUnkPenalty`, as in `tokenizers`).
const UNK_PENALTY: f64 = 10.0;

/// A Unigram model without byte fallback: its pieces, their scores and an automaton over them.
pub struct CompactUnigram {
    /// Every piece, one after another; piece `i` is `text[ends[i - 1]..ends[i]]`.
    text: String,
    ends: Vec<u32>,
    scores: Vec<f64>,
    /// Each distinct piece with the id `tokenizers` gives it (the last of equal pieces).
    pieces: CharwiseDoubleArrayAhoCorasick<u32>,
    unk_id: Option<u32>,
    min_score: f64,
}

/// Why a vocabulary cannot be a [`CompactUnigram`].
#[derive(Debug)]
pub struct UnigramError(pub String);

impl std::fmt::Display for UnigramError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UnigramError {}

impl CompactUnigram {
    /// The model of `vocab` (pieces and scores, in id order) with `unk_id`.
    pub fn new(vocab: Vec<(String, f64)>, unk_id: Option<usize>) -> Result<Self, UnigramError> {
        if unk_id.is_some_and(|unk| unk >= vocab.len()) {
            return Err(UnigramError("the unk id is not in the vocabulary".into()));
        }
        let mut text = String::new();
        let mut ends = Vec::with_capacity(vocab.len());
        let mut scores = Vec::with_capacity(vocab.len());
        let mut last_id: HashMap<&str, u32> = HashMap::with_capacity(vocab.len());
        for (id, (piece, score)) in vocab.iter().enumerate() {
            text.push_str(piece);
            ends.push(u32::try_from(text.len()).map_err(|_| too_large())?);
            scores.push(*score);
            if !piece.is_empty() {
                last_id.insert(piece, u32::try_from(id).map_err(|_| too_large())?);
            }
        }
        let mut distinct: Vec<(&str, u32)> = last_id.into_iter().collect();
        distinct.sort_unstable_by_key(|&(_, id)| id);
        let pieces = CharwiseDoubleArrayAhoCorasick::with_values(distinct)
            .map_err(|e| UnigramError(format!("cannot index the pieces: {e}")))?;
        let min_score = scores.iter().copied().fold(f64::INFINITY, f64::min);
        Ok(CompactUnigram {
            text,
            ends,
            scores,
            pieces,
            unk_id: unk_id.map(|id| id as u32),
            min_score,
        })
    }

    /// How many pieces (ids) the vocabulary has.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the vocabulary has no piece.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The bytes this model holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.text.capacity()
            + self.ends.capacity() * 4
            + self.scores.capacity() * 8
            + self.pieces.heap_bytes()
    }

    /// The piece of `id`.
    pub fn piece(&self, id: u32) -> Option<&str> {
        let at = id as usize;
        let end = *self.ends.get(at)? as usize;
        let start = if at == 0 {
            0
        } else {
            self.ends[at - 1] as usize
        };
        Some(&self.text[start..end])
    }

    /// The id of `piece`, as `tokenizers` looks it up.
    pub fn id(&self, piece: &str) -> Option<u32> {
        self.pieces
            .find_overlapping_iter(piece)
            .find(|hit| hit.start() == 0 && hit.end() == piece.len())
            .map(|hit| hit.value())
    }

    /// The best segmentation of `sentence` as byte ranges and ids, `unk` runs fused.
    pub fn segment(&self, sentence: &str) -> Result<Vec<(usize, usize, u32)>, UnigramError> {
        if sentence.is_empty() {
            return Ok(Vec::new());
        }
        let mut edges: Vec<(usize, usize, u32)> = self
            .pieces
            .find_overlapping_iter(sentence)
            .map(|hit| (hit.start(), hit.end(), hit.value()))
            .collect();
        edges.sort_unstable_by_key(|&(start, end, _)| (start, end));
        let best = self.viterbi(sentence, &edges)?;
        Ok(self.backtrack(sentence, &best))
    }

    /// The best path ending at each byte: (id, score, start).
    fn viterbi(
        &self,
        sentence: &str,
        edges: &[(usize, usize, u32)],
    ) -> Result<Vec<(u32, f64, Option<usize>)>, UnigramError> {
        let unk_score = self.min_score - UNK_PENALTY;
        let mut best: Vec<(u32, f64, Option<usize>)> = vec![(0, 0.0, None); sentence.len() + 1];
        let mut next_edge = 0;
        for (start, ch) in sentence.char_indices() {
            let here = best[start].1;
            let width = ch.len_utf8();
            let mut covered = false;
            while let Some(&(from, end, id)) = edges.get(next_edge) {
                if from > start {
                    break;
                }
                next_edge += 1;
                // The automaton is charwise: every piece starts on a character boundary.
                debug_assert_eq!(from, start);
                let score = self.scores[id as usize] + here;
                let node = &mut best[end];
                if node.2.is_none() || score > node.1 {
                    *node = (id, score, Some(start));
                }
                covered |= end - start == width;
            }
            if !covered {
                let unk = self.unk_id.ok_or_else(|| {
                    UnigramError("a character has no piece and there is no unk".into())
                })?;
                let score = unk_score + here;
                let node = &mut best[start + width];
                if node.2.is_none() || score > node.1 {
                    *node = (unk, score, Some(start));
                }
            }
        }
        Ok(best)
    }

    /// The path back from the end, consecutive `unk` nodes fused into one range.
    fn backtrack(
        &self,
        sentence: &str,
        best: &[(u32, f64, Option<usize>)],
    ) -> Vec<(usize, usize, u32)> {
        let mut out: Vec<(usize, usize, u32)> = Vec::new();
        let mut unk_run: Option<(usize, usize)> = None;
        let mut end = sentence.len();
        while end > 0 {
            let (id, _, start) = best[end];
            let start = start.unwrap_or(0);
            if Some(id) == self.unk_id {
                unk_run = Some((start, unk_run.map_or(end, |(_, run_end)| run_end)));
            } else {
                if let Some((run_start, run_end)) = unk_run.take() {
                    out.push(self.fused(sentence, run_start, run_end));
                }
                out.push((start, end, id));
            }
            end = start;
        }
        if let Some((run_start, run_end)) = unk_run {
            out.push(self.fused(sentence, run_start, run_end));
        }
        out.reverse();
        out
    }

    /// A fused `unk` run: its text's own id if it is a piece (as `tokenizers` looks it up),
    /// else `unk`.
    fn fused(&self, sentence: &str, start: usize, end: usize) -> (usize, usize, u32) {
        let id = self
            .id(&sentence[start..end])
            .or(self.unk_id)
            .unwrap_or_default();
        (start, end, id)
    }
}

impl tokenizers::Model for CompactUnigram {
    type Trainer = tokenizers::models::TrainerWrapper;

    fn tokenize(&self, sequence: &str) -> tokenizers::Result<Vec<Token>> {
        Ok(self
            .segment(sequence)?
            .into_iter()
            .map(|(start, end, id)| Token::new(id, sequence[start..end].to_owned(), (start, end)))
            .collect())
    }

    fn token_to_id(&self, token: &str) -> Option<u32> {
        self.id(token)
    }

    fn id_to_token(&self, id: u32) -> Option<String> {
        self.piece(id).map(str::to_owned)
    }

    fn get_vocab(&self) -> HashMap<String, u32> {
        (0..self.len() as u32)
            .filter_map(|id| Some((self.piece(id)?.to_owned(), id)))
            .collect()
    }

    fn get_vocab_size(&self) -> usize {
        self.len()
    }

    fn save(&self, _folder: &Path, _prefix: Option<&str>) -> tokenizers::Result<Vec<PathBuf>> {
        Err("a compact Unigram model is read from tokenizer.json, never saved".into())
    }

    fn get_trainer(&self) -> Self::Trainer {
        tokenizers::models::TrainerWrapper::UnigramTrainer(Default::default())
    }
}

fn too_large() -> UnigramError {
    UnigramError("the vocabulary is too large".into())
}
