//! Property tests of the text analyzer: it never panics, its tokens are well-formed, its
//! fast paths agree with its general path, equivalent inputs give equal terms, and the
//! fingerprint identifies the settings.

use engine_core::text::{Analyzer, AnalyzerSettings, Stemmer, StopWords};
use proptest::prelude::*;
use unicode_normalization::{UnicodeNormalization, is_nfc};

/// Characters that exercise the analyzer's special cases: combining marks in and out of
/// canonical order, Hangul syllables and conjoining jamo, kana with (half-width) voicing
/// marks, Thai with marks, characters whose decomposition starts with a non-starter,
/// case-folding specials, ligatures, invisible characters, emoji, separators.
const INTERESTING: &[char] = &[
    'a', 'Z', 's', 'S', 'y', 'I', '1', '9', ' ', '\n', '.', ',', ';', ':', '\'', '’', '_', '-',
    '#', '/', '\u{301}', '\u{323}', '\u{307}', '\u{345}', '\u{344}', '\u{308}', '\u{3099}',
    '\u{309A}', 'é', 'Å', 'Å', 'ß', 'ẞ', 'İ', 'ı', 'ς', 'Σ', 'ᾳ', 'ﬁ', '²', '½', '⁄', 'K', 'µ',
    'ᲀ', 'Ꭰ', 'ꭰ', '한', '\u{1100}', '\u{1161}', '\u{11A8}', '日', '本', 'か', 'カ', 'ｶ',
    '\u{FF9E}', 'ท', '\u{E35}', '\u{E48}', 'ไ', '๑', '\u{F73}', '\u{F71}', '\u{F72}', '\u{F81}',
    '\u{B47}', '\u{B3E}', '\u{9C7}', '\u{9BE}', 'क', '\u{93C}', 'ि', 'أ', '\u{654}', '\u{64E}',
    'ש', '\u{5B8}', '\u{200B}', '\u{200C}', '\u{200D}', '\u{200E}', '\u{AD}', '\u{FEFF}',
    '\u{FE0F}', '\u{20E3}', '😀', '🏽', '🇫', '\u{FFFD}', '\u{3000}', 'Ａ', '１', '\u{2028}',
    '\u{85}', 'ǅ', 'ǰ', 'ΐ', '\u{1E9B}', 'Ω', 'ŉ',
];

fn interesting_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(INTERESTING), 0..40)
        .prop_map(|v| v.into_iter().collect())
}

/// Dense samples of the blocks where normalization and folding do the most: Latin-1 and
/// Latin Extended, combining diacritics, Greek Extended, Hangul jamo and syllables, Thai,
/// half-width forms, letterlike symbols, ligatures.
fn dense_text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 '.,\u{C0}-\u{24F}\u{300}-\u{36F}\u{1F00}-\u{1FFF}\u{1100}-\u{11FF}\u{AC00}-\u{AC40}\u{E00}-\u{E5F}\u{FF61}-\u{FFDC}\u{2100}-\u{218F}\u{FB00}-\u{FB4F}]{0,30}"
}

/// Arbitrary Unicode, or a string built from [`INTERESTING`] characters or dense blocks.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), interesting_text(), dense_text()]
}

fn settings() -> impl Strategy<Value = AnalyzerSettings> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![Just(Stemmer::None), Just(Stemmer::English)],
        prop_oneof![Just(StopWords::None), Just(StopWords::English)],
        prop_oneof![Just(0u32), 1u32..4, Just(64u32), any::<u32>()],
    )
        .prop_map(
            |(
                fold_case,
                fold_diacritics,
                fold_compatibility,
                cjk_bigrams,
                stemmer,
                stopwords,
                max_token_chars,
            )| {
                AnalyzerSettings {
                    fold_case,
                    fold_diacritics,
                    fold_compatibility,
                    cjk_bigrams,
                    stemmer,
                    stopwords,
                    max_token_chars,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn tokens_are_well_formed(text in any_text(), s in settings()) {
        let analyzer = Analyzer::new(s.clone());
        let tokens = analyzer.analyze(&text);
        let mut last_start = 0;
        for (i, token) in tokens.iter().enumerate() {
            prop_assert!(!token.term.is_empty());
            prop_assert!(is_nfc(&token.term), "{:?} is not NFC", token.term);
            if s.fold_case {
                prop_assert_eq!(&token.term.to_lowercase(), &token.term);
            }
            if s.max_token_chars > 0 && s.stemmer == Stemmer::None {
                prop_assert!(token.term.chars().count() <= s.max_token_chars as usize);
            }
            let (start, end) = (token.start as usize, token.end as usize);
            prop_assert!(start < end && end <= text.len(), "{:?} out of {}", token, text.len());
            prop_assert!(text.is_char_boundary(start) && text.is_char_boundary(end));
            prop_assert!(start >= last_start, "starts decrease at {:?}", token);
            prop_assert_eq!(token.position as usize, i);
            last_start = start;
        }
    }

    #[test]
    fn terms_equal_analyzed_terms(text in any_text(), s in settings()) {
        let analyzer = Analyzer::new(s);
        let from_tokens: Vec<String> = analyzer.analyze(&text).into_iter().map(|t| t.term).collect();
        prop_assert_eq!(analyzer.terms(&text), from_tokens);
    }

    #[test]
    fn nfd_and_nfc_inputs_give_the_same_terms(text in any_text(), s in settings()) {
        let analyzer = Analyzer::new(s.clone());
        let nfc: String = text.nfc().collect();
        let nfd: String = text.nfd().collect();
        prop_assert_eq!(analyzer.terms(&nfc), analyzer.terms(&nfd));
        if s.fold_compatibility {
            let nfkd: String = text.nfkd().collect();
            prop_assert_eq!(analyzer.terms(&nfc), analyzer.terms(&nfkd));
        }
    }

    #[test]
    fn terms_are_a_function_of_the_folded_text(text in interesting_text()) {
        // Tokenizing pieces separately must not depend on what the other pieces contain.
        let analyzer = Analyzer::new(AnalyzerSettings::default());
        let joined = format!("{text} {text}");
        let once = analyzer.terms(&text);
        let twice: Vec<String> = once.iter().chain(once.iter()).cloned().collect();
        prop_assert_eq!(analyzer.terms(&joined), twice);
    }

    #[test]
    fn fingerprints_are_equal_iff_settings_are(a in settings(), b in settings()) {
        let (fa, fb) = (Analyzer::new(a.clone()).fingerprint().to_owned(), Analyzer::new(b.clone()).fingerprint().to_owned());
        prop_assert_eq!(a == b, fa == fb);
        prop_assert_eq!(fa, Analyzer::new(a).fingerprint().to_owned());
    }
}
