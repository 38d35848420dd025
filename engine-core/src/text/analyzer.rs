//! The analyzer: text in, terms (with offsets and positions) out.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::ascii::tokenize_ascii;
use super::porter2::stem_ascii;
use super::segment::UnicodeTokenizer;
use super::settings::{AnalyzerSettings, Stemmer, StopWords};
use super::stopwords::is_english_stop_word;

/// One term of the analyzed text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Token {
    /// The indexed form: folded, possibly stemmed. Never empty; always NFC.
    pub term: String,
    /// UTF-8 byte offset in the original input where the token's source starts.
    pub start: u32,
    /// UTF-8 byte offset in the original input where the token's source ends (exclusive).
    pub end: u32,
    /// Ordinal of the token among the tokens of the input (0, 1, 2, ...).
    pub position: u32,
}

/// Turns text into terms according to [`AnalyzerSettings`]. See the [module](super)
/// documentation for the pipeline.
#[derive(Clone, Debug)]
pub struct Analyzer {
    settings: AnalyzerSettings,
    fingerprint: String,
}

impl Analyzer {
    /// An analyzer with the given settings.
    pub fn new(settings: AnalyzerSettings) -> Self {
        let fingerprint = settings.fingerprint();
        Self {
            settings,
            fingerprint,
        }
    }

    /// The settings this analyzer was built with.
    pub fn settings(&self) -> &AnalyzerSettings {
        &self.settings
    }

    /// The tokens of `text`, in order, with byte offsets into `text`.
    pub fn analyze(&self, text: &str) -> Vec<Token> {
        let mut tokens = Vec::new();
        self.run(text, |term, start, end| {
            let position = u32::try_from(tokens.len()).unwrap_or(u32::MAX);
            tokens.push(Token {
                term: String::from(term),
                start,
                end,
                position,
            });
        });
        tokens
    }

    /// The terms of `text`, in order: `analyze(text)` without offsets and positions.
    pub fn terms(&self, text: &str) -> Vec<String> {
        let mut terms = Vec::new();
        self.each_term(text, |term| terms.push(String::from(term)));
        terms
    }

    /// Passes each term of `text` to `sink`, in order, without allocating one per term.
    pub fn each_term(&self, text: &str, mut sink: impl FnMut(&str)) {
        self.run(text, |term, _, _| sink(term));
    }

    /// A stable 32-hex-digit identifier of the analyzer's output: the SHA-256 (first 16
    /// bytes) of a fixed encoding of [`ANALYZER_VERSION`](super::ANALYZER_VERSION), the
    /// Unicode versions of the character tables, and every setting. Equal settings give equal
    /// fingerprints; changing any setting changes it.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// Tokenizes `text` and passes each kept term with its original byte range to `sink`.
    fn run(&self, text: &str, mut sink: impl FnMut(&str, u32, u32)) {
        let text = within_u32(text);
        let s = &self.settings;
        let mut filter = TermFilter {
            settings: s,
            stem: Vec::new(),
        };
        let mut emit = |term: &str, start: usize, end: usize| {
            if let Some(term) = filter.apply(term) {
                // `text` is at most u32::MAX bytes long, so offsets fit.
                sink(term, start as u32, end as u32);
            }
        };
        let mut lower = String::new();
        let mut unicode: Option<UnicodeTokenizer> = None;
        for (start, piece) in pieces(text) {
            if piece.is_ascii() {
                tokenize_ascii(piece, start, s.fold_case, &mut lower, &mut emit);
            } else {
                unicode
                    .get_or_insert_with(|| {
                        UnicodeTokenizer::new(
                            s.fold_case,
                            s.fold_diacritics,
                            s.fold_compatibility,
                            s.cjk_bigrams,
                        )
                    })
                    .tokenize(piece, start, &mut emit);
            }
        }
    }
}

/// The longest prefix of `text` (on a character boundary) whose length fits in a `u32`.
fn within_u32(text: &str) -> &str {
    if u32::try_from(text.len()).is_ok() {
        return text;
    }
    let mut end = u32::MAX as usize;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default()
}

/// The maximal runs of `text` without ASCII whitespace, with their byte offsets. Words never
/// span ASCII whitespace, so pieces are tokenized independently.
fn pieces(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let is_space = |b: u8| b.is_ascii_whitespace() || b == 0x0B;
    let bytes = text.as_bytes();
    let mut i = 0;
    core::iter::from_fn(move || {
        while bytes.get(i).is_some_and(|&b| is_space(b)) {
            i += 1;
        }
        let start = i;
        while bytes.get(i).is_some_and(|&b| !is_space(b)) {
            i += 1;
        }
        (i > start)
            .then(|| text.get(start..i).map(|piece| (start, piece)))
            .flatten()
    })
}

/// The per-term steps after tokenization: length limit, stop words, stemming.
struct TermFilter<'s> {
    settings: &'s AnalyzerSettings,
    stem: Vec<u8>,
}

impl TermFilter<'_> {
    /// The term to index for the raw token `term`, or `None` to drop it.
    fn apply<'a>(&'a mut self, term: &'a str) -> Option<&'a str> {
        let max = self.settings.max_token_chars as usize;
        if term.is_empty() || (max != 0 && term.len() > max && term.chars().count() > max) {
            return None;
        }
        if self.settings.stopwords == StopWords::English && is_english_stop_word(term) {
            return None;
        }
        if self.settings.stemmer == Stemmer::English && term.bytes().all(|b| b.is_ascii_lowercase())
        {
            self.stem.clear();
            self.stem.extend_from_slice(term.as_bytes());
            stem_ascii(&mut self.stem);
            return core::str::from_utf8(&self.stem)
                .ok()
                .filter(|t| !t.is_empty());
        }
        Some(term)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::vec;
    use proptest::prelude::*;

    fn terms(text: &str) -> Vec<String> {
        Analyzer::new(AnalyzerSettings::default()).terms(text)
    }

    fn plain() -> AnalyzerSettings {
        AnalyzerSettings {
            stemmer: Stemmer::None,
            ..AnalyzerSettings::default()
        }
    }

    #[test]
    fn empty_whitespace_and_punctuation_give_nothing() {
        for text in [
            "",
            " \t\r\n\x0B\x0C ",
            "!?…—«»",
            "😀👍🏽👨‍👩‍👧",
            "\u{200B}\u{200D}\u{FEFF}",
        ] {
            assert!(terms(text).is_empty(), "{text:?}");
        }
    }

    #[test]
    fn offsets_and_positions() {
        let tokens = Analyzer::new(plain()).analyze("  Héllo wörld\n日本語");
        let expected = [
            ("hello", 2, 8, 0),
            ("world", 9, 15, 1),
            ("日本", 16, 22, 2),
            ("本語", 19, 25, 3),
        ];
        assert_eq!(tokens.len(), expected.len());
        for (t, (term, start, end, position)) in tokens.iter().zip(expected) {
            assert_eq!(
                (t.term.as_str(), t.start, t.end, t.position),
                (term, start, end, position)
            );
        }
    }

    #[test]
    fn stemming_stop_words_and_possessives() {
        let english = Analyzer::new(AnalyzerSettings::english());
        assert_eq!(
            english.terms("The cafe's running cats are in Paris"),
            ["cafe", "run", "cat", "pari"]
        );
        assert_eq!(
            terms("The cafe's running cats"),
            ["the", "cafe", "run", "cat"]
        );
        assert_eq!(
            Analyzer::new(plain()).terms("The cafe's running cats"),
            ["the", "cafe", "running", "cats"]
        );
        // Only plain a-z terms are stemmed (the breve of й is a folded diacritic).
        assert_eq!(terms("runs covid19 бегущий"), ["run", "covid19", "бегущии"]);
    }

    #[test]
    fn long_tokens_are_dropped() {
        let blob = "QUJD".repeat(2_500);
        assert_eq!(terms(&format!("before {blob} after")), ["befor", "after"]);
        let unlimited = Analyzer::new(AnalyzerSettings {
            max_token_chars: 0,
            ..plain()
        });
        assert_eq!(unlimited.terms(&blob).len(), 1);
        let short = Analyzer::new(AnalyzerSettings {
            max_token_chars: 3,
            ..plain()
        });
        assert_eq!(short.terms("abc abcd été étés"), ["abc", "ete"]);
    }

    #[test]
    fn fingerprint_follows_settings() {
        let a = Analyzer::new(AnalyzerSettings::default());
        assert_eq!(
            a.fingerprint(),
            Analyzer::new(AnalyzerSettings::default()).fingerprint()
        );
        assert_ne!(
            a.fingerprint(),
            Analyzer::new(AnalyzerSettings::english()).fingerprint()
        );
        assert_eq!(a.settings(), &AnalyzerSettings::default());
    }

    /// Tokens of the general (Unicode) path, for comparison with the ASCII fast path.
    fn unicode_path(text: &str, s: &AnalyzerSettings) -> Vec<(String, usize, usize)> {
        let mut out = vec![];
        let mut tokenizer = UnicodeTokenizer::new(
            s.fold_case,
            s.fold_diacritics,
            s.fold_compatibility,
            s.cjk_bigrams,
        );
        for (start, piece) in pieces(text) {
            tokenizer.tokenize(piece, start, &mut |t, s, e| {
                out.push((String::from(t), s, e))
            });
        }
        out
    }

    fn ascii_path(text: &str, fold_case: bool) -> Vec<(String, usize, usize)> {
        let mut out = vec![];
        for (start, piece) in pieces(text) {
            tokenize_ascii(
                piece,
                start,
                fold_case,
                &mut String::new(),
                &mut |t, s, e| out.push((String::from(t), s, e)),
            );
        }
        out
    }

    proptest! {
        #[test]
        fn ascii_fast_path_matches_the_general_path(text in "[aAbsS19 .,;:'_\\-]{0,24}", fold_case: bool) {
            let s = AnalyzerSettings { fold_case, ..plain() };
            prop_assert_eq!(ascii_path(&text, fold_case), unicode_path(&text, &s));
        }
    }
}
