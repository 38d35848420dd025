//! Tool-name order of the bridge: `a.name.localeCompare(b.name)` in Node with full ICU and
//! the default (root / `en`) locale, i.e. the CLDR root collation at tertiary strength.
//!
//! For printable ASCII (U+0020..U+007E, a superset of the MCP tool-name alphabet
//! `[A-Za-z0-9_.-]`) every character has one collation element, and the comparison is exact:
//!
//! 1. **Primary**: compare the characters' primary weights left to right; a proper prefix
//!    sorts first. Root order is space, then punctuation and symbols in the order of
//!    [`ROOT_ORDER_BEFORE_LETTERS`] (`_` before `-` before `.`), then digits, then letters,
//!    a letter and its capital sharing one weight (so `search` and `Search` tie here).
//! 2. **Secondary**: all these characters carry the common accent weight, so this never
//!    decides.
//! 3. **Tertiary**: compare case left to right, lowercase before uppercase.
//!
//! **Fallback** for any other character (controls, non-ASCII): it gets a primary weight after
//! `Z`, ordered by code point, and lowercase tertiary weight. ICU instead ignores most control
//! characters and interleaves accented and non-Latin letters with their base letters, so lists
//! with such names can order differently from Node; MCP tool names never contain them.
//!
//! The engine always uses root order. A JavaScript bridge running under a locale that tailors
//! Latin letters (Danish `aa`, Lithuanian `y`, Czech `ch`, …) would sort some names otherwise.

use core::cmp::Ordering;

/// Printable ASCII other than letters, in CLDR root order (letters follow, `a` < `b` < …).
const ROOT_ORDER_BEFORE_LETTERS: &[u8] = b" _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789";

/// Compares two tool names as the bridge's `localeCompare` sort does.
pub fn compare_tool_names(a: &str, b: &str) -> Ordering {
    a.chars()
        .map(primary_weight)
        .cmp(b.chars().map(primary_weight))
        .then_with(|| a.chars().map(is_uppercase).cmp(b.chars().map(is_uppercase)))
}

/// Primary weight: rank among the root-ordered printable ASCII characters, letters by their
/// lowercase form; other characters after all of them, by code point.
fn primary_weight(c: char) -> u32 {
    let folded = c.to_ascii_lowercase();
    if folded.is_ascii_lowercase() {
        return ROOT_ORDER_BEFORE_LETTERS.len() as u32 + (folded as u32 - 'a' as u32);
    }
    match ROOT_ORDER_BEFORE_LETTERS
        .iter()
        .position(|&b| char::from(b) == c)
    {
        Some(rank) => rank as u32,
        None => 0x100 + c as u32,
    }
}

/// Tertiary (case) weight: `false` (lowercase or uncased) sorts before `true` (uppercase).
fn is_uppercase(c: char) -> bool {
    c.is_ascii_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn sorted<'a>(names: &[&'a str]) -> Vec<&'a str> {
        let mut v = names.to_vec();
        v.sort_by(|a, b| compare_tool_names(a, b));
        v
    }

    #[test]
    fn root_order_of_printable_ascii_singletons() {
        // `[...printable ASCII].sort((a, b) => a.localeCompare(b)).join("")` in Node 20 / ICU 78.
        let node = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ";
        let mut chars: Vec<char> = (0x20u8..0x7f).map(char::from).collect();
        chars.sort_by(|a, b| {
            compare_tool_names(a.encode_utf8(&mut [0; 4]), b.encode_utf8(&mut [0; 4]))
        });
        assert_eq!(chars.into_iter().collect::<alloc::string::String>(), node);
    }

    #[test]
    fn letters_case_insensitive_first_then_lowercase_first() {
        assert_eq!(sorted(&["B", "a", "A", "b"]), ["a", "A", "b", "B"]);
        assert_eq!(compare_tool_names("ab", "Aa"), Ordering::Greater);
        assert_eq!(compare_tool_names("aB", "Ab"), Ordering::Less);
        assert_eq!(compare_tool_names("search", "search"), Ordering::Equal);
    }

    #[test]
    fn punctuation_before_digits_before_letters() {
        assert_eq!(
            sorted(&[
                "note1", "notea", "note_1", "note.1", "note-1", "note 1", "note"
            ]),
            [
                "note", "note 1", "note_1", "note-1", "note.1", "note1", "notea"
            ]
        );
        assert_eq!(
            sorted(&["a.b", "a-b", "a_b", "ab"]),
            ["a_b", "a-b", "a.b", "ab"]
        );
    }

    #[test]
    fn prefix_sorts_first_even_against_lowercase_case_difference() {
        assert_eq!(compare_tool_names("Read", "read_note"), Ordering::Less);
        assert_eq!(compare_tool_names("", "a"), Ordering::Less);
    }

    #[test]
    fn fallback_puts_other_characters_after_ascii_by_code_point() {
        assert_eq!(sorted(&["日本", "z", "é", "Z"]), ["z", "Z", "é", "日本"]);
    }
}
