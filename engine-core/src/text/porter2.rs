//! The English (Porter2) stemmer, as defined by Snowball's `english` algorithm
//! (snowballstem.org, the revision shipped with Snowball 3), written from its description.
//!
//! It works on ASCII bytes. Letters other than `a e i o u y` count as consonants, as in
//! Snowball, so upper-case input is processed the way Snowball processes it; the analyzer
//! only stems lower-case `a`–`z` terms. Vectors generated with the `snowballstemmer` Python
//! package check it (`tests/vectors/text_stem.json`).

use alloc::string::String;
use alloc::vec::Vec;

/// `a e i o u y`: the vowels of the algorithm (`Y`, a consonant `y`, is not one).
fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// Vowels plus `w`, `x` and `Y`: what may not end a short syllable.
fn is_vowel_wxy(b: u8) -> bool {
    is_vowel(b) || matches!(b, b'w' | b'x' | b'Y')
}

/// Letters that may precede a deleted `li` in step 2.
fn is_valid_li(b: u8) -> bool {
    matches!(
        b,
        b'c' | b'd' | b'e' | b'g' | b'h' | b'k' | b'm' | b'n' | b'r' | b't'
    )
}

/// Words with a fixed stem, checked before anything else.
const EXCEPTIONS: &[(&str, &str)] = &[
    ("andes", "andes"),
    ("atlas", "atlas"),
    ("bias", "bias"),
    ("cosmos", "cosmos"),
    ("early", "earli"),
    ("gently", "gentl"),
    ("howe", "howe"),
    ("idly", "idl"),
    ("news", "news"),
    ("only", "onli"),
    ("singly", "singl"),
    ("skies", "sky"),
    ("skis", "ski"),
    ("sky", "sky"),
    ("ugly", "ugli"),
];

/// Prefixes after which region R1 starts directly.
const R1_PREFIXES: &[&str] = &[
    "arsen", "commun", "emerg", "gener", "inter", "later", "organ", "past", "univers",
];

/// Stems one word with the English (Porter2) stemmer.
///
/// Words that are not pure ASCII are returned unchanged (the algorithm is defined on
/// English letters). Apostrophes are handled as the algorithm says: a leading one is
/// removed, and a trailing `'s'`, `'s` or `'` is removed (`cafe's` → `cafe`).
pub fn stem_english(word: &str) -> String {
    if !word.is_ascii() {
        return String::from(word);
    }
    let mut bytes = Vec::from(word.as_bytes());
    stem_ascii(&mut bytes);
    bytes.into_iter().map(char::from).collect()
}

/// Stems an ASCII word in place.
pub(super) fn stem_ascii(w: &mut Vec<u8>) {
    if let Some(&(_, stem)) = EXCEPTIONS
        .iter()
        .find(|(word, _)| word.as_bytes() == w.as_slice())
    {
        w.clear();
        w.extend_from_slice(stem.as_bytes());
        return;
    }
    if w.len() < 3 {
        return;
    }
    let y_found = prelude(w);
    let r = Regions::mark(w);
    step_1a(w);
    step_1b(w, &r);
    step_1c(w);
    step_2(w, &r);
    step_3(w, &r);
    step_4(w, &r);
    step_5(w, &r);
    if y_found {
        for b in w.iter_mut() {
            if *b == b'Y' {
                *b = b'y';
            }
        }
    }
}

/// Removes a leading apostrophe and marks consonant `y`s as `Y`; returns whether any was.
fn prelude(w: &mut Vec<u8>) -> bool {
    if w.first() == Some(&b'\'') {
        w.remove(0);
    }
    let mut found = false;
    if w.first() == Some(&b'y') {
        w[0] = b'Y';
        found = true;
    }
    for i in 1..w.len() {
        if w[i] == b'y' && is_vowel(w[i - 1]) {
            w[i] = b'Y';
            found = true;
        }
    }
    found
}

/// The start offsets of regions R1 and R2.
struct Regions {
    p1: usize,
    p2: usize,
}

impl Regions {
    fn mark(w: &[u8]) -> Self {
        let n = w.len();
        let after_vowel_consonant = |from: usize| -> Option<usize> {
            let vowel = from + w.get(from..)?.iter().position(|&b| is_vowel(b))?;
            let consonant = vowel + 1 + w.get(vowel + 1..)?.iter().position(|&b| !is_vowel(b))?;
            Some(consonant + 1)
        };
        let p1 = match R1_PREFIXES.iter().find(|p| w.starts_with(p.as_bytes())) {
            Some(prefix) => Some(prefix.len()),
            None => after_vowel_consonant(0),
        };
        match p1 {
            None => Self { p1: n, p2: n },
            Some(p1) => Self {
                p1,
                p2: after_vowel_consonant(p1).unwrap_or(n),
            },
        }
    }
}

/// Whether `w[..end]` ends in a short syllable (or in `past`).
fn ends_short(w: &[u8], end: usize) -> bool {
    let at = |back: usize| end.checked_sub(back).and_then(|i| w.get(i)).copied();
    let consonant_vowel_consonant = end >= 3
        && at(1).is_some_and(|b| !is_vowel_wxy(b))
        && at(2).is_some_and(is_vowel)
        && at(3).is_some_and(|b| !is_vowel(b));
    let vowel_consonant_at_start =
        end == 2 && at(1).is_some_and(|b| !is_vowel(b)) && at(2).is_some_and(is_vowel);
    consonant_vowel_consonant
        || vowel_consonant_at_start
        || w.get(..end).is_some_and(|s| s.ends_with(b"past"))
}

/// The longest of `suffixes` that `w` ends with, as its index in `suffixes`.
fn longest_suffix(w: &[u8], suffixes: &[&str]) -> Option<usize> {
    let last = *w.last()?;
    (0..suffixes.len())
        .filter(|&i| {
            let s = suffixes[i].as_bytes();
            s.last() == Some(&last) && w.ends_with(s)
        })
        .max_by_key(|&i| suffixes[i].len())
}

/// The rule of `rules` (suffix, replacement) with the longest suffix that `w` ends with.
fn longest_rule(
    w: &[u8],
    rules: &[(&'static str, &'static str)],
) -> Option<(&'static str, &'static str)> {
    let last = *w.last()?;
    rules
        .iter()
        .filter(|(s, _)| s.as_bytes().last() == Some(&last) && w.ends_with(s.as_bytes()))
        .max_by_key(|(s, _)| s.len())
        .copied()
}

/// Replaces the last `len` bytes of `w` with `with`.
fn replace_end(w: &mut Vec<u8>, len: usize, with: &str) {
    w.truncate(w.len() - len);
    w.extend_from_slice(with.as_bytes());
}

/// Whether `w[..end]` contains a vowel.
fn has_vowel(w: &[u8], end: usize) -> bool {
    w.get(..end).is_some_and(|s| s.iter().any(|&b| is_vowel(b)))
}

fn step_1a(w: &mut Vec<u8>) {
    if let Some(i) = longest_suffix(w, &["'s'", "'s", "'"]) {
        w.truncate(w.len() - [3, 2, 1][i]);
    }
    const SUFFIXES: [&str; 6] = ["sses", "ied", "ies", "ss", "us", "s"];
    match longest_suffix(w, &SUFFIXES).map(|i| SUFFIXES[i]) {
        Some("sses") => replace_end(w, 4, "ss"),
        Some(suffix @ ("ied" | "ies")) => {
            let with = if w.len() - suffix.len() >= 2 {
                "i"
            } else {
                "ie"
            };
            replace_end(w, 3, with);
        }
        Some("s") => {
            let s = w.len() - 1;
            if s >= 1 && has_vowel(w, s - 1) {
                w.truncate(s);
            }
        }
        _ => {}
    }
}

fn step_1b(w: &mut Vec<u8>, r: &Regions) {
    const SUFFIXES: [&str; 6] = ["eedly", "ingly", "edly", "eed", "ing", "ed"];
    let Some(suffix) = longest_suffix(w, &SUFFIXES).map(|i| SUFFIXES[i]) else {
        return;
    };
    let stem_len = w.len() - suffix.len();
    match suffix {
        "eed" | "eedly" => {
            let exact_exception = matches!(&w[..stem_len], b"succ" | b"proc" | b"exc");
            if stem_len >= r.p1 && !exact_exception {
                replace_end(w, suffix.len(), "ee");
            }
            return;
        }
        "ing" => {
            let stem = &w[..stem_len];
            if let [c, b'y'] = stem
                && !is_vowel(*c)
            {
                replace_end(w, 4, "ie");
                return;
            }
            if matches!(
                stem,
                b"even" | b"cann" | b"inn" | b"earr" | b"herr" | b"out"
            ) {
                return;
            }
        }
        _ => {}
    }
    if !has_vowel(w, stem_len) {
        return;
    }
    w.truncate(stem_len);
    if w.ends_with(b"at") || w.ends_with(b"bl") || w.ends_with(b"iz") {
        w.push(b'e');
    } else if let [.., a, b] = w.as_slice()
        && a == b
        && matches!(
            a,
            b'b' | b'd' | b'f' | b'g' | b'm' | b'n' | b'p' | b'r' | b't'
        )
    {
        if !(w.len() == 3 && matches!(w[0], b'a' | b'e' | b'o')) {
            w.pop();
        }
    } else if w.len() == r.p1 && ends_short(w, w.len()) {
        w.push(b'e');
    }
}

fn step_1c(w: &mut [u8]) {
    let n = w.len();
    if n >= 3 && matches!(w[n - 1], b'y' | b'Y') && !is_vowel(w[n - 2]) {
        w[n - 1] = b'i';
    }
}

fn step_2(w: &mut Vec<u8>, r: &Regions) {
    const RULES: [(&str, &str); 25] = [
        ("tional", "tion"),
        ("enci", "ence"),
        ("anci", "ance"),
        ("abli", "able"),
        ("entli", "ent"),
        ("izer", "ize"),
        ("ization", "ize"),
        ("ational", "ate"),
        ("ation", "ate"),
        ("ator", "ate"),
        ("alism", "al"),
        ("aliti", "al"),
        ("alli", "al"),
        ("fulness", "ful"),
        ("fulli", "ful"),
        ("ousli", "ous"),
        ("ousness", "ous"),
        ("iveness", "ive"),
        ("iviti", "ive"),
        ("biliti", "ble"),
        ("bli", "ble"),
        ("ogist", "og"),
        ("ogi", "og"),
        ("lessli", "less"),
        ("li", ""),
    ];
    let Some((suffix, with)) = longest_rule(w, &RULES) else {
        return;
    };
    let stem_len = w.len() - suffix.len();
    if stem_len < r.p1 {
        return;
    }
    let before = stem_len.checked_sub(1).and_then(|i| w.get(i)).copied();
    match suffix {
        "ogi" if before != Some(b'l') => {}
        "li" if !before.is_some_and(is_valid_li) => {}
        _ => replace_end(w, suffix.len(), with),
    }
}

fn step_3(w: &mut Vec<u8>, r: &Regions) {
    const RULES: [(&str, &str); 9] = [
        ("tional", "tion"),
        ("ational", "ate"),
        ("alize", "al"),
        ("icate", "ic"),
        ("iciti", "ic"),
        ("ical", "ic"),
        ("ful", ""),
        ("ness", ""),
        ("ative", ""),
    ];
    let Some((suffix, with)) = longest_rule(w, &RULES) else {
        return;
    };
    let stem_len = w.len() - suffix.len();
    if stem_len < r.p1 || (suffix == "ative" && stem_len < r.p2) {
        return;
    }
    replace_end(w, suffix.len(), with);
}

fn step_4(w: &mut Vec<u8>, r: &Regions) {
    const SUFFIXES: [&str; 18] = [
        "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ism",
        "ate", "iti", "ous", "ive", "ize", "ion",
    ];
    let Some(suffix) = longest_suffix(w, &SUFFIXES).map(|i| SUFFIXES[i]) else {
        return;
    };
    let stem_len = w.len() - suffix.len();
    if stem_len < r.p2 {
        return;
    }
    if suffix == "ion" && !matches!(stem_len.checked_sub(1).map(|i| w[i]), Some(b's' | b't')) {
        return;
    }
    w.truncate(stem_len);
}

fn step_5(w: &mut Vec<u8>, r: &Regions) {
    let n = w.len();
    match w.last() {
        Some(b'e') => {
            let at = n - 1;
            if at >= r.p2 || (at >= r.p1 && !ends_short(w, at)) {
                w.pop();
            }
        }
        Some(b'l') if n > r.p2 && n >= 2 && w[n - 2] == b'l' => {
            w.pop();
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_the_classic_examples() {
        let cases = [
            ("running", "run"),
            ("generously", "generous"),
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("cats", "cat"),
            ("gas", "gas"),
            ("hopping", "hop"),
            ("hoping", "hope"),
            ("happy", "happi"),
            ("dying", "die"),
            ("skies", "sky"),
            ("news", "news"),
            ("succeeded", "succeed"),
            ("agreed", "agre"),
            ("cafe's", "cafe"),
            ("don't", "don't"),
            ("universal", "universal"),
            ("emerging", "emerg"),
            ("pasted", "paste"),
            ("Running", "Run"),
            ("a", "a"),
            ("", ""),
            ("naïve", "naïve"),
        ];
        for (word, stem) in cases {
            assert_eq!(stem_english(word), stem, "{word}");
        }
    }
}
