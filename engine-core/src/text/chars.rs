//! Character tables of the analyzer: what folding drops or maps, and which characters
//! glue numbers together or act as apostrophes.
//!
//! The tables are small, hand-written and documented here, so that the Python vector
//! generator (`tests/vectors/gen/text_analyze_fold.py`) can state the same rules.

/// Whether `c` is in one of the sorted, inclusive `ranges`.
fn in_ranges(c: char, ranges: &[(u32, u32)]) -> bool {
    let c = u32::from(c);
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                core::cmp::Ordering::Less
            } else if lo > c {
                core::cmp::Ordering::Greater
            } else {
                core::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Default_Ignorable_Code_Point (Unicode DerivedCoreProperties) without U+200B ZERO WIDTH
/// SPACE, plus the enclosing marks (General_Category Me, e.g. the keycap U+20E3).
///
/// These are invisible (or purely decorative) and never part of a term: soft hyphen, ZWJ,
/// ZWNJ, bidi marks and embeddings, word joiner, BOM, variation selectors, tag characters,
/// Hangul fillers. ZWSP is kept because it is a word separator (Thai, Khmer, Myanmar).
const DROPPED: &[(u32, u32)] = &[
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x0488, 0x0489),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x1ABE, 0x1ABE),
    (0x200C, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x20DD, 0x20E0),
    (0x20E2, 0x20E4),
    (0x3164, 0x3164),
    (0xA670, 0xA672),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
];

/// Whether `c` is removed from the text before segmentation (see [`DROPPED`]).
pub(super) fn is_dropped(c: char) -> bool {
    !c.is_ascii() && in_ranges(c, DROPPED)
}

/// Blocks whose combining marks are diacritics in the sense of diacritic folding: the
/// generic combining diacritics used by Latin, Greek and Cyrillic (and their extensions),
/// Cyrillic titlo marks, Hebrew points and cantillation, Arabic harakat and Quranic marks.
///
/// Marks of other scripts (Indic vowel signs and viramas, Thai vowels and tone marks, the
/// kana voicing marks U+3099/U+309A, ...) change the letter and are kept.
const DIACRITIC_BLOCKS: &[(u32, u32)] = &[
    (0x0300, 0x036F),
    (0x0483, 0x0489),
    (0x0591, 0x05C7),
    (0x0610, 0x061A),
    (0x064B, 0x065F),
    (0x0670, 0x0670),
    (0x06D6, 0x06ED),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x20D0, 0x20FF),
    (0xFE20, 0xFE2F),
];

/// Whether `c` is a combining mark that diacritic folding removes (see [`DIACRITIC_BLOCKS`]).
pub(super) fn is_foldable_diacritic(c: char) -> bool {
    in_ranges(c, DIACRITIC_BLOCKS) && unicode_normalization::char::is_combining_mark(c)
}

/// Latin letters whose diacritic is not a separate combining mark in Unicode (stroke, bar,
/// missing dot), mapped to the base letter by diacritic folding: `ø`→`o`, `ł`→`l`, `đ`→`d`,
/// `ı`→`i` (so Turkish `KIRMIZI` and `kırmızı` meet). Letters in their own right (`æ`, `œ`,
/// `ð`, `þ`) are left alone.
pub(super) fn strip_stroke(c: char) -> char {
    match c {
        'Ø' => 'O',
        'ø' => 'o',
        'Đ' => 'D',
        'đ' => 'd',
        'Ħ' => 'H',
        'ħ' => 'h',
        'ı' => 'i',
        'Ł' => 'L',
        'ł' => 'l',
        'Ŧ' => 'T',
        'ŧ' => 't',
        'ƀ' => 'b',
        'Ɨ' => 'I',
        'Ƶ' => 'Z',
        'ƶ' => 'z',
        'Ǥ' => 'G',
        'ǥ' => 'g',
        'ȷ' => 'j',
        'Ƀ' => 'B',
        'ɨ' => 'i',
        _ => c,
    }
}

/// Full case folding where it differs from lowercasing a canonically decomposed character
/// (Unicode CaseFolding.txt, status C and F): the entries `c` for which
/// `lower(casefold(c)) != lower(c)` even after NFD. Everything else folds by lowercasing.
///
/// The compatibility characters among them (`µ`, `ſ`, ligatures, ...) are already
/// replaced by compatibility decomposition when `fold_compatibility` is on; they are listed
/// for the canonical-only mode.
pub(super) fn case_fold_special(c: char) -> Option<&'static str> {
    Some(match c {
        'µ' => "μ",
        'ß' | 'ẞ' => "ss",
        'ŉ' => "ʼn",
        'ſ' => "s",
        '\u{0345}' => "ι",
        'ς' => "σ",
        'ϐ' => "β",
        'ϑ' => "θ",
        'ϕ' => "φ",
        'ϖ' => "π",
        'ϰ' => "κ",
        'ϱ' => "ρ",
        'ϵ' => "ε",
        'և' => "եւ",
        'ᲀ' => "в",
        'ᲁ' => "д",
        'ᲂ' => "о",
        'ᲃ' => "с",
        'ᲄ' | 'ᲅ' => "т",
        'ᲆ' => "ъ",
        'ᲇ' => "ѣ",
        'ᲈ' => "ꙋ",
        'ẚ' => "aʾ",
        'ﬀ' => "ff",
        'ﬁ' => "fi",
        'ﬂ' => "fl",
        'ﬃ' => "ffi",
        'ﬄ' => "ffl",
        'ﬅ' | 'ﬆ' => "st",
        'ﬓ' => "մն",
        'ﬔ' => "մե",
        'ﬕ' => "մի",
        'ﬖ' => "վն",
        'ﬗ' => "մխ",
        _ => return None,
    })
}

/// Characters that UAX #29 lets stand between two digits of one number (Word_Break
/// MidNum, MidNumLet and Single_Quote): `3.14`, `1,000`, `1'000` stay one token.
pub(super) fn is_numeric_separator(c: char) -> bool {
    matches!(
        c,
        '\'' | ','
            | '.'
            | ';'
            | '\u{037E}'
            | '\u{0589}'
            | '\u{060C}'
            | '\u{060D}'
            | '\u{066C}'
            | '\u{07F8}'
            | '\u{2018}'
            | '\u{2019}'
            | '\u{2024}'
            | '\u{2044}'
            | '\u{FE50}'
            | '\u{FE52}'
            | '\u{FE54}'
            | '\u{FF07}'
            | '\u{FF0C}'
            | '\u{FF0E}'
            | '\u{FF1B}'
    )
}

/// Apostrophes that split a word and can introduce a possessive or clitic `s`
/// (`cafe's`, `it’s`).
pub(super) fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_tables_are_sorted_and_disjoint() {
        for table in [DROPPED, DIACRITIC_BLOCKS] {
            for w in table.windows(2) {
                assert!(w[0].0 <= w[0].1 && w[0].1 < w[1].0, "{w:x?}");
            }
        }
    }

    #[test]
    fn dropped_characters() {
        for c in [
            '\u{AD}',
            '\u{200D}',
            '\u{200C}',
            '\u{200E}',
            '\u{FEFF}',
            '\u{FE0F}',
            '\u{20E3}',
            '\u{E0041}',
        ] {
            assert!(is_dropped(c), "{c:?}");
        }
        for c in ['a', ' ', '\u{200B}', 'é', '\u{0301}', '日'] {
            assert!(!is_dropped(c), "{c:?}");
        }
    }

    #[test]
    fn diacritics_are_latin_greek_cyrillic_hebrew_arabic_marks_only() {
        for c in [
            '\u{0301}', '\u{0308}', '\u{0327}', '\u{05B8}', '\u{064E}', '\u{0654}', '\u{1DC4}',
        ] {
            assert!(is_foldable_diacritic(c), "{c:?}");
        }
        // Devanagari vowel sign, Thai tone mark, kana voicing mark, a base letter.
        for c in ['\u{093F}', '\u{0E48}', '\u{3099}', 'a', '\u{05BE}'] {
            assert!(!is_foldable_diacritic(c), "{c:?}");
        }
    }

    #[test]
    fn stroke_letters_map_to_their_base() {
        assert_eq!(strip_stroke('ø'), 'o');
        assert_eq!(strip_stroke('Ł'), 'L');
        assert_eq!(strip_stroke('ı'), 'i');
        assert_eq!(strip_stroke('æ'), 'æ');
    }

    #[test]
    fn special_case_folds() {
        assert_eq!(case_fold_special('ß'), Some("ss"));
        assert_eq!(case_fold_special('ς'), Some("σ"));
        assert_eq!(case_fold_special('ﬁ'), Some("fi"));
        assert_eq!(case_fold_special('A'), None);
    }
}
