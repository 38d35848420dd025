//! Snippets of a hit: a window of the chunk around the first place the query's words occur,
//! with the byte ranges of every occurrence in it (for highlighting). Words match
//! case-insensitively at word starts, so `link` highlights `Links` and `linking`.

use serde::Serialize;

/// How many characters a snippet shows at most.
pub const SNIPPET_CHARS: usize = 240;

/// A snippet and where the query's words are in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Snippet {
    /// The text shown (whitespace runs collapsed to one space).
    pub text: String,
    /// `[start, end)` byte ranges of `text` to highlight.
    pub highlights: Vec<[usize; 2]>,
}

/// The snippet of `text` for `query`.
pub fn snippet(text: &str, query: &str) -> Snippet {
    let flat = collapse_whitespace(text);
    let words = query_words(query);
    let lower = flat.to_lowercase();
    // `to_lowercase` can change byte lengths; fall back to no highlights then.
    let comparable = lower.len() == flat.len();
    let first = comparable
        .then(|| first_match(&lower, &words))
        .flatten()
        .unwrap_or(0);
    let start = window_start(&flat, first);
    let end = window_end(&flat, start);
    let shown = &flat[start..end];
    let highlights = if comparable {
        matches(&lower[start..end], &words)
    } else {
        Vec::new()
    };
    Snippet {
        text: shown.to_owned(),
        highlights,
    }
}

/// The query's words, lowercase, at least two characters.
fn query_words(query: &str) -> Vec<String> {
    query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.chars().count() >= 2)
        .map(str::to_lowercase)
        .collect()
}

fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether byte `at` of `text` starts a word.
fn starts_word(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .next_back()
        .is_none_or(|c| !c.is_alphanumeric())
}

/// Where the first word of `words` occurs at a word start.
fn first_match(lower: &str, words: &[String]) -> Option<usize> {
    words
        .iter()
        .filter_map(|word| {
            lower
                .match_indices(word.as_str())
                .find(|(at, _)| starts_word(lower, *at))
                .map(|(at, _)| at)
        })
        .min()
}

/// Every occurrence of `words` at a word start, sorted, overlaps merged.
fn matches(lower: &str, words: &[String]) -> Vec<[usize; 2]> {
    let mut found: Vec<[usize; 2]> = words
        .iter()
        .flat_map(|word| {
            lower
                .match_indices(word.as_str())
                .filter(|(at, _)| starts_word(lower, *at))
                .map(|(at, w)| [at, at + w.len()])
                .collect::<Vec<_>>()
        })
        .collect();
    found.sort_unstable();
    let mut merged: Vec<[usize; 2]> = Vec::with_capacity(found.len());
    for range in found {
        match merged.last_mut() {
            Some(last) if range[0] <= last[1] => last[1] = last[1].max(range[1]),
            _ => merged.push(range),
        }
    }
    merged
}

/// A char boundary up to a quarter window before `first`, at a word start when one is near.
fn window_start(text: &str, first: usize) -> usize {
    let back = SNIPPET_CHARS / 4;
    let start = text[..first]
        .char_indices()
        .rev()
        .take(back)
        .last()
        .map_or(first, |(at, _)| at);
    match text[start..first].find(' ') {
        Some(space) if start > 0 => start + space + 1,
        _ => start,
    }
}

/// The char boundary `SNIPPET_CHARS` characters after `start` (or the end).
fn window_end(text: &str, start: usize) -> usize {
    text[start..]
        .char_indices()
        .nth(SNIPPET_CHARS)
        .map_or(text.len(), |(at, _)| start + at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlights_word_starts_case_insensitively() {
        let s = snippet(
            "Internal Links connect notes.\nUse linking often.",
            "link notes",
        );
        let shown: Vec<&str> = s.highlights.iter().map(|[a, b]| &s.text[*a..*b]).collect();
        assert_eq!(shown, ["Link", "notes", "link"]);
    }

    #[test]
    fn the_window_starts_near_the_first_match() {
        let text = format!("{} needle here", "word ".repeat(200));
        let s = snippet(&text, "needle");
        assert!(s.text.chars().count() <= SNIPPET_CHARS);
        assert!(s.text.contains("needle"), "{}", s.text);
        assert!(s.text.starts_with("word"));
    }

    #[test]
    fn no_match_shows_the_start() {
        let s = snippet("Alpha beta gamma", "zeta");
        assert_eq!(s.text, "Alpha beta gamma");
        assert!(s.highlights.is_empty());
    }
}
