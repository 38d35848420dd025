//! Scripts written without spaces between words, which the analyzer indexes as
//! overlapping character bigrams.

/// Han (with iteration and Hangzhou numeral marks), Hiragana, Katakana (with the prolonged
/// sound mark and half-width forms), Hangul (syllables and jamo), and the Southeast Asian
/// scripts that UAX #29 leaves unsegmented: Thai, Lao, Myanmar, Khmer. Sorted, inclusive.
const BIGRAM_BLOCKS: &[(u32, u32)] = &[
    (0x0E00, 0x0EFF),   // Thai, Lao
    (0x1000, 0x109F),   // Myanmar
    (0x1100, 0x11FF),   // Hangul Jamo
    (0x1780, 0x17FF),   // Khmer
    (0x19E0, 0x19FF),   // Khmer Symbols
    (0x2E80, 0x2FDF),   // CJK and Kangxi radicals
    (0x3005, 0x3007),   // 々 〆 〇
    (0x3021, 0x3029),   // Hangzhou numerals
    (0x3031, 0x3035),   // kana repeat marks
    (0x3038, 0x303C),   // 〸 〹 〺 〻 〼
    (0x3041, 0x30FF),   // Hiragana, Katakana
    (0x3131, 0x318F),   // Hangul Compatibility Jamo
    (0x31F0, 0x31FF),   // Katakana Phonetic Extensions
    (0x3400, 0x4DBF),   // CJK Extension A
    (0x4E00, 0x9FFF),   // CJK Unified Ideographs
    (0xA960, 0xA97F),   // Hangul Jamo Extended-A
    (0xA9E0, 0xA9FF),   // Myanmar Extended-B
    (0xAA60, 0xAA7F),   // Myanmar Extended-A
    (0xAC00, 0xD7FF),   // Hangul Syllables, Jamo Extended-B
    (0xF900, 0xFAFF),   // CJK Compatibility Ideographs
    (0xFF66, 0xFFDC),   // half-width Katakana and Hangul
    (0x1AFF0, 0x1B16F), // Kana Extended, Supplement
    (0x20000, 0x3FFFF), // CJK Extensions B and later (planes 2 and 3)
];

/// Decimal digits inside [`BIGRAM_BLOCKS`]: numbers, tokenized like other numbers.
const DIGITS: &[(u32, u32)] = &[
    (0x0E50, 0x0E59),
    (0x0ED0, 0x0ED9),
    (0x1040, 0x1049),
    (0x1090, 0x1099),
    (0x17E0, 0x17E9),
    (0xA9F0, 0xA9F9),
];

/// Whether the letter `c` belongs to a script indexed by character bigrams.
///
/// The caller has already checked that `c` is a letter or number (punctuation of these
/// blocks, like `・` or `๏`, separates words as usual).
pub(super) fn is_bigram_letter(c: char) -> bool {
    let cp = u32::from(c);
    cp >= 0x0E00 && in_table(cp, BIGRAM_BLOCKS) && !in_table(cp, DIGITS)
}

fn in_table(cp: u32, table: &[(u32, u32)]) -> bool {
    let i = table.partition_point(|&(_, hi)| hi < cp);
    table.get(i).is_some_and(|&(lo, _)| lo <= cp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted() {
        for table in [BIGRAM_BLOCKS, DIGITS] {
            for w in table.windows(2) {
                assert!(w[0].0 <= w[0].1 && w[0].1 < w[1].0, "{w:x?}");
            }
        }
    }

    #[test]
    fn classifies_scripts() {
        for c in [
            '日', '本', 'ひ', 'カ', 'ー', '한', 'ᄀ', 'ไ', 'ກ', 'က', 'ក', '𠀀', '々', 'ｶ',
        ] {
            assert!(is_bigram_letter(c), "{c:?}");
        }
        for c in ['a', 'é', 'б', 'ع', 'क', '๕', '1', 'Ω', '\u{E000}'] {
            assert!(!is_bigram_letter(c), "{c:?}");
        }
    }
}
