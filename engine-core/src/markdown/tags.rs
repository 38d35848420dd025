//! Inline tag characters, after Obsidian's own rule: a tag runs until whitespace, a
//! character of the Unicode blocks General Punctuation (U+2000–U+206F) or Supplemental
//! Punctuation (U+2E00–U+2E7F), or one of ``'!"#$%&()*+,.:;<=>?@^`{|}~[]\``. Letters of any
//! script, digits, `_`, `-`, `/`, emoji and other symbols are tag characters. A tag needs at
//! least one character that is not a digit.

use super::syntax::is_js_whitespace;

/// `true` when `c` may appear in a tag.
pub(crate) fn is_tag_char(c: char) -> bool {
    !(is_js_whitespace(c)
        || ('\u{2000}'..='\u{206f}').contains(&c)
        || ('\u{2e00}'..='\u{2e7f}').contains(&c)
        || "'!\"#$%&()*+,.:;<=>?@^`{|}~[]\\".contains(c))
}

/// The end of the tag body starting at `from` (just after `#`), not past `limit`.
pub(crate) fn body_end(text: &str, from: usize, limit: usize) -> usize {
    text.get(from..limit)
        .and_then(|rest| {
            rest.char_indices()
                .find(|&(_, c)| !is_tag_char(c))
                .map(|(i, _)| from + i)
        })
        .unwrap_or(limit)
}

/// `true` when a tag body is a valid tag: non-empty and not all digits.
pub(crate) fn is_valid_body(body: &str) -> bool {
    body.bytes().any(|b| !b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(s: &str) -> &str {
        &s[1..body_end(s, 1, s.len())]
    }

    #[test]
    fn tag_bodies_stop_at_obsidians_terminators() {
        assert_eq!(body("#tag."), "tag");
        assert_eq!(body("#a/b-c_d e"), "a/b-c_d");
        assert_eq!(body("#café/été,"), "café/été");
        assert_eq!(body("#日本語 x"), "日本語");
        assert_eq!(body("#🎉party!"), "🎉party");
        assert_eq!(body("#a\u{2014}b"), "a");
        assert_eq!(body("#a\u{3000}b"), "a");
        assert_eq!(body("#tl#tm"), "tl");
        assert_eq!(body("#x[[y]]"), "x");
    }

    #[test]
    fn a_tag_needs_a_non_digit() {
        assert!(!is_valid_body("123"));
        assert!(!is_valid_body(""));
        assert!(is_valid_body("1a"));
        assert!(is_valid_body("2024/x"));
        assert!(is_valid_body("-"));
    }
}
