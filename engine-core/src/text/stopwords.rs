//! Stop word lists.

/// The English stop words of Lucene's `EnglishAnalyzer` (33 words, sorted), the list
/// Pyserini's BM25 baselines use.
pub const ENGLISH_STOP_WORDS: [&str; 33] = [
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
    "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
    "they", "this", "to", "was", "will", "with",
];

/// Whether the (case-folded) term is an English stop word.
pub(super) fn is_english_stop_word(term: &str) -> bool {
    term.len() <= 5 && ENGLISH_STOP_WORDS.binary_search(&term).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_is_sorted_and_complete() {
        assert!(ENGLISH_STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        for w in ENGLISH_STOP_WORDS {
            assert!(is_english_stop_word(w));
        }
        for w in ["The", "thee", "", "s", "don", "will "] {
            assert!(!is_english_stop_word(w), "{w:?}");
        }
    }
}
