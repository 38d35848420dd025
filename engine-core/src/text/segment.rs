//! The general path: tokenizing a whitespace-free piece of text that contains non-ASCII.
//!
//! The piece is folded first ([`Folder`]), then split at UAX #29 word boundaries. Inside a
//! word segment, tokens are the runs of letters and digits (with their combining marks):
//! intra-word punctuation that UAX #29 keeps (`l'homme`, `e.g`, `a:b`, `snake_case`)
//! splits the word, except a numeric separator between two digits (`3.14`, `1,000`); a
//! lone `s` after an apostrophe is dropped (`cafe's`, `it’s`). With CJK bigrams on, letters
//! of the scripts in [`script`](super::script) form runs across segments, emitted as
//! overlapping bigrams of characters (a character with its combining marks), or as one
//! unigram when the run has a single character.

use alloc::string::String;
use alloc::vec::Vec;

use unicode_normalization::char::is_combining_mark;
use unicode_segmentation::UnicodeSegmentation;

use super::chars;
use super::normalize::{ChunkStart, Folder, OffsetMap};
use super::script::is_bigram_letter;

/// Reusable state for tokenizing non-ASCII pieces.
pub(super) struct UnicodeTokenizer {
    folder: Folder,
    bigrams: bool,
    folded: String,
    chunks: Vec<ChunkStart>,
    units: Vec<(usize, usize)>,
}

impl UnicodeTokenizer {
    /// A tokenizer for the given folding switches and CJK handling.
    pub fn new(fold_case: bool, fold_diacritics: bool, compatibility: bool, bigrams: bool) -> Self {
        Self {
            folder: Folder::new(fold_case, fold_diacritics, compatibility),
            bigrams,
            folded: String::new(),
            chunks: Vec::new(),
            units: Vec::new(),
        }
    }

    /// Emits the raw tokens of `piece` (no ASCII whitespace) as `(term, start, end)`, with
    /// original byte offsets shifted by `base`.
    pub fn tokenize(
        &mut self,
        piece: &str,
        base: usize,
        emit: &mut impl FnMut(&str, usize, usize),
    ) {
        self.folded.clear();
        self.chunks.clear();
        self.units.clear();
        self.folder
            .fold_into(piece, base, &mut self.folded, &mut self.chunks);
        let mut walker = Walker {
            text: &self.folded,
            map: OffsetMap::new(&self.chunks, base + piece.len()),
            bigrams: self.bigrams,
            units: &mut self.units,
            word: None,
            emit,
        };
        for (start, segment) in self.folded.split_word_bound_indices() {
            walker.segment(start, segment);
        }
        walker.close_word();
        walker.flush_run();
    }
}

/// A word being collected: folded byte range and what the tokenizer needs to know about it.
struct Word {
    start: usize,
    end: usize,
    /// The last letter or digit is a number (a numeric separator may follow).
    last_numeric: bool,
    /// The word follows an apostrophe inside the same segment (possessive `s`).
    after_apostrophe: bool,
}

/// Walks the segments of one folded piece and emits its tokens.
struct Walker<'a, E> {
    text: &'a str,
    map: OffsetMap<'a>,
    bigrams: bool,
    /// Characters (with their marks) of the current bigram run, as folded byte ranges.
    units: &'a mut Vec<(usize, usize)>,
    word: Option<Word>,
    emit: &'a mut E,
}

impl<E: FnMut(&str, usize, usize)> Walker<'_, E> {
    fn segment(&mut self, seg_start: usize, segment: &str) {
        self.close_word();
        let mut after_apostrophe = false;
        let mut iter = segment.char_indices().peekable();
        while let Some((i, c)) = iter.next() {
            let (at, next) = (seg_start + i, seg_start + i + c.len_utf8());
            if is_combining_mark(c) {
                self.extend_last(at, next);
            } else if c.is_alphanumeric() {
                if self.bigrams && is_bigram_letter(c) {
                    self.close_word();
                    if self.units.last().is_some_and(|&(_, end)| end != at) {
                        self.flush_run();
                    }
                    self.units.push((at, next));
                } else {
                    self.flush_run();
                    let numeric = c.is_numeric();
                    match &mut self.word {
                        Some(word) => {
                            word.end = next;
                            word.last_numeric = numeric;
                        }
                        None => {
                            self.word = Some(Word {
                                start: at,
                                end: next,
                                last_numeric: numeric,
                                after_apostrophe,
                            })
                        }
                    }
                }
                after_apostrophe = false;
            } else {
                if let Some(word) = &mut self.word
                    && word.last_numeric
                    && chars::is_numeric_separator(c)
                    && iter.peek().is_some_and(|&(_, d)| d.is_numeric())
                {
                    word.end = next;
                    word.last_numeric = false;
                    continue;
                }
                after_apostrophe = self.word.is_some() && chars::is_apostrophe(c);
                self.close_word();
                self.flush_run();
            }
        }
    }

    /// Attaches a combining mark to the open word or the last run character; a mark with
    /// nothing to attach to (at the start of the text) is ignored.
    fn extend_last(&mut self, at: usize, next: usize) {
        if let Some(word) = &mut self.word {
            word.end = next;
        } else if let Some(unit) = self.units.last_mut()
            && unit.1 == at
        {
            unit.1 = next;
        }
    }

    fn close_word(&mut self) {
        let Some(word) = self.word.take() else { return };
        let Some(term) = self.text.get(word.start..word.end) else {
            return;
        };
        if word.after_apostrophe && (term == "s" || term == "S") {
            return;
        }
        let (start, end) = self.map.original(word.start, word.end);
        (self.emit)(term, start, end);
    }

    fn flush_run(&mut self) {
        let n = self.units.len();
        if n == 1 {
            let (start, end) = self.units[0];
            self.emit_range(start, end);
        }
        for i in 1..n {
            let (start, end) = (self.units[i - 1].0, self.units[i].1);
            self.emit_range(start, end);
        }
        self.units.clear();
    }

    fn emit_range(&mut self, start: usize, end: usize) {
        if let Some(term) = self.text.get(start..end) {
            let (from, to) = self.map.original(start, end);
            (self.emit)(term, from, to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::borrow::ToOwned;

    fn tokens(piece: &str, bigrams: bool) -> Vec<(String, usize, usize)> {
        let mut out = Vec::new();
        let mut tokenizer = UnicodeTokenizer::new(true, true, true, bigrams);
        tokenizer.tokenize(piece, 0, &mut |t, s, e| out.push((t.to_owned(), s, e)));
        out
    }

    fn terms(piece: &str) -> Vec<String> {
        tokens(piece, true).into_iter().map(|t| t.0).collect()
    }

    #[test]
    fn latin_words_with_offsets_into_the_original() {
        assert_eq!(
            tokens("Crème,BRÛLÉE", true),
            [("creme".into(), 0, 6), ("brulee".into(), 7, 15)]
        );
        assert_eq!(terms("naïve’s"), ["naive"]);
        assert_eq!(terms("l’été"), ["l", "ete"]);
        assert_eq!(terms("3,5€"), ["3,5"]);
    }

    #[test]
    fn cjk_runs_become_bigrams() {
        assert_eq!(
            tokens("東京都", true),
            [("東京".into(), 0, 6), ("京都".into(), 3, 9)]
        );
        assert_eq!(terms("日"), ["日"]);
        assert_eq!(
            terms("日本語テキスト"),
            ["日本", "本語", "語テ", "テキ", "キス", "スト"]
        );
        assert_eq!(terms("한국어abc"), ["한국", "국어", "abc"]);
        assert_eq!(terms("日本、東京"), ["日本", "東京"]);
        assert_eq!(terms("ภาษาไทย"), ["ภา", "าษ", "ษา", "าไ", "ไท", "ทย"]);
        // Thai marks stay with their consonant.
        assert_eq!(terms("ที่นี่"), ["ที่นี่"]);
        assert_eq!(terms("ที่นี่ไทย"), ["ที่นี่", "นี่ไ", "ไท", "ทย"]);
    }

    #[test]
    fn without_bigrams_uax29_words_are_kept() {
        let t: Vec<String> = tokens("日本語 カタカナ 한국어", false)
            .into_iter()
            .map(|t| t.0)
            .collect();
        assert_eq!(t, ["日", "本", "語", "カタカナ", "한국어"]);
    }
}
